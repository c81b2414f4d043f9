// NodeAddressMap: which IPv4 address each node of a gateway run has (part of
// trestle_gateway). The node name is the gateway app's client id, so a packet
// for an address goes to the app of the node that has it.
//
// The config file has the form of an adapter's --map file (EndpointMap),
// read by the same reader (platform::ParseYamlIdMap): a flat YAML mapping,
// node name to value, here an IPv4 address with an optional prefix length
// (default 24):
//
//     # node: address[/prefix]
//     n0: 10.77.0.1
//     n1: 10.77.0.2/24
//
// Errors name the node and the value. Immutable once built; lookups do not
// allocate.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle::gateway {

// The prefix length of an address written without one.
inline constexpr int kDefaultPrefixLength = 24;

struct NodeAddress {
  std::string node;
  std::uint32_t address = 0;  // host byte order
  int prefix_length = kDefaultPrefixLength;
};

class NodeAddressMap {
 public:
  // InvalidArgument, naming the node, when: the text is not YAML, not a
  // non-empty mapping, a node name is empty or over 255 bytes (the
  // daemon's client id limit), a value is not a dotted-quad IPv4 address
  // with an optional /0..32, two nodes share an address, or a node appears
  // twice.
  static absl::StatusOr<NodeAddressMap> FromYaml(std::string_view yaml);
  // FromYaml on the file's contents, errors prefixed with the path;
  // NotFound when it does not exist (platform::ReadFile's errors).
  static absl::StatusOr<NodeAddressMap> FromFile(const std::string& path);

  // The entry of `node`; nullptr when the map does not list it.
  const NodeAddress* Find(const std::string& node) const;
  // The node that has `address` (host byte order); nullptr if none.
  const NodeAddress* NodeOf(std::uint32_t address) const;
  // Every entry, in the file's order.
  const std::vector<NodeAddress>& nodes() const { return nodes_; }
  // "n0, n1, n2": for errors that name what is known.
  std::string NodeNames() const;

 private:
  // One entry of the file (node name, address text), checked.
  absl::Status Add(const std::string& node, const std::string& value);
  auto Adder() {
    return [this](const std::string& node, const std::string& value) { return Add(node, value); };
  }

  std::vector<NodeAddress> nodes_;
  std::unordered_map<std::string, std::size_t> by_node_;
  std::unordered_map<std::uint32_t, std::size_t> by_address_;
};

// "10.77.0.1" from a host-byte-order address.
std::string FormatIpv4(std::uint32_t address);

}  // namespace trestle::gateway
