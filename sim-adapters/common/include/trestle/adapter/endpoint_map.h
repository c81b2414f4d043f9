// EndpointMap: which network endpoint each app client id stands for, in a
// live simulator adapter (part of trestle_adapter_common).
//
// Two ways to fill it:
//  - From a map file (FromFile / FromYaml): a YAML mapping of client id to
//    endpoint number (read by platform::ParseYamlIdMap, as the gateway's
//    node map is), e.g.
//
//        # client id: endpoint (0 .. endpoints-1)
//        node-a: 0
//        node-b: 5
//
//    The file is the whole map: an id it does not list is an error, never
//    given an endpoint of its own.
//  - Without a file (the constructor): an id that ends in a decimal number
//    n ("rank-7", "node12", "3") is endpoint n, when n is below the
//    endpoint count and no other id has taken it, so that ranks 0..N-1 of
//    a collective sit on endpoints 0..N-1 as a sweep places them. Any other
//    id takes the lowest endpoint no id has, in order of first appearance
//    ("ping", then "pong": 0 and 1), until the network's endpoints are used
//    up.
//
// Errors name the client id. Not thread-safe (Resolve may insert).
#ifndef TRESTLE_ADAPTER_ENDPOINT_MAP_H_
#define TRESTLE_ADAPTER_ENDPOINT_MAP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/adapter/endpoint_id.h"

namespace trestle::adapter {

class EndpointMap {
 public:
  // An empty map that assigns endpoints 0 .. endpoint_count-1 by the number
  // ending each id, else in order of first appearance.
  explicit EndpointMap(std::uint32_t endpoint_count);

  // Parses `yaml` (the map file format above) for a topology of
  // `endpoint_count` endpoints. InvalidArgument, naming the id, when: the
  // document is not a mapping or is empty; an endpoint is not a plain
  // non-negative integer or is >= endpoint_count; an id appears twice; two
  // ids share an endpoint.
  static absl::StatusOr<EndpointMap> FromYaml(std::string_view yaml, std::uint32_t endpoint_count);
  // FromYaml on the file's contents; errors are prefixed with the path, and
  // a missing file is NotFound (platform::ReadFile's errors).
  static absl::StatusOr<EndpointMap> FromFile(const std::string& path,
                                              std::uint32_t endpoint_count);

  // The endpoint of `client_id`. Without a file an id not seen before takes
  // the endpoint its number names, or the lowest free one; when none is
  // left the result is OutOfRange ("client id 'x' needs an endpoint, but
  // the topology has only N endpoints and every one is taken") and nothing
  // is assigned. In map-file mode an unlisted id is NotFound. Does not
  // allocate for an id already mapped.
  absl::StatusOr<EndpointId> Resolve(const std::string& client_id);

  bool from_file() const { return from_file_; }
  // Ids mapped so far (in map-file mode: the file's entries).
  std::size_t size() const { return endpoints_.size(); }
  std::uint32_t endpoint_count() const { return endpoint_count_; }

 private:
  // One entry of a map file (client id, endpoint text), checked.
  absl::Status Add(const std::string& id, const std::string& value);
  auto Adder() {
    return [this](const std::string& id, const std::string& value) { return Add(id, value); };
  }

  std::uint32_t endpoint_count_;
  bool from_file_ = false;
  std::unordered_map<std::string, EndpointId> endpoints_;
  std::vector<bool> taken_;  // by endpoint
  EndpointId lowest_free_ = 0;  // no endpoint below it is free
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_ENDPOINT_MAP_H_
