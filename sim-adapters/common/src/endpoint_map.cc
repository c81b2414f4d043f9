#include "trestle/adapter/endpoint_map.h"

#include <charconv>
#include <exception>
#include <fstream>
#include <sstream>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "absl/strings/str_cat.h"

namespace trestle::adapter {
namespace {

// A plain decimal number: no sign, no exponent, no hex, nothing after it.
bool ParseEndpointNumber(const std::string& text, std::uint64_t* value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end;
}

// The decimal number `id` ends in (all of it, or after its last non-digit).
bool TrailingNumber(const std::string& id, std::uint64_t* value) {
  std::size_t from = id.size();
  while (from > 0 && id[from - 1] >= '0' && id[from - 1] <= '9') --from;
  if (from == id.size() || id.size() - from > 9) return false;  // none, or beyond any topology
  *value = 0;
  for (std::size_t i = from; i < id.size(); ++i) *value = *value * 10 + (id[i] - '0');
  return true;
}

}  // namespace

EndpointMap::EndpointMap(std::uint32_t endpoint_count) : endpoint_count_(endpoint_count) {}

absl::StatusOr<EndpointMap> EndpointMap::FromYaml(std::string_view yaml,
                                                  std::uint32_t endpoint_count) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("map file is not valid YAML: ", e.what()));
  }
  if (!root.IsMap() || root.size() == 0) {
    return absl::InvalidArgumentError(
        "map file must be a non-empty YAML mapping of client id to endpoint, e.g. 'node-a: 0'");
  }
  EndpointMap map(endpoint_count);
  map.from_file_ = true;
  map.endpoints_.reserve(root.size());
  // Which id holds each endpoint, to name both ids of a clash.
  std::unordered_map<EndpointId, std::string> holders;
  for (const auto& entry : root) {
    if (!entry.first.IsScalar() || !entry.second.IsScalar()) {
      return absl::InvalidArgumentError(
          "map file entries must be 'client-id: endpoint' with plain scalar values");
    }
    const std::string id = entry.first.Scalar();
    const std::string value = entry.second.Scalar();
    std::uint64_t endpoint = 0;
    if (!ParseEndpointNumber(value, &endpoint)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "client id '", id, "': endpoint '", value, "' is not a non-negative integer"));
    }
    if (endpoint >= endpoint_count) {
      return absl::InvalidArgumentError(
          absl::StrCat("client id '", id, "': endpoint ", endpoint,
                           " is out of range (the topology has endpoints 0..",
                           endpoint_count == 0 ? 0 : endpoint_count - 1, ")"));
    }
    const EndpointId node = static_cast<EndpointId>(endpoint);
    if (!map.endpoints_.emplace(id, node).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("client id '", id, "' appears more than once"));
    }
    auto [holder, inserted] = holders.emplace(node, id);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat("client ids '", holder->second, "' and '",
                                                         id, "' both map to endpoint ", node));
    }
  }
  return map;
}

absl::StatusOr<EndpointMap> EndpointMap::FromFile(const std::string& path,
                                                  std::uint32_t endpoint_count) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read map file '", path, "'"));
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<EndpointMap> map = FromYaml(text.str(), endpoint_count);
  if (!map.ok()) {
    return absl::Status(map.status().code(),
                        absl::StrCat(path, ": ", std::string(map.status().message())));
  }
  return map;
}

absl::StatusOr<EndpointId> EndpointMap::Resolve(const std::string& client_id) {
  auto it = endpoints_.find(client_id);
  if (it != endpoints_.end()) return it->second;
  if (from_file_) {
    return absl::NotFoundError(
        absl::StrCat("client id '", client_id, "' is not in the map file"));
  }
  if (taken_.empty()) taken_.assign(endpoint_count_, false);
  std::uint64_t named = 0;
  EndpointId node = 0;
  if (TrailingNumber(client_id, &named) && named < endpoint_count_ && !taken_[named]) {
    node = static_cast<EndpointId>(named);
  } else {
    while (lowest_free_ < endpoint_count_ && taken_[lowest_free_]) ++lowest_free_;
    if (lowest_free_ >= endpoint_count_) {
      return absl::OutOfRangeError(absl::StrCat(
          "client id '", client_id, "' needs an endpoint, but the topology has only ",
          endpoint_count_, " endpoints and every one is taken"));
    }
    node = lowest_free_;
  }
  taken_[node] = true;
  endpoints_.emplace(client_id, node);
  return node;
}

}  // namespace trestle::adapter
