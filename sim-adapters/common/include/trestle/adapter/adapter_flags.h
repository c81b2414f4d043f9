// The command-line flags live adapters share, for their trestle-sim
// subcommands (CLI11). Each struct adds its flags to a subcommand and turns
// the parsed text into settings; nothing here connects or prints.
//
//   ConnectionFlags       --daemon --id --token --pull (every live adapter)
//   EndpointAdapterFlags  --map --time-mode (alias --time) --dilation
//                         --loss-rate (adapters that model a network of
//                         endpoints: fabric, later ns-3)
//
// The structs must outlive the parse (keep them in a shared_ptr owned by the
// subcommand's callback).
#ifndef TRESTLE_ADAPTER_ADAPTER_FLAGS_H_
#define TRESTLE_ADAPTER_ADAPTER_FLAGS_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "trestle/adapter/endpoint_map.h"
#include "trestle/adapter/sim_adapter.h"
#include "trestle/adapter/time_mode.h"
#include "trestle/client_options.h"

namespace trestle::adapter {

struct ConnectionFlags {
  ClientOptions client;
  bool pull = false;

  // `default_id` names the simulator unless --id says otherwise;
  // `default_daemon` "" means --daemon has no default (the caller checks it
  // was given). Flags go into help group `group` ("": the default one).
  void AddTo(CLI::App* command, const std::string& default_id, const std::string& default_daemon,
             const std::string& group);
  // The client options, with the delivery mode --pull chose.
  ClientOptions Resolve() const;
};

struct EndpointAdapterFlags {
  std::string map;
  std::string time_mode;  // "" follows the daemon
  double dilation = 1.0;
  double loss_rate = 0.0;

  void AddTo(CLI::App* command, const std::string& group);
  // The SimAdapter options these flags set (time mode, dilation, loss rate),
  // over `base` (name, seed, pacing). Errors name the flag's value (an
  // unknown time mode, a loss rate or dilation out of range).
  absl::StatusOr<SimAdapterOptions> Resolve(SimAdapterOptions base) const;
  // The --map file for a network of `endpoint_count` endpoints, or without
  // --map the endpoints ids name by their number, else by first appearance
  // (EndpointMap). Errors as EndpointMap::FromFile.
  absl::StatusOr<EndpointMap> LoadMap(std::uint32_t endpoint_count) const;
  // For an adapter's start-up line: the --map file, or how ids are placed
  // without one.
  std::string MapDescription() const;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_ADAPTER_FLAGS_H_
