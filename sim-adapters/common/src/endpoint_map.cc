#include "trestle/adapter/endpoint_map.h"

#include <charconv>
#include <vector>

#include "absl/strings/str_cat.h"
#include "trestle/platform/yaml_id_map.h"

namespace trestle::adapter {
namespace {

constexpr platform::YamlIdMapFormat kFormat = {.document = "map file",
                                               .mapping = "client id to endpoint",
                                               .entry = "client-id: endpoint",
                                               .example = "node-a: 0",
                                               .id = "client id"};

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
  EndpointMap map(endpoint_count);
  map.from_file_ = true;
  if (absl::Status s = platform::ParseYamlIdMap(yaml, kFormat, map.Adder()); !s.ok()) return s;
  return map;
}

absl::StatusOr<EndpointMap> EndpointMap::FromFile(const std::string& path,
                                                  std::uint32_t endpoint_count) {
  EndpointMap map(endpoint_count);
  map.from_file_ = true;
  if (absl::Status s = platform::ReadYamlIdMap(path, kFormat, map.Adder()); !s.ok()) return s;
  return map;
}

absl::Status EndpointMap::Add(const std::string& id, const std::string& value) {
  std::uint64_t endpoint = 0;
  if (!ParseEndpointNumber(value, &endpoint)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "client id '", id, "': endpoint '", value, "' is not a non-negative integer"));
  }
  if (endpoint >= endpoint_count_) {
    return absl::InvalidArgumentError(
        absl::StrCat("client id '", id, "': endpoint ", endpoint,
                     " is out of range (the topology has endpoints 0..",
                     endpoint_count_ == 0 ? 0 : endpoint_count_ - 1, ")"));
  }
  const EndpointId node = static_cast<EndpointId>(endpoint);
  if (taken_.empty()) taken_.assign(endpoint_count_, false);
  if (taken_[node]) {
    for (const auto& [holder, held] : endpoints_) {
      if (held == node) {
        return absl::InvalidArgumentError(absl::StrCat("client ids '", holder, "' and '", id,
                                                       "' both map to endpoint ", node));
      }
    }
  }
  taken_[node] = true;
  endpoints_.emplace(id, node);
  return absl::OkStatus();
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
