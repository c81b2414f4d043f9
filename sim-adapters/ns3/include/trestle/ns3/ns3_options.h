// The settings of an ns-3 network for Trestle (part of trestle_ns3), as
// plain values: what the `trestle-sim ns3` and `sweep --backend ns3` flags
// set, and what Ns3Network builds from. No ns-3 header is needed to use them.
//
// Parse* turn flag text into values; errors are InvalidArgument naming the
// flag, the text and what is accepted.
#ifndef TRESTLE_NS3_NS3_OPTIONS_H_
#define TRESTLE_NS3_NS3_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::ns3_adapter {

// How a message travels: TCP (reliable; one connection per pair of
// endpoints, messages in order) or UDP (datagrams; a message with a lost
// datagram is DROPPED).
enum class Transport { kTcp, kUdp };
// TCP's congestion control: CUBIC with HyStart (ns-3's default, and
// Linux's), NewReno (classic slow start and AIMD) or DCTCP (ECN: it cuts its
// window in proportion to the marks; needs the codel queue, which then marks
// every ECN-capable packet that waited longer than
// Ns3NetworkOptions::ecn_threshold_packets full packets, as DCTCP's switches
// do, and drops nothing early).
enum class TcpVariant { kCubic, kNewReno, kDctcp };
// The queue discipline of every device: an ns-3 queue disc, or none (the
// device's drop-tail transmit queue).
enum class QueueDiscipline { kFifo, kRed, kCoDel, kFqCoDel, kPfifoFast, kNone };
// IPv4 routing in a wired network: global (shortest paths, tables computed
// once for every node: seconds at a few hundred nodes, minutes beyond),
// nix-vector (paths computed per destination on demand), or fabric (every
// packet follows the fabric model's minimal path for its (source,
// destination) pair under the network's seed, ECMP choices included, so
// that both models load the same links; at most kFabricRoutingEndpoints
// endpoints); auto is global up to kAutoGlobalRoutingNodes nodes,
// nix-vector beyond.
enum class IpRouting { kAuto, kGlobal, kNixVector, kFabric };
inline constexpr std::uint32_t kAutoGlobalRoutingNodes = 256;
inline constexpr std::uint32_t kFabricRoutingEndpoints = 1024;
// Routing in the wifi-adhoc scenario.
enum class WifiRouting { kAodv, kOlsr };
// Movement in the wifi-adhoc scenario.
enum class Mobility { kConstant, kRandomWaypoint };

absl::StatusOr<Transport> ParseTransport(std::string_view text);
absl::StatusOr<TcpVariant> ParseTcpVariant(std::string_view text);
absl::StatusOr<QueueDiscipline> ParseQueueDiscipline(std::string_view text);
absl::StatusOr<IpRouting> ParseIpRouting(std::string_view text);
absl::StatusOr<WifiRouting> ParseWifiRouting(std::string_view text);
absl::StatusOr<Mobility> ParseMobility(std::string_view text);
std::string_view TransportName(Transport transport);
std::string_view TcpVariantName(TcpVariant variant);
std::string_view QueueDisciplineName(QueueDiscipline discipline);
std::string_view WifiRoutingName(WifiRouting routing);
std::string_view MobilityName(Mobility mobility);

// A queue's capacity: packets ("100p") or bytes ("64KiB", "1MB", "1500B").
struct QueueLimit {
  std::uint64_t value = 1000;
  bool packets = true;

  // Errors name --queue-size and the text.
  static absl::StatusOr<QueueLimit> Parse(std::string_view text);
  std::string ToString() const;  // "100p" or "65536B"
};

// The wifi-adhoc scenario (--scenario wifi-adhoc:N and its flags).
struct WifiAdhocOptions {
  std::uint32_t nodes = 0;
  WifiRouting routing = WifiRouting::kAodv;
  Mobility mobility = Mobility::kConstant;
  double width_m = 100;   // the area, metres
  double height_m = 100;
  double min_speed_mps = 1;  // random waypoint, metres per second
  double max_speed_mps = 5;
  std::uint64_t pause_ns = 0;  // random waypoint: pause at each waypoint

  // Parses "wifi-adhoc:N" (1 <= N <= 65000) into `nodes`; errors name
  // --scenario and the text.
  static absl::StatusOr<std::uint32_t> ParseScenario(std::string_view text);
  // InvalidArgument naming the flag: an area or speeds out of range.
  absl::Status Validate() const;
};

struct Ns3NetworkOptions {
  Transport transport = Transport::kTcp;
  TcpVariant tcp = TcpVariant::kCubic;
  QueueDiscipline queue = QueueDiscipline::kFifo;
  QueueLimit queue_size;  // 1000 packets
  std::uint32_t mtu = 1500;  // bytes of IP packet per link frame (wired)
  // DCTCP: the queue marks a packet that waited longer than this many full
  // packets take on a link (DCTCP's K; the guideline is above a seventh of
  // the bandwidth-delay product).
  std::uint32_t ecn_threshold_packets = 10;
  // TCP acknowledges every second segment (or after 200 ms: ns-3's and
  // Linux's default), or every segment (false).
  bool delayed_acks = true;
  IpRouting ip_routing = IpRouting::kAuto;
  // Per-message software cost at the endpoints: the sender hands the
  // message to the network this long after t_send (as the fabric model
  // adds it once per message).
  std::uint64_t endpoint_delay_ns = 0;
  // UDP: a message not complete this long after its send is DROPPED (a
  // loss no drop trace saw).
  std::uint64_t udp_timeout_ns = 1'000'000'000;
  // Simulated time before Trestle's time zero, for routing protocols to
  // settle (OLSR needs seconds). Trestle time t is ns-3 time warmup + t.
  std::uint64_t warmup_ns = 0;
  std::uint64_t seed = 1;  // ns-3's random streams (mobility, Wi-Fi); fabric routing's ECMP

  // InvalidArgument naming the flag: an MTU outside [576, 65535], a zero
  // UDP timeout, a queue of zero size, a queue in bytes for fq-codel or
  // pfifo-fast (they count packets), DCTCP without the codel queue or with an
  // ECN threshold of 0 or not below a queue counted in packets.
  absl::Status Validate() const;
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_NS3_OPTIONS_H_
