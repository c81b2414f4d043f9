// PacketGateway: one node of a gateway run (part of trestle_gateway). It owns
// the node's network namespace and TUN device and an AppClient whose client
// id is the node name. Every IPv4 packet a program in the namespace sends
// through the TUN becomes a payload to the app of the node that has the
// destination address; the simulator decides when, and whether, it arrives;
// a delivered packet is held until its modelled arrival time
// (DeliveryPacer) and written into this node's TUN.
//
//   program ─▶ TUN ─▶ uv_poll ─▶ AppClient::Send(dst node, packet, t_send = now)
//   AppClient::OnMessage ─▶ DeliveryPacer (until t_deliver) ─▶ TUN ─▶ program
//
// Time: the daemon must run in wallclock time. t_send is CLOCK_MONOTONIC
// ns, so t_deliver (t_send + the modelled latency) is the wall time the
// packet arrives; the bridge's own delay is hidden as long as it is below
// the modelled latency (× GatewayOptions::dilation, default 1: the gateway
// paces the packets itself). A packet the model drops is never written: the
// programs' TCP recovers as on a lossy network.
//
// Everything runs on the EventLoop's thread, nothing blocks it: the TUN is
// non-blocking, read in bounded batches per readiness.
#pragma once

#include <uv.h>

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/gateway/delivery_pacer.h"
#include "trestle/gateway/gateway_counters.h"
#include "trestle/gateway/node_address_map.h"
#include "trestle/gateway/node_namespace.h"
#include "trestle/gateway/tun_device.h"
#include "trestle/platform/uv_handle.h"

namespace trestle::gateway {

// The namespace of a node: `prefix` + node name (see `trestle gateway run`).
inline constexpr char kDefaultNetnsPrefix[] = "trestle-";

struct GatewayOptions {
  std::string node;               // this node's name: its config entry and client id
  std::string netns;              // its namespace (/run/netns/NAME)
  std::string tun_path = kDefaultTunPath;
  std::string tun_name = kDefaultTunName;
  std::uint32_t mtu = kDefaultMtu;
  std::size_t max_held = kDefaultMaxHeld;
  // Wall ns per modelled ns: a packet is written at t_send + latency × this
  // (2: the network in slow motion, twice the modelled latency). > 0.
  double dilation = 1.0;
  ClientOptions client;           // daemon, token; client_id is set to `node`
};

class PacketGateway {
 public:
  // `map` must list options.node and outlive the gateway.
  PacketGateway(EventLoop& loop, const NodeAddressMap& map, GatewayOptions options);
  PacketGateway(const PacketGateway&) = delete;
  PacketGateway& operator=(const PacketGateway&) = delete;
  ~PacketGateway();

  // Opens (or creates) the namespace and the TUN in it, connects to the
  // daemon (blocking, before the loop runs) and starts moving packets.
  // Errors name the node and the step: unknown node, no root, no
  // /dev/net/tun, no daemon, a daemon not in wallclock time.
  absl::Status Start();
  // Stops reading the TUN and closes the session (Bye, bounded).
  void Stop();
  // Called on the loop thread when the session with the daemon is lost.
  void OnFatal(std::function<void(const absl::Status&)> callback) { on_fatal_ = std::move(callback); }

  const GatewayCounters& counters() const { return counters_; }
  std::size_t held() const { return pacer_ ? pacer_->held() : 0; }

 private:
  static void OnTunReadable(uv_poll_t* poll, int status, int events);
  void ReadPackets();
  void Forward(std::string_view packet);
  void Deliver(Message&& message);
  void WritePacket(const std::string& packet);

  EventLoop& loop_;
  const NodeAddressMap& map_;
  GatewayOptions options_;
  const NodeAddress* self_ = nullptr;
  std::unique_ptr<NodeNamespace> netns_;
  std::unique_ptr<TunDevice> tun_;
  std::unique_ptr<AppClient> app_;
  std::unique_ptr<DeliveryPacer> pacer_;
  platform::UvHandle<uv_poll_t> tun_poll_;
  std::string buffer_;             // one packet read from the TUN
  SendOptions send_options_;
  GatewayCounters counters_;
  std::function<void(const absl::Status&)> on_fatal_;
};

}  // namespace trestle::gateway
