// FabricParams: the physical numbers a topology attaches to its links and
// switches. Every link of a kind shares one bandwidth and one latency.
#ifndef TRESTLE_FABRIC_FABRIC_PARAMS_H_
#define TRESTLE_FABRIC_FABRIC_PARAMS_H_

#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/link.h"

namespace trestle::fabric {

struct LinkProperties {
  Bandwidth bandwidth;  // Per direction.
  Duration latency;     // Propagation plus serialisation start-up of one hop.
};

struct FabricParams {
  Bandwidth link_bandwidth = Bandwidth::Gbps(200);   // Local and global links.
  Duration link_latency = Duration::Nanoseconds(100);
  // Paid once at every node a message passes through (not at its source or
  // destination): a switch, or in a direct network (ring, torus, mesh,
  // full mesh) an endpoint that forwards.
  Duration switch_latency = Duration::Nanoseconds(0);
  // Bandwidth of host links (endpoint <-> switch). Host links use
  // link_latency. In direct networks there are no host links, and
  // injection is limited by the neighbour links themselves.
  Bandwidth injection_bandwidth = Bandwidth::Gbps(200);

  LinkProperties ForKind(LinkKind kind) const {
    if (kind == LinkKind::kHost) return {injection_bandwidth, link_latency};
    return {link_bandwidth, link_latency};
  }
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FABRIC_PARAMS_H_
