#include "trestle/ns3/ns3_options.h"

#include <cctype>
#include <cmath>
#include <initializer_list>
#include <utility>

#include <charconv>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "trestle/fabric/byte_size.h"

namespace trestle::ns3_adapter {
namespace {

// One table per enum gives both the parser and the printer, so they cannot
// disagree, and the error lists every accepted name.
template <typename E>
using Names = std::initializer_list<std::pair<E, std::string_view>>;

const Names<Transport> kTransports = {{Transport::kTcp, "tcp"}, {Transport::kUdp, "udp"}};
const Names<TcpVariant> kTcpVariants = {{TcpVariant::kCubic, "cubic"},
                                        {TcpVariant::kNewReno, "newreno"},
                                        {TcpVariant::kDctcp, "dctcp"}};
const Names<QueueDiscipline> kDisciplines = {
    {QueueDiscipline::kFifo, "fifo"},        {QueueDiscipline::kRed, "red"},
    {QueueDiscipline::kCoDel, "codel"},      {QueueDiscipline::kFqCoDel, "fq-codel"},
    {QueueDiscipline::kPfifoFast, "pfifo-fast"}, {QueueDiscipline::kNone, "none"}};
const Names<IpRouting> kIpRoutings = {
    {IpRouting::kAuto, "auto"}, {IpRouting::kGlobal, "global"}, {IpRouting::kNixVector, "nix"},
    {IpRouting::kFabric, "fabric"}};
const Names<WifiRouting> kWifiRoutings = {{WifiRouting::kAodv, "aodv"},
                                              {WifiRouting::kOlsr, "olsr"}};
const Names<Mobility> kMobilities = {{Mobility::kConstant, "constant"},
                                         {Mobility::kRandomWaypoint, "random-waypoint"}};

// A whole decimal number, nothing else. (absl's string helpers take
// absl::string_view, which this C++17 build cannot make from std::string_view.)
template <typename T>
bool ParseNumber(std::string_view text, T* value) {
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, *value);
  return !text.empty() && error == std::errc() && ptr == end;
}

template <typename E>
absl::StatusOr<E> Parse(Names<E> names, std::string_view text, std::string_view flag) {
  std::string accepted;
  for (const auto& [value, name] : names) {
    if (name == text) return value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(name);
  }
  return absl::InvalidArgumentError(absl::StrCat(std::string(flag), ": unknown value '",
                                                 std::string(text), "' (", accepted, ")"));
}

template <typename E>
std::string_view Name(Names<E> names, E value) {
  for (const auto& [entry, name] : names) {
    if (entry == value) return name;
  }
  return "?";
}

}  // namespace

absl::StatusOr<Transport> ParseTransport(std::string_view text) {
  return Parse(kTransports, text, "--transport");
}
absl::StatusOr<TcpVariant> ParseTcpVariant(std::string_view text) {
  return Parse(kTcpVariants, text, "--tcp");
}
absl::StatusOr<QueueDiscipline> ParseQueueDiscipline(std::string_view text) {
  return Parse(kDisciplines, text, "--queue");
}
absl::StatusOr<IpRouting> ParseIpRouting(std::string_view text) {
  return Parse(kIpRoutings, text, "--ip-routing");
}
absl::StatusOr<WifiRouting> ParseWifiRouting(std::string_view text) {
  return Parse(kWifiRoutings, text, "--wifi-routing");
}
absl::StatusOr<Mobility> ParseMobility(std::string_view text) {
  return Parse(kMobilities, text, "--mobility");
}
std::string_view TransportName(Transport transport) { return Name(kTransports, transport); }
std::string_view TcpVariantName(TcpVariant variant) { return Name(kTcpVariants, variant); }
std::string_view QueueDisciplineName(QueueDiscipline discipline) {
  return Name(kDisciplines, discipline);
}
std::string_view WifiRoutingName(WifiRouting routing) { return Name(kWifiRoutings, routing); }
std::string_view MobilityName(Mobility mobility) { return Name(kMobilities, mobility); }

absl::StatusOr<QueueLimit> QueueLimit::Parse(std::string_view text) {
  QueueLimit limit;
  if (!text.empty() && text.back() == 'p') {
    if (!ParseNumber(text.substr(0, text.size() - 1), &limit.value) || limit.value == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--queue-size: bad packet count '", std::string(text), "' (e.g. 100p)"));
    }
    limit.packets = true;
    return limit;
  }
  absl::StatusOr<fabric::ByteSize> bytes = fabric::ByteSize::Parse(text);
  if (!bytes.ok() || bytes->bytes() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--queue-size: bad size '", std::string(text), "' (packets such as 100p, or bytes such as 64KiB)"));
  }
  limit.value = bytes->bytes();
  limit.packets = false;
  return limit;
}

std::string QueueLimit::ToString() const { return absl::StrCat(value, packets ? "p" : "B"); }

absl::StatusOr<std::uint32_t> WifiAdhocOptions::ParseScenario(std::string_view text) {
  constexpr std::string_view kPrefix = "wifi-adhoc:";
  std::uint32_t nodes = 0;
  if (text.substr(0, kPrefix.size()) != kPrefix ||
      !ParseNumber(text.substr(kPrefix.size()), &nodes) || nodes == 0 || nodes > 65000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--scenario: unknown scenario '", std::string(text), "' (wifi-adhoc:N, with 1 <= N <= 65000)"));
  }
  return nodes;
}

absl::Status WifiAdhocOptions::Validate() const {
  if (!(width_m > 0) || !(height_m > 0) || !std::isfinite(width_m) || !std::isfinite(height_m)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--area: width and height must be positive metres, got ", width_m, "x",
                     height_m));
  }
  if (!(min_speed_mps > 0) || !(max_speed_mps >= min_speed_mps) || !std::isfinite(max_speed_mps)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--min-speed/--max-speed: need 0 < min <= max metres per second, got ", min_speed_mps,
        " and ", max_speed_mps));
  }
  return absl::OkStatus();
}

absl::Status Ns3NetworkOptions::Validate() const {
  if (mtu < 576 || mtu > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--mtu: ", mtu, " is outside [576, 65535] bytes"));
  }
  if (udp_timeout_ns == 0) {
    return absl::InvalidArgumentError("--udp-timeout: must be more than 0");
  }
  if (queue_size.value == 0) {
    return absl::InvalidArgumentError("--queue-size: must be more than 0");
  }
  // ns-3 3.37's fq-codel and pfifo-fast keep packet-counted internal queues:
  // given bytes, they drop every packet.
  if (!queue_size.packets &&
      (queue == QueueDiscipline::kFqCoDel || queue == QueueDiscipline::kPfifoFast)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--queue-size: --queue ", std::string(QueueDisciplineName(queue)),
        " counts packets (e.g. 1000p), not bytes (", queue_size.ToString(), ")"));
  }
  if (tcp == TcpVariant::kDctcp && transport == Transport::kTcp &&
      queue != QueueDiscipline::kCoDel) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--tcp dctcp: needs --queue codel (the queue that marks packets with ECN), not --queue ",
        std::string(QueueDisciplineName(queue))));
  }
  if (tcp == TcpVariant::kDctcp &&
      (ecn_threshold_packets == 0 ||
       (queue_size.packets && ecn_threshold_packets >= queue_size.value))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--ecn-threshold: ", ecn_threshold_packets, " packets must be more than 0 and below the queue's ",
        queue_size.ToString()));
  }
  return absl::OkStatus();
}

}  // namespace trestle::ns3_adapter
