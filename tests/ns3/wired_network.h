// Test helper: the wired Ns3Network of a fabric topology spec
// ("switch:2", "ring:4,link_bw=10Gbps"), or nullptr after a test failure
// naming the error.
#ifndef TRESTLE_TESTS_NS3_WIRED_NETWORK_H_
#define TRESTLE_TESTS_NS3_WIRED_NETWORK_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {

inline std::unique_ptr<Ns3Network> Wired(const std::string& spec,
                                         const Ns3NetworkOptions& options = {}) {
  absl::StatusOr<fabric::TopologyPtr> topology = fabric::TopologyBuilder::FromText(spec);
  EXPECT_TRUE(topology.ok()) << topology.status();
  if (!topology.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<Ns3Network>> network = Ns3Network::BuildWired(**topology, options);
  EXPECT_TRUE(network.ok()) << network.status();
  return network.ok() ? std::move(*network) : nullptr;
}

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_TESTS_NS3_WIRED_NETWORK_H_
