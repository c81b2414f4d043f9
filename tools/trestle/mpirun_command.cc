#include "mpirun_command.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "absl/strings/str_cat.h"
#include "layer_options.h"
#include "mpirun_args.h"
#include "rank_ids.h"
#include "run_watch.h"
#include "timeline_merge.h"
#include "trestle/fabric/bandwidth.h"
#include "trestle/platform/process_launcher.h"

namespace trestle {
namespace {

namespace fs = std::filesystem;
using platform::ProcessLauncher;

struct MpirunFlags {
  std::string daemon;
  std::string topology;
  std::string model = "unaware";
  std::string link_bw, link_latency, endpoint_delay, routing, seed, ordering;
  std::string map;
  int np = 0;
  std::string compute = "none";
  std::string coll;
  std::string reduce_bw;
  std::uint64_t poll_ns = 100;
  std::string gettimeofday = "virtual";
  std::string mirror = "auto";
  std::string simulator = "fabric";
  std::string trace;
  std::string timeline;
  std::string log_dir;
  std::string lib, trestled, trestle_sim;
  std::string admin;  // with --daemon: its admin address, to watch the run
  bool quiet = false;
  double progress_s = 0;  // 0: 1 s on a terminal, else 10 s
  double stall_s = 5;
  std::vector<std::string> command;
};

// SIGINT or SIGTERM to trestle mpirun: stop mpirun (which stops the ranks),
// then the simulator and the daemon, and exit.
volatile std::sig_atomic_t stop_signal = 0;
extern "C" void OnStopSignal(int signum) { stop_signal = signum; }

[[noreturn]] void Fail(const std::string& message) {
  std::cerr << "trestle mpirun: " << message << "\n";
  std::exit(2);
}

// This build's binaries and library: build/tools/trestle/trestle -> build/.
fs::path BuildDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : exe.parent_path().parent_path().parent_path();
}

std::string OnPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path == nullptr ? "/usr/bin:/bin" : path;
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  Fail(absl::StrCat("'", name,
                    "' is not on PATH (Open MPI, MPICH: deploy/install-deps.sh installs them)"));
}

// What `launcher --version` prints within 10 s; "" if it cannot run.
std::string VersionOutput(const std::string& launcher) {
  char path[] = "/tmp/trestle-mpirun-version.XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "";
  close(fd);
  std::string text;
  ProcessLauncher p;
  if (p.Start(launcher, {"--version"}, {path, "launcher"}).ok()) {
    if (!p.Wait(std::chrono::seconds(10))) p.Stop(std::chrono::seconds(1));
    text = p.OutputTail(4000);
  }
  fs::remove(path);
  return text;
}

// The MPI of the launcher after --, which picks the layer's build.
MpiAbi LauncherAbi(const std::vector<std::string>& command) {
  const std::string launcher = command.empty() ? std::string() : command[0];
  absl::StatusOr<MpiAbi> abi = MpiAbiOf(
      launcher,
      [&] {
        std::error_code ec;
        return fs::canonical(OnPath(launcher), ec).string();
      },
      [&] { return VersionOutput(OnPath(launcher)); });
  if (!abi.ok()) Fail(std::string(abi.status().message()));
  return *abi;
}

// The simulator's command line: trestle-sim fabric or ns3, on the same
// topology flags (ns-3 has no --model or --routing: refused with it).
std::vector<std::string> SimulatorArgs(const MpirunFlags& f, const std::string& address,
                                       const std::string& map) {
  std::vector<std::string> args = {f.simulator, "--daemon", address, "--topology", f.topology,
                                   "--map", map};
  if (f.simulator == "fabric") {
    args.insert(args.end(), {"--model", f.model});
    if (!f.routing.empty()) args.insert(args.end(), {"--routing", f.routing});
  }
  for (const auto& [flag, value] :
       {std::pair{"--link-bw", f.link_bw}, {"--link-latency", f.link_latency},
        {"--endpoint-delay", f.endpoint_delay}, {"--seed", f.seed}, {"--ordering", f.ordering}}) {
    if (!value.empty()) args.insert(args.end(), {flag, value});
  }
  return args;
}

// --simulator ns3 with a flag only the fabric has.
void CheckSimulatorFlags(const MpirunFlags& f, bool model_given) {
  if (f.simulator == "fabric") return;
  if (!f.daemon.empty()) Fail("--simulator: with --daemon, the running daemon's simulator is used");
  if (model_given) Fail("--model is the fabric's: trestle-sim ns3 is a packet-level model");
  if (!f.routing.empty()) Fail("--routing is the fabric's: ns-3 routes by its IP routing");
}

// The ranks' settings, checked as the library will read them.
// `timeline_dir`: where the ranks write their timelines (empty: none).
EnvironmentList RankSettings(const MpirunFlags& f, const std::string& daemon,
                             const std::string& timeline_dir) {
  EnvironmentList env = {{"LD_PRELOAD", f.lib},
                         {"TRESTLE_MPI_MIRROR", f.mirror},
                         {"TRESTLE_MPI_DAEMON", daemon},
                         {"TRESTLE_MPI_COMPUTE", f.compute},
                         {"TRESTLE_MPI_POLL_NS", std::to_string(f.poll_ns)},
                         {"TRESTLE_MPI_GETTIMEOFDAY", f.gettimeofday}};
  if (!f.coll.empty()) env.emplace_back("TRESTLE_MPI_COLL", f.coll);
  if (!timeline_dir.empty()) env.emplace_back("TRESTLE_MPI_TIMELINE", timeline_dir);
  if (!f.reduce_bw.empty()) {
    absl::StatusOr<fabric::Bandwidth> bw = fabric::Bandwidth::Parse(f.reduce_bw);
    if (!bw.ok()) Fail(absl::StrCat("--reduce-bw: ", bw.status().message()));
    env.emplace_back("TRESTLE_MPI_REDUCE_BW", absl::StrCat(bw->bytes_per_ns() * 1e9));
  }
  std::map<std::string, std::string> lookup(env.begin(), env.end());
  absl::StatusOr<mpi::LayerOptions> checked = mpi::LayerOptions::FromEnvironment(
      [&](const char* name) -> const char* {
        auto it = lookup.find(name);
        return it == lookup.end() ? nullptr : it->second.c_str();
      });
  if (!checked.ok()) Fail(std::string(checked.status().message()));
  if (std::getenv("TRESTLE_TOKEN") != nullptr) env.emplace_back("TRESTLE_TOKEN", "");
  return env;
}

// Stops `p` and says how it went if it did not end cleanly.
void StopAndReport(ProcessLauncher& p, const std::string& log) {
  const std::optional<platform::ProcessExit> exit = p.Stop(std::chrono::seconds(5));
  if (exit && !exit->clean()) {
    std::cerr << "trestle mpirun: " << exit->Describe(p.name()) << "; its output (" << log
              << "):\n"
              << p.OutputTail() << "\n";
  }
}

RunWatch::Options WatchOptions(const MpirunFlags& f) {
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const double progress_s = f.progress_s > 0 ? f.progress_s : terminal ? 1 : 10;
  RunWatch::Options o;
  o.quiet = f.quiet;
  o.progress = {std::chrono::milliseconds(static_cast<std::int64_t>(progress_s * 1000)), terminal};
  o.stall_after = std::chrono::milliseconds(
      f.stall_s > 0 ? static_cast<std::int64_t>(f.stall_s * 1000) : INT64_MAX / 2);
  return o;
}

int Run(MpirunFlags& f) {
  if (f.daemon.empty() == f.topology.empty()) {
    Fail("give --daemon ADDR (a running lockstep trestled and simulator) or --topology SPEC "
         "(trestle mpirun starts both), not both");
  }
  const fs::path build = BuildDir();
  const MpiAbi abi = LauncherAbi(f.command);
  if (f.lib.empty()) f.lib = (build / "mpi" / LayerFileName(abi)).string();
  f.lib = fs::absolute(f.lib).string();
  if (access(f.lib.c_str(), R_OK) != 0) Fail(absl::StrCat("--lib ", f.lib, ": no such library"));
  const int np = f.np > 0 ? f.np : [&] {
    absl::StatusOr<int> n = WorldSizeOf(f.command, abi);
    if (!n.ok()) Fail(std::string(n.status().message()));
    return *n;
  }();
  RankSettings(f, "check", "");  // every setting is checked before anything starts
  if (!f.timeline.empty()) {
    f.timeline = fs::absolute(f.timeline).string();
    const fs::path parent = fs::path(f.timeline).parent_path();
    if (!fs::is_directory(parent)) {
      Fail(absl::StrCat("--timeline ", f.timeline, ": no such directory ", parent.string()));
    }
    if (access(parent.c_str(), W_OK) != 0) {  // known now, not at the end of the run
      Fail(absl::StrCat("--timeline ", f.timeline, ": cannot write in ", parent.string()));
    }
  }

  std::string dir = f.log_dir;
  const bool own_dir = dir.empty();
  if (own_dir) {
    char tmpl[] = "/tmp/trestle-mpirun.XXXXXX";
    if (mkdtemp(tmpl) == nullptr) Fail("cannot make a temporary directory in /tmp");
    dir = tmpl;
  } else {
    fs::create_directories(dir);
  }
  ProcessLauncher daemon, sim;
  std::string address = f.daemon;
  if (address.empty()) {
    std::string map = f.map;
    if (map.empty()) {
      map = dir + "/map.yaml";
      std::ofstream out(map);
      for (int k = 0; k < np; ++k) out << "rank-" << k << ": " << k << "\n";
    }
    // The ranks by id, so that the daemon can name one that never joins.
    std::vector<std::string> dargs = {"--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0",
                                      "--port-file", dir + "/port", "--log-level", "warn",
                                      "--time-mode", "lockstep", "--lockstep-apps",
                                      RankClientIdList(np)};
    if (!f.trace.empty()) dargs.insert(dargs.end(), {"--trace", f.trace});
    const std::string trestled = f.trestled.empty() ? (build / "daemon" / "trestled").string()
                                                    : f.trestled;
    if (absl::Status s = daemon.Start(trestled, dargs, {dir + "/trestled.log", "trestled"});
        !s.ok()) {
      Fail(std::string(s.message()));
    }
    absl::StatusOr<std::vector<std::uint16_t>> ports =
        daemon.WaitForPortFile(dir + "/port", std::chrono::seconds(10));
    if (!ports.ok()) Fail(absl::StrCat("trestled: ", ports.status().message()));
    if (ports->size() < 2) Fail("trestled's port file has no admin port");
    address = absl::StrCat("127.0.0.1:", (*ports)[0]);
    f.admin = absl::StrCat("127.0.0.1:", (*ports)[1]);
    const std::vector<std::string> sargs = SimulatorArgs(f, address, map);
    const std::string trestle_sim =
        f.trestle_sim.empty() ? (build / "sim-adapters" / "trestle-sim").string() : f.trestle_sim;
    if (absl::Status s = sim.Start(trestle_sim, sargs, {dir + "/trestle-sim.log", "trestle-sim"});
        !s.ok()) {
      Fail(std::string(s.message()));
    }
    if (absl::Status s = sim.WaitForOutput("connected", std::chrono::seconds(10)); !s.ok()) {
      std::cerr << "trestle mpirun: trestle-sim " << f.simulator
                << " did not connect: " << s.message() << "\n"
                << sim.OutputTail() << "\n";
      StopAndReport(daemon, dir + "/trestled.log");
      std::exit(2);
    }
  }

  std::string timeline_dir;
  if (!f.timeline.empty()) {
    timeline_dir = dir + "/timeline";
    fs::remove_all(timeline_dir);  // none of an earlier run's ranks (--log-dir)
    fs::create_directories(timeline_dir);
  }
  const std::vector<std::string> command =
      WithRankEnvironment(f.command, RankSettings(f, address, timeline_dir), abi);
  ProcessLauncher mpirun;
  const std::string launcher = OnPath(command[0]);
  if (absl::Status s = mpirun.Start(launcher, {command.begin() + 1, command.end()},
                                    {"", "mpirun"});
      !s.ok()) {
    Fail(std::string(s.message()));
  }
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  std::unique_ptr<RunWatch> watch;
  if (!f.admin.empty()) {
    if (!f.quiet) {
      std::cerr << "trestle mpirun: trestled's admin service is on " << f.admin
                << " (trestle status --admin " << f.admin << ")\n";
    }
    watch = std::make_unique<RunWatch>(f.admin, np, WatchOptions(f));
  }
  std::optional<platform::ProcessExit> exit;
  while (!(exit = mpirun.Wait(std::chrono::milliseconds(200)))) {
    if (stop_signal != 0) exit = mpirun.Stop(std::chrono::seconds(5), stop_signal);
    if (watch) watch->Tick();
  }
  // Never silently real: every rank must have joined the run.
  absl::Status joined = absl::OkStatus();
  if (watch && stop_signal == 0 && exit->signal == 0) joined = watch->CheckEveryRankJoined();
  if (sim.pid() > 0) StopAndReport(sim, dir + "/trestle-sim.log");
  if (daemon.pid() > 0) StopAndReport(daemon, dir + "/trestled.log");
  if (!timeline_dir.empty()) WriteMergedTimeline(timeline_dir, np, f.timeline, f.quiet);
  if (own_dir) fs::remove_all(dir);
  if (exit->signal != 0) {
    std::cerr << "trestle mpirun: " << exit->Describe("mpirun") << "\n";
    return 128 + exit->signal;
  }
  if (absl::IsFailedPrecondition(joined)) {
    watch->Say(std::string(joined.message()));
    return exit->exit_code != 0 ? exit->exit_code : 3;
  }
  if (!joined.ok()) {
    watch->Say(absl::StrCat("cannot tell whether every rank joined the run: ", joined.message()));
  }
  return exit->exit_code;
}

}  // namespace

void RegisterMpirunCommand(CLI::App& app) {
  auto f = std::make_shared<MpirunFlags>();
  CLI::App* cmd = app.add_subcommand(
      "mpirun",
      "run an unmodified MPI program on a modelled network, in lockstep virtual time: "
      "trestle mpirun [--daemon ADDR | --topology SPEC] [OPTIONS] -- mpirun -np N PROGRAM ...");
  cmd->add_option("--daemon", f->daemon,
                  "a running trestled (--time-mode lockstep --lockstep-apps N) with its "
                  "simulator; default: start both for the run (--topology)");
  cmd->add_option("--topology", f->topology,
                  "the network for the simulator this starts (--simulator): a topology "
                  "spec or YAML file, e.g. dragonfly:p=4,a=4,h=2,g=5");
  cmd->add_option("--simulator", f->simulator,
                  "the simulator this starts: fabric (trestle-sim fabric, the analytical "
                  "model) or ns3 (trestle-sim ns3, packet level: TCP over the same topology)")
      ->capture_default_str()
      ->check(CLI::IsMember({"fabric", "ns3"}));
  CLI::Option* model =
      cmd->add_option("--model", f->model, "fabric model: unaware or flow")->capture_default_str();
  cmd->add_option("--link-bw", f->link_bw, "link bandwidth the spec leaves unset, e.g. 400Gbps");
  cmd->add_option("--link-latency", f->link_latency, "link latency the spec leaves unset, e.g. 500ns");
  cmd->add_option("--endpoint-delay", f->endpoint_delay, "per-message endpoint overhead, e.g. 10ns");
  cmd->add_option("--routing", f->routing, "minimal, minimal-dmodk, valiant or adaptive");
  cmd->add_option("--seed", f->seed, "the model's seed");
  cmd->add_option("--ordering", f->ordering,
                  "connection (a pair's messages in order, each one's bytes behind the previous "
                  "one's; the simulator's default) or message (each on its own)");
  cmd->add_option("--map", f->map,
                  "YAML file of 'rank-K: endpoint' lines (default: rank K on endpoint K)");
  cmd->add_option("--np", f->np, "number of ranks (default: mpirun's -np/-n/-c values)");
  cmd->add_option("--compute", f->compute,
                  "compute between MPI calls: none (takes no virtual time; deterministic) or "
                  "measured[:SCALE] (the thread's CPU time, times SCALE)")
      ->capture_default_str();
  cmd->add_option("--coll", f->coll,
                  "forced collective algorithms, e.g. allreduce=ring,bcast=binomial (default: "
                  "chosen per call as Open MPI's tuned rules; docs/mpi.md)");
  cmd->add_option("--reduce-bw", f->reduce_bw,
                  "reduction throughput, e.g. 100GBps: a reduction step takes bytes / BW "
                  "(default: reductions are free)");
  cmd->add_option("--poll-ns", f->poll_ns,
                  "virtual ns an MPI_Test or MPI_Iprobe that finds nothing takes, and a third "
                  "clock reading in a row at the same time")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--gettimeofday", f->gettimeofday,
                  "virtual: gettimeofday called by the program returns its virtual time; real")
      ->capture_default_str();
  cmd->add_option("--mirror", f->mirror,
                  "how collectives are mirrored: steps (each message of the algorithm's "
                  "pattern through trestled, one lockstep step at a time), collectives (each "
                  "rank's part whole, in batches, replayed by the simulator: needs a simulator "
                  "that declares it, as trestle-sim fabric does), or auto (collectives when the "
                  "run's simulator declares that it replays them, else steps)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "steps", "collectives"}));
  cmd->add_option("--trace", f->trace, "trestled writes its message trace here (with --topology)");
  cmd->add_option("--timeline", f->timeline,
                  "write every rank's MPI calls and messages, in virtual time, to this file "
                  "(Chrome trace JSON, for Perfetto or chrome://tracing)")
      ->type_name("FILE");
  cmd->add_option("--admin", f->admin,
                  "with --daemon: its admin address HOST:PORT, to watch the run (progress, "
                  "stall report, every rank joined) as with --topology");
  cmd->add_flag("--quiet", f->quiet,
                "no admin address and progress line (stall reports and errors stay)");
  cmd->add_option("--progress", f->progress_s,
                  "seconds between progress lines on stderr (default: 1, updated in place, on a "
                  "terminal; else 10)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--stall-report", f->stall_s,
                  "name the rank (or simulator) holding virtual time once it has not moved for "
                  "this many seconds (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--log-dir", f->log_dir,
                  "keep trestled's and the simulator's output here (default: a temporary "
                  "directory, removed)");
  cmd->add_option("--lib", f->lib,
                  "the layer to preload (default: this build's for the launcher's MPI: "
                  "libtrestle-mpi.so, or libtrestle-mpi-mpich.so under MPICH's mpiexec.mpich)");
  cmd->add_option("--trestled", f->trestled, "trestled binary (default: this build's)");
  cmd->add_option("--trestle-sim", f->trestle_sim, "trestle-sim binary (default: this build's)");
  cmd->add_option("command", f->command,
                  "the launcher (Open MPI's mpirun, MPICH's mpiexec.mpich) and its arguments, "
                  "after --")->required();
  cmd->callback([f, model] {
    CheckSimulatorFlags(*f, model->count() > 0);
    std::exit(Run(*f));
  });
}

}  // namespace trestle
