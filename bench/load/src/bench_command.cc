#include "trestle/bench/bench_command.h"

#include <memory>

#include "bench_command_options.h"
#include "bench_run.h"

namespace trestle::bench {

void RegisterBenchCommand(CLI::App& app) {
  // Owned by the subcommand's callback, which CLI11 keeps alive with `app`.
  auto o = std::make_shared<BenchCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench",
      "Measure the bridge's own overhead: N ghost apps on one event loop send to random peers "
      "at an open-loop rate through trestled and the ghost simulator; prints a Markdown table");
  sub->add_option("--nodes", o->base.nodes, "App clients (one process, one event loop)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1'000'000u));
  sub->add_option("--rate", o->rate,
                  "Total messages/s (open loop), or \"max\": closed loop, --window in flight "
                  "per client")
      ->capture_default_str();
  sub->add_option("--duration", o->duration, "Sending time per configuration (500ms, 10s, 2m)")
      ->capture_default_str();
  sub->add_option("--size", o->base.size, "Payload bytes (at least 8)")->capture_default_str();
  o->mode_option = sub->add_option("--mode", o->mode,
                                   "push | pull, for the apps and the ghost (--matrix nsb2: "
                                   "pull unless given)")
                       ->check(CLI::IsMember({"push", "pull"}))
                       ->capture_default_str();
  sub->add_option("--daemon", o->daemon,
                  "Use this running daemon (HOST:PORT or unix:PATH, with a ghost simulator "
                  "attached) instead of starting one per configuration. Given several times "
                  "(or as a comma list): daemons of one federated bridge, a simulator attached "
                  "to one of them; app i attaches to the (i mod count)th")
      ->type_size(1)
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  o->daemons_option =
      sub->add_option("--daemons", o->base.daemons,
                      "Start this many trestled per configuration, federated: one bridge "
                      "sharing the --store (redis://, required above 1) under a fresh --run "
                      "name, --daemon-id 1..N, the ghost on the first (see --simulators); app i "
                      "attaches to daemon (i mod N) + 1")
          ->check(CLI::Range(1u, 64u))
          ->capture_default_str();
  sub->add_option("--peers", o->peers,
                  "any: each message goes to a random other app; across: to a random app on "
                  "another daemon than its sender's (several daemons only); within: to a "
                  "random other app on its sender's daemon: none crosses if its daemon has a "
                  "simulator (--simulators each), else it crosses for its transit")
      ->check(CLI::IsMember({"any", "across", "within"}))
      ->capture_default_str();
  sub->add_option("--simulators", o->simulators,
                  "With --daemons: first: one ghost simulator, on the first daemon (the others "
                  "hand it their apps' transits); each: a ghost on every daemon, so only "
                  "messages between apps of different daemons cross. A no-op with one daemon; "
                  "refused with --daemon")
      ->check(CLI::IsMember({"first", "each"}))
      ->capture_default_str();
  sub->add_option("--transport", o->transport,
                  "How the apps reach the daemon this command starts: tcp or unix (default: "
                  "tcp, unix above 24,000 connections)")
      ->check(CLI::IsMember({"tcp", "unix"}));
  sub->add_option("--daemon-pid", o->daemon_pids,
                  "With --daemon: its pid, to report its CPU and RSS (else n/a); one per "
                  "--daemon, in the same order")
      ->type_size(1)
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  sub->add_option("--sim-pid", o->sim_pid, "With --daemon: the simulator's pid, for its CPU");
  sub->add_option("--store", o->base.store, "Payload store of the started daemon (or "
                                            "daemons, which share it): memory or "
                                            "redis://HOST:PORT/DB")
      ->capture_default_str();
  sub->add_option("--arrivals", o->arrivals, "constant | poisson spacing of the sends")
      ->check(CLI::IsMember({"constant", "poisson"}))
      ->capture_default_str();
  sub->add_option("--seed", o->base.seed, "Seed of peers and Poisson gaps")->capture_default_str();
  sub->add_option("--json", o->json, "Also write one JSON object per configuration (JSON Lines)");
  sub->add_option("--matrix", o->matrix,
                  "nsb2 | scale | cliff: run a grid of configurations (see docs/benchmarks.md)")
      ->check(CLI::IsMember({"nsb2", "scale", "cliff"}));
  sub->add_option("--repeat", o->repeat,
                  "Run each configuration N times and report one row: counts summed over the "
                  "runs, every other figure their median")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  sub->add_option("--warmup", o->warmup, "Sent and checked before measuring")
      ->capture_default_str();
  sub->add_option("--drain-timeout", o->drain_timeout,
                  "After sending, how long to wait for every message to an app that reads to "
                  "arrive; what did not is reported as lost")
      ->capture_default_str();
  sub->add_option("--idle", o->idle,
                  "Measure the daemon's CPU this long with all clients connected and no "
                  "traffic (default 0; 2s with --matrix scale or cliff)");
  sub->add_option("--window", o->base.window,
                  "With --rate max: messages in flight per client (default 256)");
  o->connections_option =
      sub->add_option("--connections", o->base.connections,
                      "Connections per app: 3 (ctrl, send, recv) or 1 (shared; push only). "
                      "--matrix scale and cliff: 1 in push unless given")
          ->check(CLI::IsMember({1u, 3u}))
          ->capture_default_str();
  sub->add_option("--connect-wave", o->base.connect_wave, "Handshakes outstanding at once")
      ->capture_default_str();
  sub->add_flag("--floor", o->floor,
               "Also run the same traffic through the floor, a minimal relay of the bridge's "
               "shape (app -> relay -> echo -> relay -> app: separate processes, a length "
               "prefix and nothing else, the same transport, one libuv loop each) and add its "
               "resident and e2e p50/p99 and the bridge's p99 as a multiple of them");
  sub->add_option("--stalled-apps", o->base.stalled_apps,
                  "Add N apps that connect and never read; the others send to them as to any "
                  "peer (a message goes to a stalled app with probability N / (nodes + N - 1)). "
                  "What they are sent is reported as undelivered, not lost. Open loop only")
      ->check(CLI::Range(0u, 1'000'000u))
      ->capture_default_str();
  sub->add_option("--trestled-arg", o->daemon_args,
                  "Pass one more argument to each trestled this command starts (repeatable; "
                  "write --trestled-arg=--flag=value)")
      ->type_size(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  sub->add_option("--trestled", o->paths.trestled, "trestled binary to start")
      ->capture_default_str();
  sub->add_option("--trestle-sim", o->paths.trestle_sim, "trestle-sim binary to start")
      ->capture_default_str();
  sub->callback([o] { RunBench(*o); });
}

}  // namespace trestle::bench
