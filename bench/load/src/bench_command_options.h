// BenchCommandOptions: what the `trestle bench` flags (bench_command.cc)
// fill in, and ResolveBase, which turns the ones given as text into the base
// configuration and rejects bad combinations. Used by RunBench (bench_run.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench_config.h"
#include "relay_launcher.h"

namespace trestle::bench {

struct BenchCommandOptions {
  BenchConfig base;
  std::string rate = "100";
  std::string duration = "10s";
  std::string warmup = "0s";
  std::string drain_timeout = "30s";
  std::string idle;
  std::string mode = "push";
  std::string arrivals = "constant";
  std::string matrix;
  std::string transport;  // "" = TCP unless too many connections
  std::vector<std::string> daemon;  // --daemon, each running daemon's address
  std::vector<pid_t> daemon_pids;   // --daemon-pid, in the same order
  pid_t sim_pid = 0;
  std::string peers = "any";
  std::string simulators = "first";
  // Bridges of several daemons started so far: each gets a fresh --run.
  std::uint32_t federated_runs = 0;
  std::string json;
  std::uint32_t repeat = 1;
  bool floor = false;
  std::vector<std::string> daemon_args;  // --trestled-arg
  RelayLauncher::Paths paths = RelayLauncher::Paths::Default();
  CLI::Option* mode_option = nullptr;
  CLI::Option* connections_option = nullptr;
  CLI::Option* daemons_option = nullptr;
};

// Fills in the parts of o.base that arrive as text (durations, rate, mode,
// arrivals, peers, simulators) and checks the flags against each other. Throws
// CLI::ValidationError naming the flag.
void ResolveBase(BenchCommandOptions& o);

}  // namespace trestle::bench
