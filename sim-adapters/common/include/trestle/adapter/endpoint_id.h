// EndpointId: which endpoint of a simulated network an app client stands for.
// Endpoints are numbered 0 .. N-1 by the network (the fabric model's endpoint
// node ids, the ns-3 adapter's endpoint nodes).
//
// The headers of trestle/adapter/ compile as C++17 (tests/cxx17 proves it),
// so that the ns-3 adapter, which must be C++17, can use them.
#ifndef TRESTLE_ADAPTER_ENDPOINT_ID_H_
#define TRESTLE_ADAPTER_ENDPOINT_ID_H_

#include <cstdint>

namespace trestle::adapter {

using EndpointId = std::uint32_t;

// No endpoint: an id the adapter could not map, or an adapter that maps none.
inline constexpr EndpointId kNoEndpoint = 0xffffffffu;

// The two ends of a transit.
struct EndpointPair {
  EndpointId src = kNoEndpoint;
  EndpointId dst = kNoEndpoint;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_ENDPOINT_ID_H_
