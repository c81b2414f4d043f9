// The ns-3 side of an Ns3Network (internal to trestle_ns3; C++17, ns-3
// headers): the simulator it owns and what the helpers built.
#ifndef TRESTLE_NS3_ADAPTER_NS3_NETWORK_IMPL_H_
#define TRESTLE_NS3_ADAPTER_NS3_NETWORK_IMPL_H_

#include <memory>
#include <string>

#include "adapter/simulation.h"
#include "trestle-network.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {

struct Ns3Network::Impl {
  explicit Impl(const Ns3NetworkOptions& network_options)
      : options(network_options), simulation(network_options.seed) {}

  Ns3NetworkOptions options;
  Simulation simulation;  // first in, last out: the nodes below are its
  ns3::TrestleNetwork network;
  std::string description;
  double build_seconds = 0;
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_ADAPTER_NS3_NETWORK_IMPL_H_
