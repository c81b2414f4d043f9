#include "trestle/gateway/node_address_map.h"

#include <arpa/inet.h>

#include <charconv>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "trestle/platform/yaml_id_map.h"

namespace trestle::gateway {
namespace {

constexpr std::size_t kMaxNodeNameBytes = 255;  // the daemon's client id limit

constexpr platform::YamlIdMapFormat kFormat = {.document = "gateway config",
                                               .mapping = "node name to IPv4 address",
                                               .entry = "node: address",
                                               .example = "n0: 10.77.0.1",
                                               .id = "node"};

// "a.b.c.d" or "a.b.c.d/len" into `entry`; false on anything else.
bool ParseAddress(const std::string& text, NodeAddress* entry) {
  const std::size_t slash = text.find('/');
  const std::string ip = text.substr(0, slash);
  in_addr parsed{};
  if (inet_pton(AF_INET, ip.c_str(), &parsed) != 1) return false;
  entry->address = ntohl(parsed.s_addr);
  if (slash == std::string::npos) return true;
  const char* begin = text.data() + slash + 1;
  const char* end = text.data() + text.size();
  int length = -1;
  auto [ptr, ec] = std::from_chars(begin, end, length);
  if (begin == end || ec != std::errc() || ptr != end || length < 0 || length > 32) return false;
  entry->prefix_length = length;
  return true;
}

}  // namespace

std::string FormatIpv4(std::uint32_t address) {
  in_addr a{htonl(address)};
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &a, text, sizeof text);
  return text;
}

absl::StatusOr<NodeAddressMap> NodeAddressMap::FromYaml(std::string_view yaml) {
  NodeAddressMap map;
  if (absl::Status s = platform::ParseYamlIdMap(yaml, kFormat, map.Adder()); !s.ok()) return s;
  return map;
}

absl::StatusOr<NodeAddressMap> NodeAddressMap::FromFile(const std::string& path) {
  NodeAddressMap map;
  if (absl::Status s = platform::ReadYamlIdMap(path, kFormat, map.Adder()); !s.ok()) return s;
  return map;
}

absl::Status NodeAddressMap::Add(const std::string& node, const std::string& value) {
  NodeAddress entry;
  entry.node = node;
  if (entry.node.empty() || entry.node.size() > kMaxNodeNameBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "node '", entry.node, "': a node name must be 1..", kMaxNodeNameBytes, " bytes"));
  }
  if (!ParseAddress(value, &entry)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "node '", entry.node, "': '", value, "' is not an IPv4 address (a.b.c.d or a.b.c.d/len)"));
  }
  if (auto it = by_address_.find(entry.address); it != by_address_.end()) {
    return absl::InvalidArgumentError(absl::StrCat("nodes '", nodes_[it->second].node, "' and '",
                                                   entry.node, "' both have address ",
                                                   FormatIpv4(entry.address)));
  }
  const std::size_t index = nodes_.size();
  nodes_.push_back(std::move(entry));
  by_node_.emplace(nodes_.back().node, index);
  by_address_.emplace(nodes_.back().address, index);
  return absl::OkStatus();
}

const NodeAddress* NodeAddressMap::Find(const std::string& node) const {
  auto it = by_node_.find(node);
  return it == by_node_.end() ? nullptr : &nodes_[it->second];
}

const NodeAddress* NodeAddressMap::NodeOf(std::uint32_t address) const {
  auto it = by_address_.find(address);
  return it == by_address_.end() ? nullptr : &nodes_[it->second];
}

std::string NodeAddressMap::NodeNames() const {
  return absl::StrJoin(nodes_, ", ", [](std::string* out, const NodeAddress& n) { out->append(n.node); });
}

}  // namespace trestle::gateway
