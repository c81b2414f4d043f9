#include "trestle/ns3/ns3_network.h"

#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adapter/ns3_network_impl.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "trestle-queue-helper.h"
#include "trestle-wifi-adhoc-helper.h"
#include "trestle-wired-network-helper.h"

namespace trestle::ns3_adapter {
namespace {

// IPv4 header, TCP header and the timestamp option every segment carries.
constexpr std::uint32_t kTcpIpOverhead = 20 + 20 + 12;
// Socket buffers big enough for the bandwidth-delay products of the fast
// links Trestle models (400 Gbit/s over microseconds is ~100 KB).
constexpr std::uint32_t kTcpBufferBytes = 4 << 20;
// 802.11a's top rate, 54 Mbit/s, for DCTCP's marking threshold over Wi-Fi.
constexpr double kWifiBytesPerNs = 54e6 / 8 / 1e9;

std::string QueueDiscTypeId(QueueDiscipline discipline) {
  switch (discipline) {
    case QueueDiscipline::kFifo: return "ns3::FifoQueueDisc";
    case QueueDiscipline::kRed: return "ns3::RedQueueDisc";
    case QueueDiscipline::kCoDel: return "ns3::CoDelQueueDisc";
    case QueueDiscipline::kFqCoDel: return "ns3::FqCoDelQueueDisc";
    case QueueDiscipline::kPfifoFast: return "ns3::PfifoFastQueueDisc";
    case QueueDiscipline::kNone: return "";
  }
  return "";
}

ns3::TrestleQueueHelper QueueFor(const Ns3NetworkOptions& options) {
  ns3::TrestleQueueHelper queue;
  queue.SetQueue(QueueDiscTypeId(options.queue),
                 ns3::QueueSize(options.queue_size.packets ? ns3::QueueSizeUnit::PACKETS
                                                           : ns3::QueueSizeUnit::BYTES,
                                static_cast<std::uint32_t>(options.queue_size.value)));
  return queue;
}

// Checks what every network needs and sets ns-3's defaults for the sockets
// the network's applications will open.
absl::Status Prepare(const Ns3NetworkOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (options.queue_size.value > 0xffffffffu) {
    return absl::InvalidArgumentError("--queue-size: at most 4294967295 packets or bytes");
  }
  if (Simulation::Active()) {
    return absl::FailedPreconditionError(
        "an ns-3 network already exists in this process (ns-3 runs one simulator at a time)");
  }
  return absl::OkStatus();
}

std::string TcpTypeId(TcpVariant variant) {
  switch (variant) {
    case TcpVariant::kCubic: return "ns3::TcpCubic";
    case TcpVariant::kNewReno: return "ns3::TcpNewReno";
    case TcpVariant::kDctcp: return "ns3::TcpDctcp";
  }
  return "ns3::TcpCubic";
}

void SetSocketDefaults(const Ns3NetworkOptions& options, double link_bytes_per_ns) {
  ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType", ns3::StringValue(TcpTypeId(options.tcp)));
  // DCTCP: ECN on (RFC 8257's mode: ECT on its data), and CoDel marks every
  // ECN-capable packet that waited longer than the threshold instead of
  // dropping it; its own drops start only beyond its 5 ms target, so it
  // never drops a packet that is not ECN-capable (a pure ACK) early. The
  // threshold is the time `ecn_threshold_packets` full packets take on a
  // link (`link_bytes_per_ns`).
  const bool dctcp = options.tcp == TcpVariant::kDctcp;
  ns3::Config::SetDefault("ns3::TcpSocketBase::UseEcn", ns3::StringValue(dctcp ? "On" : "Off"));
  ns3::Config::SetDefault("ns3::CoDelQueueDisc::UseEcn", ns3::BooleanValue(dctcp));
  ns3::Config::SetDefault(
      "ns3::CoDelQueueDisc::CeThreshold",
      ns3::TimeValue(dctcp ? ns3::PicoSeconds(static_cast<std::int64_t>(
                                 options.ecn_threshold_packets * options.mtu / link_bytes_per_ns * 1000))
                           : ns3::Time::Max()));
  ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize",
                          ns3::UintegerValue(options.mtu - kTcpIpOverhead));
  ns3::Config::SetDefault("ns3::TcpSocket::SndBufSize", ns3::UintegerValue(kTcpBufferBytes));
  ns3::Config::SetDefault("ns3::TcpSocket::DelAckCount",
                          ns3::UintegerValue(options.delayed_acks ? 2 : 1));
  ns3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", ns3::UintegerValue(kTcpBufferBytes));
}

std::string Summary(const Ns3NetworkOptions& options) {
  const std::string transport =
      options.transport == Transport::kTcp
          ? absl::StrCat("tcp ", std::string(TcpVariantName(options.tcp)))
          : std::string(TransportName(options.transport));
  return absl::StrCat(transport, ", queue ",
                      std::string(QueueDisciplineName(options.queue)), " ",
                      options.queue_size.ToString());
}

}  // namespace

Ns3Network::Ns3Network(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Ns3Network::~Ns3Network() = default;

absl::StatusOr<std::unique_ptr<Ns3Network>> Ns3Network::BuildWired(
    const fabric::Topology& topology, const Ns3NetworkOptions& options) {
  if (absl::Status s = Prepare(options); !s.ok()) return s;
  const std::uint64_t cables = topology.CountLinks().Total();
  if (cables > ns3::TrestleWiredNetworkHelper::MAX_LINKS) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology ", topology.Name(), " has ", cables, " links; the ns-3 adapter addresses at most ",
        ns3::TrestleWiredNetworkHelper::MAX_LINKS, " (a /30 of 10.0.0.0/8 each)"));
  }
  const auto start = std::chrono::steady_clock::now();
  auto impl = std::make_unique<Impl>(options);
  SetSocketDefaults(options, topology.params().link_bandwidth.bytes_per_ns());
  ns3::TrestleWiredNetworkHelper helper;
  helper.SetQueue(QueueFor(options));
  helper.SetMtu(static_cast<std::uint16_t>(options.mtu));
  const bool fabric = options.ip_routing == IpRouting::kFabric;
  if (fabric && topology.EndpointCount() > kFabricRoutingEndpoints) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--ip-routing fabric: topology ", topology.Name(), " has ", topology.EndpointCount(),
        " endpoints; fabric routing keeps every pair's path, for at most ",
        kFabricRoutingEndpoints));
  }
  const bool nix = !fabric && (options.ip_routing == IpRouting::kNixVector ||
                               (options.ip_routing == IpRouting::kAuto &&
                                topology.NodeCount() > kAutoGlobalRoutingNodes));
  helper.SetNixVectorRouting(nix);
  helper.SetPathRouting(fabric, options.seed);
  impl->network = helper.Install(topology);
  impl->description =
      absl::StrCat(topology.Name(), " (", impl->network.nodes.GetN(), " nodes, ",
                   impl->network.links, " links, ", Summary(options), ", ",
                   fabric ? "fabric" : nix ? "nix-vector" : "global",
                   " routing)");
  impl->build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::unique_ptr<Ns3Network>(new Ns3Network(std::move(impl)));
}

absl::StatusOr<std::unique_ptr<Ns3Network>> Ns3Network::BuildWifiAdhoc(
    const WifiAdhocOptions& scenario, const Ns3NetworkOptions& options) {
  if (absl::Status s = scenario.Validate(); !s.ok()) return s;
  if (scenario.nodes == 0 || scenario.nodes > 65000) {
    return absl::InvalidArgumentError(
        absl::StrCat("--scenario: wifi-adhoc needs 1 to 65000 nodes, got ", scenario.nodes));
  }
  if (absl::Status s = Prepare(options); !s.ok()) return s;
  const auto start = std::chrono::steady_clock::now();
  auto impl = std::make_unique<Impl>(options);
  SetSocketDefaults(options, kWifiBytesPerNs);
  ns3::TrestleWifiAdhocHelper helper;
  helper.SetRouting(scenario.routing == WifiRouting::kOlsr ? ns3::TrestleWifiAdhocHelper::OLSR
                                                           : ns3::TrestleWifiAdhocHelper::AODV);
  helper.SetMobility(scenario.mobility == Mobility::kRandomWaypoint
                         ? ns3::TrestleWifiAdhocHelper::RANDOM_WAYPOINT
                         : ns3::TrestleWifiAdhocHelper::CONSTANT);
  helper.SetArea(scenario.width_m, scenario.height_m);
  helper.SetSpeed(scenario.min_speed_mps, scenario.max_speed_mps);
  helper.SetPause(ns3::NanoSeconds(static_cast<std::int64_t>(scenario.pause_ns)));
  helper.SetQueue(QueueFor(options));
  impl->network = helper.Install(scenario.nodes);
  const std::string movement =
      scenario.mobility == Mobility::kConstant
          ? "constant positions"
          : absl::StrCat("random waypoint at ", scenario.min_speed_mps, "-",
                         scenario.max_speed_mps, " m/s");
  impl->description = absl::StrCat("wifi-adhoc:", scenario.nodes, " (802.11a, ",
                                   std::string(WifiRoutingName(scenario.routing)), ", ", movement, " in ",
                                   scenario.width_m, "x", scenario.height_m, " m, ",
                                   Summary(options), ")");
  impl->build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::unique_ptr<Ns3Network>(new Ns3Network(std::move(impl)));
}

const std::string& Ns3Network::description() const { return impl_->description; }
std::uint32_t Ns3Network::endpoint_count() const { return impl_->network.endpoints.GetN(); }
std::uint32_t Ns3Network::node_count() const { return impl_->network.nodes.GetN(); }
std::uint32_t Ns3Network::link_count() const { return impl_->network.links; }
std::uint64_t Ns3Network::min_transfer_ns() const {
  return static_cast<std::uint64_t>(impl_->network.minTransferTime.GetTimeStep()) / 1000;
}
const Ns3NetworkOptions& Ns3Network::options() const { return impl_->options; }
double Ns3Network::build_seconds() const { return impl_->build_seconds; }

}  // namespace trestle::ns3_adapter
