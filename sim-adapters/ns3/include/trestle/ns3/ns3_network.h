// Ns3Network: a network built in ns-3 for Trestle (part of trestle_ns3):
// the wired network of a topology spec (the fabric model's specs), or the
// wifi-adhoc scenario. It owns the process's ns-3 simulator while it lives:
// building a second network before the first is destroyed is an error.
//
// Endpoint i of the network is endpoint i of the topology (or node i of the
// scenario); the live adapter and sweeps map apps and ranks onto them.
// Usable without ns-3's headers (C++17 and C++20); the ns-3 side is behind
// impl() for the rest of trestle_ns3.
//
// Threading: build, use and destroy on one thread.
#ifndef TRESTLE_NS3_NS3_NETWORK_H_
#define TRESTLE_NS3_NS3_NETWORK_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "trestle/fabric/topology.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {

class Ns3Network {
 public:
  struct Impl;

  // Builds the wired network of `topology` (nodes, point-to-point links at
  // each link's bandwidth and latency, queues, IPv4 routing; see
  // helper/trestle-wired-network-helper.h). Errors: InvalidArgument for bad
  // options or a topology with more than 2^22 links; FailedPrecondition
  // while another Ns3Network exists.
  static absl::StatusOr<std::unique_ptr<Ns3Network>> BuildWired(
      const fabric::Topology& topology, const Ns3NetworkOptions& options);
  // Builds the wifi-adhoc scenario. Errors as BuildWired, and
  // InvalidArgument naming the flag for bad scenario options.
  static absl::StatusOr<std::unique_ptr<Ns3Network>> BuildWifiAdhoc(
      const WifiAdhocOptions& scenario, const Ns3NetworkOptions& options);

  ~Ns3Network();
  Ns3Network(const Ns3Network&) = delete;
  Ns3Network& operator=(const Ns3Network&) = delete;

  // "ring:8 (8 nodes, 8 links)", "wifi-adhoc:4 (aodv, constant positions in 100x100 m)".
  const std::string& description() const;
  std::uint32_t endpoint_count() const;
  std::uint32_t node_count() const;
  std::uint32_t link_count() const;
  // No transfer between two distinct endpoints is faster, in ns (before the
  // endpoint delay): the link and switch latencies of the shortest path, or
  // one Wi-Fi frame.
  std::uint64_t min_transfer_ns() const;
  const Ns3NetworkOptions& options() const;
  // Wall time the build took, seconds.
  double build_seconds() const;

  Impl& impl() { return *impl_; }

 private:
  explicit Ns3Network(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_NS3_NETWORK_H_
