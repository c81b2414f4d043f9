/*
 * TrestleWiredNetworkHelper: builds in ns-3 the wired network a Trestle
 * topology describes (trestle::fabric::Topology, from the same spec strings
 * as the fabric model: switch, ring, torus, mesh, fullmesh, fattree,
 * dragonfly).
 *
 *  - Every topology node (endpoints, then switches) becomes an ns-3 node with
 *    an IPv4 stack; every cable a point-to-point link whose two devices send
 *    at the link's bandwidth, with the link's latency as propagation delay.
 *  - Switches, and the endpoints of a direct network (ring, torus, mesh,
 *    full mesh), forward: IPv4 routing is global (shortest paths, tables
 *    computed once; the default), nix-vector (paths computed on demand,
 *    for large graphs), or the fabric model's own minimal paths per
 *    (source, destination) pair (TrestlePathRouting; at most
 *    TrestlePathTable::MAX_ENDPOINTS endpoints, the caller checks).
 *  - The topology's switch latency, paid at every node that forwards, is
 *    spread over the links: half of it on each link end at a router (a
 *    switch, or any endpoint of a direct network). A path through switches
 *    pays it once per switch, as the fabric model does; in a direct network
 *    a path of h links pays it h times, once more than the fabric model's
 *    h - 1, because ns-3 has no per-node forwarding delay.
 *  - Link i is the i-th /30 of 10.0.0.0/8 (at most 2^22 links), its two
 *    ends .1 and .2 of it. Endpoint i is reached at the address of its
 *    first link.
 *  - Queues: TrestleQueueHelper; MTU: SetMtu (the devices' MTU, IP bytes).
 */
#ifndef TRESTLE_WIRED_NETWORK_HELPER_H
#define TRESTLE_WIRED_NETWORK_HELPER_H

#include "trestle-network.h"
#include "trestle-queue-helper.h"

#include "trestle/fabric/topology.h"

#include <cstdint>

namespace ns3
{

class TrestleWiredNetworkHelper
{
  public:
    /** Links of /30 networks fit in 10.0.0.0/8. */
    static constexpr uint64_t MAX_LINKS = uint64_t{1} << 22;

    TrestleWiredNetworkHelper();

    void SetQueue(const TrestleQueueHelper& queue);
    void SetMtu(uint16_t mtu);
    /** true: nix-vector routing; false: global routing (the default). */
    void SetNixVectorRouting(bool nixVector);
    /**
     * true: every packet follows the fabric model's minimal path under
     * \p seed (TrestlePathRouting), ahead of global or nix-vector routing.
     */
    void SetPathRouting(bool pathRouting, uint64_t seed);

    /**
     * Builds the network. \p topology must have at most MAX_LINKS cables
     * (the caller checks). Call once per simulation.
     */
    TrestleNetwork Install(const trestle::fabric::Topology& topology) const;

  private:
    TrestleQueueHelper m_queue;
    uint16_t m_mtu;
    bool m_nixVector;
    bool m_pathRouting;
    uint64_t m_pathSeed;
};

} // namespace ns3

#endif /* TRESTLE_WIRED_NETWORK_HELPER_H */
