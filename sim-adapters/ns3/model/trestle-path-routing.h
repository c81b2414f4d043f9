/*
 * TrestlePathRouting: an IPv4 routing protocol that sends every packet along
 * the fabric model's path between its source and destination endpoints
 * (TrestlePathTable), by (source, destination) pair rather than by
 * destination alone, as ECMP hashing does. A node's Ipv4ListRouting asks it
 * first (the helper adds it at a higher priority than static and global
 * routing); the list delivers packets addressed to the node itself.
 *
 *  - RouteOutput (at a source endpoint): the first link of the path to the
 *    destination endpoint, with the endpoint's own address as the source.
 *  - RouteInput (forwarding): the link of the path (source endpoint,
 *    destination endpoint), read off the IPv4 header, that leaves this node.
 *  - Anything else (an address that is no endpoint, a node off the path):
 *    not handled here, so the next protocol of the list may answer.
 *
 * Simulator thread only; the table is shared, immutable, and lives as long
 * as the last protocol holding it.
 */
#ifndef TRESTLE_PATH_ROUTING_H
#define TRESTLE_PATH_ROUTING_H

#include "trestle-path-table.h"

#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <cstdint>
#include <memory>

namespace ns3
{

class TrestlePathRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();

    TrestlePathRouting();

    /** Routes for topology node \p node (its ns-3 node) from \p table. */
    void SetTable(std::shared_ptr<const TrestlePathTable> table, uint32_t node);

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /** The route over \p exit towards \p destination, from \p source. */
    Ptr<Ipv4Route> RouteOver(const TrestlePathTable::LinkExit& exit,
                             Ipv4Address source,
                             Ipv4Address destination) const;

    Ptr<Ipv4> m_ipv4;
    std::shared_ptr<const TrestlePathTable> m_table;
    uint32_t m_node;
};

} // namespace ns3

#endif /* TRESTLE_PATH_ROUTING_H */
