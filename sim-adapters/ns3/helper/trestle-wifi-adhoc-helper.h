/*
 * TrestleWifiAdhocHelper: builds the `wifi-adhoc:N` scenario: N nodes with
 * 802.11a radios (5 GHz, 6 to 54 Mbit/s, ns-3's ideal rate control) in ad
 * hoc mode on one YANS channel with ns-3's default propagation (log-distance
 * loss, speed-of-light delay), routing with AODV or OLSR, every node an
 * endpoint that also forwards for the others.
 *
 * Mobility, in an area of width x height metres:
 *   CONSTANT          nodes on a grid filling the area: ceil(sqrt(N))
 *                     columns, one cell per node, each node at its cell's
 *                     centre (4 nodes in 100 x 100: 50 m apart).
 *   RANDOM_WAYPOINT   each node starts at a uniform random point, walks to
 *                     another at a speed uniform in [min, max] m/s, pauses,
 *                     and so on. Seeded by ns-3's RngSeedManager (the caller
 *                     sets the seed), so a run repeats exactly.
 * Endpoint i is node i, reached at 10.1.x.y.
 */
#ifndef TRESTLE_WIFI_ADHOC_HELPER_H
#define TRESTLE_WIFI_ADHOC_HELPER_H

#include "trestle-network.h"
#include "trestle-queue-helper.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

class TrestleWifiAdhocHelper
{
  public:
    enum Routing
    {
        AODV,
        OLSR,
    };

    enum Mobility
    {
        CONSTANT,
        RANDOM_WAYPOINT,
    };

    /** AODV, constant positions in 100 x 100 m, 1 to 5 m/s, no pause. */
    TrestleWifiAdhocHelper();

    void SetRouting(Routing routing);
    void SetMobility(Mobility mobility);
    void SetArea(double width, double height);
    void SetSpeed(double minSpeed, double maxSpeed);
    void SetPause(Time pause);
    void SetQueue(const TrestleQueueHelper& queue);

    /** Builds the scenario with \p nodes nodes (at least 1; at most 65,000). */
    TrestleNetwork Install(uint32_t nodes) const;

  private:
    /** Returns how many random streams from \p stream on it numbered. */
    int64_t InstallMobility(NodeContainer nodes, int64_t stream) const;

    Routing m_routing;
    Mobility m_mobility;
    double m_width;
    double m_height;
    double m_minSpeed;
    double m_maxSpeed;
    Time m_pause;
    TrestleQueueHelper m_queue;
};

} // namespace ns3

#endif /* TRESTLE_WIFI_ADHOC_HELPER_H */
