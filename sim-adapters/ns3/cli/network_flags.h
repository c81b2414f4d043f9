// Internal to trestle_ns3_cli: the flags that shape an ns-3 network, shared
// by the live adapter (`trestle-sim ns3`) and the sweep backend
// (`sweep --backend ns3`): --transport --tcp --queue --queue-size
// --ecn-threshold --mtu --ip-routing --udp-timeout.
#ifndef TRESTLE_NS3_CLI_NETWORK_FLAGS_H_
#define TRESTLE_NS3_CLI_NETWORK_FLAGS_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter::cli {

struct NetworkFlags {
  std::string transport = "tcp";
  std::string tcp = "cubic";
  std::string queue = "fifo";
  std::string queue_size = "1000p";
  std::uint32_t ecn_threshold = 10;
  std::uint32_t mtu = 1500;
  std::string ip_routing = "auto";
  std::string udp_timeout = "1s";

  // Adds the flags to `command`, in help group `group`.
  void AddTo(CLI::App* command, const std::string& group);
  // The options they set over `base`; errors name the flag.
  absl::StatusOr<Ns3NetworkOptions> Resolve(Ns3NetworkOptions base) const;
};

// A duration flag ("500ns", "1.5us", "10s") in whole ns; errors name `flag`.
absl::StatusOr<std::uint64_t> ParseDurationNs(const std::string& text, const std::string& flag);

}  // namespace trestle::ns3_adapter::cli

#endif  // TRESTLE_NS3_CLI_NETWORK_FLAGS_H_
