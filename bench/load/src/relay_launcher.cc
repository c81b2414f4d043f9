#include "relay_launcher.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace trestle::bench {
namespace {

namespace fs = std::filesystem;

// "" for a clean exit (or nothing started), else what went wrong.
std::string Problem(platform::ProcessLauncher& process) {
  const std::string name = process.name();
  const std::optional<platform::ProcessExit> exit = process.Stop();
  if (!exit || exit->clean()) return "";
  return exit->Describe(name);
}

}  // namespace

RelayLauncher::Paths RelayLauncher::Paths::Default() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  // build/tools/trestle/trestle -> build/
  const fs::path build = ec ? fs::path(".") : exe.parent_path().parent_path().parent_path();
  return Paths{(build / "daemon" / "trestled").string(),
               (build / "sim-adapters" / "trestle-sim").string(),
               ec ? std::string("trestle") : exe.string()};
}

RelayLauncher::Spec RelayLauncher::Daemon(const Paths& paths, const std::string& store,
                                          const std::vector<std::string>& daemon_args) {
  Spec spec;
  spec.relay_name = "trestled";
  spec.relay_path = paths.trestled;
  // Every port is picked free, so benchmarks (and tests of them) can run
  // side by side and beside a daemon on the default ports.
  spec.relay_args = {"--admin-listen", "127.0.0.1:0", "--store", store};
  spec.relay_args.insert(spec.relay_args.end(), daemon_args.begin(), daemon_args.end());
  return spec;
}

RelayLauncher::Spec RelayLauncher::Bridge(const Paths& paths, const std::string& store, bool pull,
                                          const std::vector<std::string>& daemon_args,
                                          const std::string& ghost_id) {
  Spec spec = Daemon(paths, store, daemon_args);
  spec.peer_name = "the ghost simulator";
  spec.peer_path = paths.trestle_sim;
  spec.peer_args = {"ghost", "--id", ghost_id};
  if (pull) spec.peer_args.push_back("--pull");
  spec.peer_args.push_back("--daemon");
  spec.peer_ready_text = "connected to";
  return spec;
}

RelayLauncher::Spec RelayLauncher::Floor(const Paths& paths) {
  Spec spec;
  spec.relay_name = "the floor relay";
  spec.relay_path = paths.trestle;
  spec.relay_args = {"bench-floor-relay"};
  spec.peer_name = "the floor echo";
  spec.peer_path = paths.trestle;
  spec.peer_args = {"bench-floor-echo", "--relay"};
  spec.peer_ready_text = "connected to";
  return spec;
}

RelayLauncher::RelayLauncher(Spec spec) : spec_(std::move(spec)) {}

RelayLauncher::~RelayLauncher() {
  (void)Stop();
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

absl::Status RelayLauncher::Start(bool unix_socket, std::chrono::milliseconds timeout) {
  char dir_template[] = "/tmp/trestle-bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp: ", std::strerror(errno)));
  }
  dir_ = dir_template;
  const std::string port_file = dir_ + "/port";
  const std::string socket_path = dir_ + "/relay.sock";

  std::vector<std::string> relay_args = spec_.relay_args;
  for (const char* a : {"--listen", "127.0.0.1:0", "--port-file"}) relay_args.push_back(a);
  relay_args.push_back(port_file);
  if (unix_socket) {
    relay_args.push_back("--unix-socket");
    relay_args.push_back(socket_path);
  }
  // Says what failed and how, then the log's tail.
  auto failed = [this](platform::ProcessLauncher& process, const absl::Status& s,
                       const std::string& path) {
    const std::string tail = process.OutputTail();
    (void)Stop();
    return absl::Status(s.code(), absl::StrCat(s.message(), " (", path, "):\n", tail));
  };

  if (absl::Status s = relay_.Start(spec_.relay_path, relay_args,
                                    {.output_path = dir_ + "/relay.log", .name = spec_.relay_name});
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::vector<std::uint16_t>> ports = relay_.WaitForPortFile(port_file, timeout);
  if (!ports.ok()) return failed(relay_, ports.status(), spec_.relay_path);
  client_address_ =
      unix_socket ? "unix:" + socket_path : absl::StrCat("127.0.0.1:", ports->front());

  if (spec_.peer_path.empty()) return absl::OkStatus();
  std::vector<std::string> peer_args = spec_.peer_args;
  peer_args.push_back(client_address_);
  if (absl::Status s = peer_.Start(spec_.peer_path, peer_args,
                                   {.output_path = dir_ + "/peer.log", .name = spec_.peer_name});
      !s.ok()) {
    (void)Stop();
    return s;
  }
  if (absl::Status s = peer_.WaitForOutput(spec_.peer_ready_text, timeout); !s.ok()) {
    return failed(peer_, s, spec_.peer_path);
  }
  return absl::OkStatus();
}

absl::Status RelayLauncher::Stop() {
  std::string problems = Problem(peer_);
  const std::string relay_problem = Problem(relay_);
  if (!relay_problem.empty()) absl::StrAppend(&problems, problems.empty() ? "" : "; ", relay_problem);
  if (problems.empty()) return absl::OkStatus();
  return absl::InternalError(problems);
}

}  // namespace trestle::bench
