// trestle-idle-clients: what an idle client costs the process that holds it.
// Connects N apps to a daemon on one EventLoop (a lane each of one
// connection, one shared connection each, or three connections each), lets
// them sit, and prints the process's resident memory before and after, per
// client. The daemon's limits must allow N sessions (and, without lanes,
// N or 3N descriptors on both sides).
//
// With --lockstep the apps join a lockstep run and wait in virtual time with
// no wake time, for --hold seconds: idle apps of a run, for measuring what
// they cost the coordinator while others talk (docs/benchmarks.md).
//
//   trestle-idle-clients --daemon 127.0.0.1:7878 --clients 10000 --layout lanes
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace {

// Resident set size of this process, in KiB (VmRSS of /proc/self/status).
long ResidentKiB() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      long kib = 0;
      status >> kib;
      return kib;
    }
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Resident memory per idle client of one process (docs/benchmarks.md)"};
  std::string daemon = "127.0.0.1:7878";
  int clients = 1000;
  std::string layout = "lanes";
  app.add_option("--daemon", daemon, "trestled's address")->capture_default_str();
  app.add_option("--clients", clients, "apps to connect")->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--layout", layout,
                 "lanes: one connection for all (multiplex); shared: one each; three: three each")
      ->capture_default_str()
      ->check(CLI::IsMember({"lanes", "shared", "three"}));
  bool lockstep = false;
  double hold_s = 0;
  app.add_flag("--lockstep", lockstep,
               "join the daemon's lockstep run and wait in virtual time (AwaitNext)");
  app.add_option("--hold", hold_s, "then stay connected this many seconds")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  CLI11_PARSE(app, argc, argv);

  trestle::EventLoop loop;
  const long before = ResidentKiB();
  std::vector<std::unique_ptr<trestle::AppClient>> apps;
  apps.reserve(static_cast<std::size_t>(clients));
  int ready = 0;
  int failed = 0;
  std::string first_error;
  for (int i = 0; i < clients; ++i) {
    trestle::ClientOptions options;
    options.daemon = daemon;
    options.client_id = absl::StrCat("idle-", i);
    options.multiplex = layout == "lanes";
    options.shared_connection = layout == "shared";
    options.lockstep = lockstep;
    apps.push_back(std::make_unique<trestle::AppClient>(loop, options));
    absl::Status s = apps.back()->ConnectAsync([&](absl::Status st) {
      if (st.ok()) {
        ++ready;
      } else {
        if (failed++ == 0) first_error = st.ToString();
      }
    });
    if (!s.ok() && failed++ == 0) first_error = s.ToString();
  }
  loop.RunUntil([&] { return ready + failed == clients; }, std::chrono::seconds(120));
  if (lockstep) {
    for (auto& client : apps) {
      if (!client->connected()) continue;
      client->OnMessage([](trestle::Message&&) {});
      if (absl::Status s = client->AwaitNext(); !s.ok() && failed++ == 0) first_error = s.ToString();
    }
  }
  loop.RunFor(std::chrono::milliseconds(500));  // settle: nothing more to do
  const long after = ResidentKiB();
  std::printf("idle_clients layout=%s clients=%d connected=%d rss_before_kib=%ld "
              "rss_after_kib=%ld kib_per_client=%.1f\n",
              layout.c_str(), clients, ready, before, after,
              ready > 0 ? static_cast<double>(after - before) / ready : 0.0);
  std::fflush(stdout);
  if (hold_s > 0) loop.RunFor(std::chrono::milliseconds(static_cast<long>(hold_s * 1000)));
  if (failed > 0) {
    std::fprintf(stderr, "trestle-idle-clients: %d clients failed; the first: %s\n", failed,
                 first_error.c_str());
    return 1;
  }
  return 0;
}
