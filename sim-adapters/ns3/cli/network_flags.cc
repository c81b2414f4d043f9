#include "cli/network_flags.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "trestle/fabric/duration.h"

namespace trestle::ns3_adapter::cli {

void NetworkFlags::AddTo(CLI::App* command, const std::string& group) {
  command->add_option("--transport", transport, "tcp (reliable) or udp (a lost datagram loses its message)")
      ->capture_default_str()
      ->group(group);
  command->add_option("--tcp", tcp, "TCP congestion control: cubic (with HyStart), newreno, or dctcp (ECN; needs --queue codel)")
      ->capture_default_str()
      ->group(group);
  command
      ->add_option("--queue", queue,
                   "queue discipline of every device: fifo, red, codel, fq-codel, pfifo-fast, or "
                   "none (the device's drop-tail queue)")
      ->capture_default_str()
      ->group(group);
  command->add_option("--queue-size", queue_size, "queue capacity: packets (100p) or bytes (64KiB; not for fq-codel or pfifo-fast)")
      ->capture_default_str()
      ->group(group);
  command
      ->add_option("--ecn-threshold", ecn_threshold,
                   "--tcp dctcp: the codel queue marks every packet that waited longer than this many full packets take on a link")
      ->capture_default_str()
      ->group(group);
  command->add_option("--mtu", mtu, "IP bytes per frame on wired links (TCP segment = MTU - 52)")
      ->capture_default_str()
      ->group(group);
  command
      ->add_option("--ip-routing", ip_routing,
                   "wired networks: global (shortest-path tables), nix (nix-vector, on demand), fabric (the "
                   "fabric model's minimal paths, per source and destination; up to 1024 endpoints) or "
                   "auto (global up to 256 nodes)")
      ->capture_default_str()
      ->group(group);
  command
      ->add_option("--udp-timeout", udp_timeout,
                   "udp: a message not complete this long after it was sent is DROPPED")
      ->capture_default_str()
      ->group(group);
}

absl::StatusOr<Ns3NetworkOptions> NetworkFlags::Resolve(Ns3NetworkOptions base) const {
  absl::StatusOr<Transport> parsed_transport = ParseTransport(transport);
  if (!parsed_transport.ok()) return parsed_transport.status();
  absl::StatusOr<TcpVariant> variant = ParseTcpVariant(tcp);
  if (!variant.ok()) return variant.status();
  absl::StatusOr<QueueDiscipline> discipline = ParseQueueDiscipline(queue);
  if (!discipline.ok()) return discipline.status();
  absl::StatusOr<QueueLimit> limit = QueueLimit::Parse(queue_size);
  if (!limit.ok()) return limit.status();
  absl::StatusOr<IpRouting> routing = ParseIpRouting(ip_routing);
  if (!routing.ok()) return routing.status();
  absl::StatusOr<std::uint64_t> timeout = ParseDurationNs(udp_timeout, "--udp-timeout");
  if (!timeout.ok()) return timeout.status();
  base.transport = *parsed_transport;
  base.tcp = *variant;
  base.queue = *discipline;
  base.queue_size = *limit;
  base.ecn_threshold_packets = ecn_threshold;
  base.mtu = mtu;
  base.ip_routing = *routing;
  base.udp_timeout_ns = *timeout;
  if (absl::Status s = base.Validate(); !s.ok()) return s;
  return base;
}

absl::StatusOr<std::uint64_t> ParseDurationNs(const std::string& text, const std::string& flag) {
  absl::StatusOr<fabric::Duration> duration = fabric::Duration::Parse(text);
  if (!duration.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": ", duration.status().message()));
  }
  if (!(duration->ns() >= 0) || duration->ns() > 1e18) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": ", text, " is out of range"));
  }
  return static_cast<std::uint64_t>(std::llround(duration->ns()));
}

}  // namespace trestle::ns3_adapter::cli
