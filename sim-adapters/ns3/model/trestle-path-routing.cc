#include "trestle-path-routing.h"

#include "ns3/ipv4-route.h"
#include "ns3/output-stream-wrapper.h"

#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrestlePathRouting);

TypeId
TrestlePathRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrestlePathRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("Trestle")
                            .AddConstructor<TrestlePathRouting>();
    return tid;
}

TrestlePathRouting::TrestlePathRouting()
    : m_node(0)
{
}

void
TrestlePathRouting::SetTable(std::shared_ptr<const TrestlePathTable> table, uint32_t node)
{
    m_table = std::move(table);
    m_node = node;
}

Ptr<Ipv4Route>
TrestlePathRouting::RouteOver(const TrestlePathTable::LinkExit& exit,
                              Ipv4Address source,
                              Ipv4Address destination) const
{
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(destination);
    route->SetSource(source);
    route->SetGateway(exit.gateway);
    route->SetOutputDevice(m_ipv4->GetNetDevice(exit.interface));
    return route;
}

Ptr<Ipv4Route>
TrestlePathRouting::RouteOutput(Ptr<Packet> p,
                                const Ipv4Header& header,
                                Ptr<NetDevice> oif,
                                Socket::SocketErrno& sockerr)
{
    const int64_t dst = m_table ? m_table->EndpointAt(header.GetDestination()) : -1;
    const TrestlePathTable::LinkExit* exit =
        dst < 0 ? nullptr : m_table->NextHop(m_node, m_node, static_cast<uint32_t>(dst));
    if (exit == nullptr)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    return RouteOver(*exit, m_table->AddressOf(m_node), header.GetDestination());
}

bool
TrestlePathRouting::RouteInput(Ptr<const Packet> p,
                               const Ipv4Header& header,
                               Ptr<const NetDevice> idev,
                               UnicastForwardCallback ucb,
                               MulticastForwardCallback mcb,
                               LocalDeliverCallback lcb,
                               ErrorCallback ecb)
{
    if (!m_table)
    {
        return false;
    }
    const int64_t src = m_table->EndpointAt(header.GetSource());
    const int64_t dst = m_table->EndpointAt(header.GetDestination());
    if (src < 0 || dst < 0)
    {
        return false;
    }
    const TrestlePathTable::LinkExit* exit =
        m_table->NextHop(m_node, static_cast<uint32_t>(src), static_cast<uint32_t>(dst));
    if (exit == nullptr)
    {
        return false;
    }
    ucb(RouteOver(*exit, header.GetSource(), header.GetDestination()), p, header);
    return true;
}

void
TrestlePathRouting::NotifyInterfaceUp(uint32_t)
{
}

void
TrestlePathRouting::NotifyInterfaceDown(uint32_t)
{
}

void
TrestlePathRouting::NotifyAddAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
TrestlePathRouting::NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
TrestlePathRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
TrestlePathRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    *stream->GetStream() << "TrestlePathRouting: the fabric model's minimal paths, node " << m_node
                         << "\n";
}

void
TrestlePathRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_table.reset();
    Ipv4RoutingProtocol::DoDispose();
}

} // namespace ns3
