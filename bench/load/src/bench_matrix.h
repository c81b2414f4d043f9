// BenchMatrix: the named grids of configurations that `--matrix` runs.
//
//   nsb2:  nodes {10, 50, 100, 500} x rates {10, 100, 1000} msg/s, the grid
//          of NSB's published overhead study; PULL unless a mode was given.
//   scale: clients {1000, 5000, 10000} x rates {10000, 100000} msg/s, then
//          a maximum-throughput run: 10 clients, closed loop.
//   cliff: clients {100, 500, 1000, 5000, 10000} at 10,000 msg/s: latency
//          against the client count at one rate.
//   scale and cliff give each PUSH client one shared connection unless
//   connections were chosen: 10,000 clients with three each would need
//   30,000 descriptors in the daemon.
//
// Every other setting (duration, size, store, arrivals, seed, ...) comes from
// the base configuration.
#pragma once

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bench_config.h"

namespace trestle::bench {

class BenchMatrix {
 public:
  // Messages each client keeps in flight in the maximum-throughput run.
  static constexpr std::uint32_t kMaxThroughputWindow = 256;

  // What the user chose explicitly; the rest is the matrix's to choose.
  struct Given {
    bool mode = false;         // otherwise nsb2 runs PULL
    bool connections = false;  // otherwise scale and cliff share (PUSH)
  };

  // The configurations of matrix `name`, derived from `base`.
  // InvalidArgument for an unknown name.
  static absl::StatusOr<std::vector<BenchConfig>> Expand(std::string_view name,
                                                         const BenchConfig& base, Given given);
};

}  // namespace trestle::bench
