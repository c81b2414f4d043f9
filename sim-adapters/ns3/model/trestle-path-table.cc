#include "trestle-path-table.h"

#include "trestle/fabric/path.h"
#include "trestle/fabric/routing.h"

#include <utility>

namespace ns3
{

TrestlePathTable::TrestlePathTable(const trestle::fabric::Topology& topology,
                                   std::vector<LinkExit> exits,
                                   const std::vector<Ipv4Address>& endpointAddresses,
                                   uint64_t seed)
    : m_endpoints(topology.EndpointCount()),
      m_exits(std::move(exits)),
      m_addresses(endpointAddresses)
{
    for (uint32_t e = 0; e < m_addresses.size(); ++e)
    {
        m_endpointOf.emplace(m_addresses[e], e);
    }
    trestle::fabric::RoutingPtr routing =
        trestle::fabric::MakeRouting(trestle::fabric::RoutingKind::kMinimal, topology, seed);
    trestle::fabric::Path path;
    m_offsets.reserve(static_cast<size_t>(m_endpoints) * m_endpoints + 1);
    m_offsets.push_back(0);
    for (uint32_t src = 0; src < m_endpoints; ++src)
    {
        for (uint32_t dst = 0; dst < m_endpoints; ++dst)
        {
            path.Clear();
            if (src != dst)
            {
                routing->Route(src, dst, 0, &path);
            }
            m_links.insert(m_links.end(), path.Links().begin(), path.Links().end());
            m_offsets.push_back(static_cast<uint32_t>(m_links.size()));
        }
    }
}

int64_t
TrestlePathTable::EndpointAt(Ipv4Address address) const
{
    auto it = m_endpointOf.find(address);
    return it == m_endpointOf.end() ? -1 : static_cast<int64_t>(it->second);
}

Ipv4Address
TrestlePathTable::AddressOf(uint32_t e) const
{
    return m_addresses[e];
}

const TrestlePathTable::LinkExit*
TrestlePathTable::NextHop(uint32_t node, uint32_t src, uint32_t dst) const
{
    if (src >= m_endpoints || dst >= m_endpoints)
    {
        return nullptr;
    }
    const size_t pair = static_cast<size_t>(src) * m_endpoints + dst;
    for (uint32_t i = m_offsets[pair]; i < m_offsets[pair + 1]; ++i)
    {
        const LinkExit& exit = m_exits[m_links[i]];
        if (exit.fromNode == node)
        {
            return &exit;
        }
    }
    return nullptr;
}

} // namespace ns3
