/*
 * TrestlePathTable: the fabric model's routes, for ns-3 packets to follow
 * (TrestlePathRouting). It holds, for every ordered pair of distinct
 * endpoints, the path the fabric model's minimal routing gives
 * (trestle::fabric::RoutingKind::kMinimal under a seed), and for every
 * directed link of the topology the ns-3 interface it leaves from and the
 * address of the node at its other end. So a packet from endpoint s to
 * endpoint d crosses exactly the links a flow from s to d crosses in the
 * fabric model, and the two models' contention can be compared link by link.
 *
 * Built once, eagerly (the topology need not outlive it): O(endpoints² ×
 * path length) time and 4 bytes per hop of memory, so at most
 * MAX_ENDPOINTS endpoints (about 20 MB there). Immutable afterwards; shared
 * by every node's TrestlePathRouting. Simulator thread only.
 */
#ifndef TRESTLE_PATH_TABLE_H
#define TRESTLE_PATH_TABLE_H

#include "ns3/ipv4-address.h"

#include "trestle/fabric/topology.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class TrestlePathTable
{
  public:
    /** Endpoints a table is built for, at most. */
    static constexpr uint32_t MAX_ENDPOINTS = 1024;

    /** Where a directed link leaves its source node in ns-3. */
    struct LinkExit
    {
        uint32_t fromNode = 0;  //!< topology node the link leaves
        uint32_t interface = 0; //!< IPv4 interface index on that node
        Ipv4Address gateway;    //!< the address of the link's other end
    };

    /**
     * \p exits: one entry per link id of the topology (LinkIdCount(); absent
     * ids unused). \p endpointAddresses: where each endpoint is reached.
     * The topology must have at most MAX_ENDPOINTS endpoints (the caller
     * checks).
     */
    TrestlePathTable(const trestle::fabric::Topology& topology,
                     std::vector<LinkExit> exits,
                     const std::vector<Ipv4Address>& endpointAddresses,
                     uint64_t seed);

    /** The endpoint reached at \p address, or -1. */
    int64_t EndpointAt(Ipv4Address address) const;
    /** Where endpoint \p e is reached (its source address). */
    Ipv4Address AddressOf(uint32_t e) const;
    /**
     * The link a packet from endpoint \p src to endpoint \p dst leaves node
     * \p node by, or nullptr when \p node is not on that path before its end
     * (or src == dst).
     */
    const LinkExit* NextHop(uint32_t node, uint32_t src, uint32_t dst) const;

  private:
    uint32_t m_endpoints;
    std::vector<LinkExit> m_exits;
    std::vector<Ipv4Address> m_addresses;
    std::map<Ipv4Address, uint32_t> m_endpointOf;
    // Pair (src, dst) at index src * m_endpoints + dst: its links are
    // m_links[m_offsets[i] .. m_offsets[i + 1]).
    std::vector<uint32_t> m_offsets;
    std::vector<uint32_t> m_links;
};

} // namespace ns3

#endif /* TRESTLE_PATH_TABLE_H */
