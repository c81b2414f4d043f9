/*
 * TrestleNetwork: what a Trestle network helper built, as the transfer
 * engine needs it: the endpoint nodes (endpoint i of the Trestle topology or
 * scenario is endpoints.Get(i)), the IPv4 address other endpoints reach each
 * one at, and a lower bound on the time any transfer between two distinct
 * endpoints takes. The nodes belong to ns-3's NodeList and live until
 * Simulator::Destroy().
 */
#ifndef TRESTLE_NETWORK_H
#define TRESTLE_NETWORK_H

#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

struct TrestleNetwork
{
    /** Every node: endpoints first, then switches (wired), as the topology numbers them. */
    NodeContainer nodes;
    /** The endpoints, in endpoint order. */
    NodeContainer endpoints;
    /** endpointAddresses[i]: where endpoint i is reached. */
    std::vector<Ipv4Address> endpointAddresses;
    /**
     * No transfer between two distinct endpoints completes sooner (the
     * propagation delays of the shortest path, or one Wi-Fi frame).
     */
    Time minTransferTime;
    /** Point-to-point links (wired) or Wi-Fi devices, for summaries. */
    uint32_t links = 0;
};

} // namespace ns3

#endif /* TRESTLE_NETWORK_H */
