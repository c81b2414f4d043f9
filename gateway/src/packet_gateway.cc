#include "trestle/gateway/packet_gateway.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "trestle/gateway/ipv4_header.h"
#include "trestle/wire/time_mode.h"

namespace trestle::gateway {
namespace {

// Packets read per readiness of the TUN before the loop turns again, so a
// busy TUN cannot starve deliveries and the daemon connection.
constexpr int kReadBatch = 64;

}  // namespace

PacketGateway::PacketGateway(EventLoop& loop, const NodeAddressMap& map, GatewayOptions options)
    : loop_(loop), map_(map), options_(std::move(options)) {
  options_.client.client_id = options_.node;
  // A send by key would block the loop on a Redis round trip per packet.
  options_.client.payload_by_key = false;
}

PacketGateway::~PacketGateway() { Stop(); }

absl::Status PacketGateway::Start() {
  self_ = map_.Find(options_.node);
  if (self_ == nullptr) {
    return absl::NotFoundError(absl::StrCat("node '", options_.node,
                                            "' is not in the gateway config (it lists: ",
                                            map_.NodeNames(), ")"));
  }
  absl::StatusOr<std::unique_ptr<NodeNamespace>> netns = NodeNamespace::Open(options_.netns);
  if (!netns.ok()) return netns.status();
  netns_ = *std::move(netns);
  {
    absl::StatusOr<std::unique_ptr<NodeNamespace::Guard>> inside = netns_->Enter();
    if (!inside.ok()) return inside.status();
    TunOptions tun{options_.tun_path, options_.tun_name, self_->address, self_->prefix_length,
                   options_.mtu};
    absl::StatusOr<std::unique_ptr<TunDevice>> device = TunDevice::Create(tun);
    if (!device.ok()) {
      return absl::Status(device.status().code(),
                          absl::StrCat("namespace ", options_.netns, ": ", device.status().message()));
    }
    tun_ = *std::move(device);
  }  // back in the original namespace, where the daemon is

  app_ = std::make_unique<AppClient>(loop_, options_.client);
  if (absl::Status s = app_->Connect(); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("node '", options_.node, "': cannot connect to trestled at ",
                                               options_.client.daemon, ": ", s.message()));
  }
  const std::string& mode = app_->daemon_config().time_mode();
  if (wire::ParseTimeMode(mode).value_or(wire::TIME_MODE_UNSPECIFIED) !=
      wire::TIME_MODE_WALLCLOCK) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the gateway needs the daemon in wallclock time (trestled --time-mode wallclock); "
        "the daemon at ", options_.client.daemon, " runs '", mode, "'"));
  }
  absl::StatusOr<std::unique_ptr<DeliveryPacer>> pacer = DeliveryPacer::Create(
      loop_.uv_loop(), options_.max_held, [this](const std::string& packet) { WritePacket(packet); });
  if (!pacer.ok()) return pacer.status();
  pacer_ = *std::move(pacer);
  app_->OnMessage([this](Message&& m) { Deliver(std::move(m)); });
  app_->OnError([this](const absl::Status& s) {
    if (app_->connected()) {
      ++counters_.rejected;
      spdlog::debug("{}: {}", options_.node, std::string(s.message()));
      return;
    }
    if (on_fatal_) on_fatal_(s);
  });

  buffer_.resize(options_.mtu);
  if (int rc = tun_poll_.Init(uv_poll_init, loop_.uv_loop(), tun_->fd()); rc != 0) {
    return absl::InternalError(absl::StrCat("uv_poll_init on the TUN: ", uv_strerror(rc)));
  }
  tun_poll_->data = this;
  uv_poll_start(tun_poll_.get(), UV_READABLE, &PacketGateway::OnTunReadable);
  spdlog::info("node '{}': {} {}/{} in namespace {}{}, client id '{}' at {}", options_.node,
               tun_->name(), FormatIpv4(self_->address), self_->prefix_length, options_.netns,
               netns_->created() ? " (created)" : "", options_.node, options_.client.daemon);
  return absl::OkStatus();
}

void PacketGateway::Stop() {
  tun_poll_.Close();
  if (app_ != nullptr && app_->connected()) (void)app_->Close(std::chrono::milliseconds(1000));
}

void PacketGateway::OnTunReadable(uv_poll_t* poll, int status, int /*events*/) {
  auto* self = static_cast<PacketGateway*>(poll->data);
  if (self != nullptr && status == 0) self->ReadPackets();
}

void PacketGateway::ReadPackets() {
  for (int i = 0; i < kReadBatch; ++i) {
    const ssize_t n = read(tun_->fd(), buffer_.data(), buffer_.size());
    if (n < 0) {
      if (errno != EAGAIN && errno != EINTR) {
        spdlog::warn("node '{}': read from {}: {}", options_.node, tun_->name(), std::strerror(errno));
      }
      return;
    }
    ++counters_.read;
    Forward(std::string_view(buffer_.data(), static_cast<std::size_t>(n)));
  }
}

void PacketGateway::Forward(std::string_view packet) {
  const std::optional<Ipv4Addresses> ip = ReadIpv4Addresses(packet);
  if (!ip) {
    ++counters_.not_ipv4;
    return;
  }
  const NodeAddress* dst = map_.NodeOf(ip->destination);
  if (dst == nullptr) {
    ++counters_.unknown_destination;
    spdlog::debug("node '{}': no node has {}, packet dropped", options_.node, FormatIpv4(ip->destination));
    return;
  }
  send_options_.t_send = DeliveryPacer::NowNs();
  absl::StatusOr<std::uint64_t> id = app_->Send(dst->node, packet, send_options_);
  if (!id.ok()) {
    ++counters_.send_refused;
    spdlog::debug("node '{}': send to '{}' refused: {}", options_.node, dst->node, std::string(id.status().message()));
    return;
  }
  ++counters_.sent;
}

void PacketGateway::Deliver(Message&& message) {
  if (message.dropped) return;  // drop reports are not asked for
  ++counters_.delivered;
  const std::optional<Ipv4Addresses> ip = ReadIpv4Addresses(message.payload);
  if (!ip || ip->destination != self_->address) {
    ++counters_.misaddressed;
    spdlog::debug("node '{}': a payload from '{}' is not an IPv4 packet for {}", options_.node, message.src,
                  FormatIpv4(self_->address));
    return;
  }
  const std::uint64_t latency = message.t_deliver >= message.t_send ? message.t_deliver - message.t_send : 0;
  counters_.latency_sum_ns += latency;
  counters_.latency_min_ns = counters_.delivered == 1 ? latency : std::min(counters_.latency_min_ns, latency);
  counters_.latency_max_ns = std::max(counters_.latency_max_ns, latency);
  const std::uint64_t due =
      message.t_send + static_cast<std::uint64_t>(static_cast<double>(latency) * options_.dilation);
  if (due < DeliveryPacer::NowNs()) ++counters_.late;
  if (!pacer_->Hold(due, std::move(message.payload))) ++counters_.held_full;
}

void PacketGateway::WritePacket(const std::string& packet) {
  if (write(tun_->fd(), packet.data(), packet.size()) == static_cast<ssize_t>(packet.size())) {
    ++counters_.written;
    return;
  }
  ++counters_.write_failed;
  spdlog::debug("node '{}': write to {}: {}", options_.node, tun_->name(), std::strerror(errno));
}

}  // namespace trestle::gateway
