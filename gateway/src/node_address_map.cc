#include "trestle/gateway/node_address_map.h"

#include <arpa/inet.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace trestle::gateway {
namespace {

constexpr std::size_t kMaxNodeNameBytes = 255;  // the daemon's client id limit

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
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("gateway config is not valid YAML: ", e.what()));
  }
  if (!root.IsMap() || root.size() == 0) {
    return absl::InvalidArgumentError(
        "gateway config must be a non-empty YAML mapping of node name to IPv4 address, "
        "e.g. 'n0: 10.77.0.1'");
  }
  NodeAddressMap map;
  map.nodes_.reserve(root.size());
  for (const auto& item : root) {
    if (!item.first.IsScalar() || !item.second.IsScalar()) {
      return absl::InvalidArgumentError(
          "gateway config entries must be 'node: address' with plain scalar values");
    }
    NodeAddress entry;
    entry.node = item.first.Scalar();
    const std::string value = item.second.Scalar();
    if (entry.node.empty() || entry.node.size() > kMaxNodeNameBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "node '", entry.node, "': a node name must be 1..", kMaxNodeNameBytes, " bytes"));
    }
    if (!ParseAddress(value, &entry)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "node '", entry.node, "': '", value, "' is not an IPv4 address (a.b.c.d or a.b.c.d/len)"));
    }
    if (map.by_node_.contains(entry.node)) {
      return absl::InvalidArgumentError(absl::StrCat("node '", entry.node, "' appears more than once"));
    }
    if (auto it = map.by_address_.find(entry.address); it != map.by_address_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("nodes '", map.nodes_[it->second].node, "' and '",
                                                     entry.node, "' both have address ",
                                                     FormatIpv4(entry.address)));
    }
    const std::size_t index = map.nodes_.size();
    map.nodes_.push_back(std::move(entry));
    map.by_node_.emplace(map.nodes_.back().node, index);
    map.by_address_.emplace(map.nodes_.back().address, index);
  }
  return map;
}

absl::StatusOr<NodeAddressMap> NodeAddressMap::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read gateway config '", path, "'"));
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<NodeAddressMap> map = FromYaml(text.str());
  if (!map.ok()) {
    return absl::Status(map.status().code(), absl::StrCat(path, ": ", map.status().message()));
  }
  return map;
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
