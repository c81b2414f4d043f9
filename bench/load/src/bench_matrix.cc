#include "bench_matrix.h"

#include <string>

namespace trestle::bench {

absl::StatusOr<std::vector<BenchConfig>> BenchMatrix::Expand(std::string_view name,
                                                             const BenchConfig& base,
                                                             Given given) {
  std::vector<BenchConfig> configs;
  BenchConfig many = base;  // scale and cliff: thousands of clients
  if (!given.connections) many.connections = many.pull ? 3 : 1;
  if (name == "nsb2") {
    for (std::uint32_t nodes : {10u, 50u, 100u, 500u}) {
      for (double rate : {10.0, 100.0, 1000.0}) {
        BenchConfig c = base;
        c.nodes = nodes;
        c.rate = rate;
        c.window = 0;
        if (!given.mode) c.pull = true;
        configs.push_back(c);
      }
    }
    return configs;
  }
  if (name == "scale") {
    for (std::uint32_t nodes : {1000u, 5000u, 10000u}) {
      for (double rate : {10'000.0, 100'000.0}) {
        BenchConfig c = many;
        c.nodes = nodes;
        c.rate = rate;
        c.window = 0;
        configs.push_back(c);
      }
    }
    BenchConfig max = base;
    max.nodes = 10;
    max.window = base.window > 0 ? base.window : kMaxThroughputWindow;
    configs.push_back(max);
    return configs;
  }
  if (name == "cliff") {
    for (std::uint32_t nodes : {100u, 500u, 1000u, 5000u, 10000u}) {
      BenchConfig c = many;
      c.nodes = nodes;
      c.rate = 10'000;
      c.window = 0;
      configs.push_back(c);
    }
    return configs;
  }
  return absl::InvalidArgumentError("unknown matrix \"" + std::string(name) +
                                    "\" (expected nsb2, scale or cliff)");
}

}  // namespace trestle::bench
