#include "adapter/transfer_engine.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace trestle::ns3_adapter {
namespace {

// IPv4 and UDP headers, and the Trestle header of every datagram.
constexpr std::uint32_t kUdpOverhead = 20 + 8 + ns3::TrestleMessageHeader::SERIALIZED_SIZE;

}  // namespace

TransferEngine::TransferEngine(Simulation& simulation, const ns3::TrestleNetwork& network,
                               const Ns3NetworkOptions& options, Completion on_done)
    : simulation_(simulation),
      network_(network),
      options_(options),
      on_done_(std::move(on_done)),
      datagram_payload_(options.mtu - kUdpOverhead) {
  const bool udp = options_.transport == Transport::kUdp;
  for (std::uint32_t e = 0; e < network_.endpoints.GetN(); ++e) {
    auto app = ns3::CreateObject<ns3::TrestleMessageApplication>();
    app->SetAttribute("Protocol", ns3::EnumValue(udp ? ns3::TrestleMessageApplication::UDP
                                                     : ns3::TrestleMessageApplication::TCP));
    app->SetAttribute("MaxDatagramPayload", ns3::UintegerValue(datagram_payload_));
    network_.endpoints.Get(e)->AddApplication(app);
    apps_.push_back(app);
    Listen(e, true);
    endpoint_of_address_.emplace(network_.endpointAddresses[e], e);
  }
  monitor_ = ns3::CreateObject<ns3::TrestleDropMonitor>();
  for (std::uint32_t n = 0; n < network_.nodes.GetN(); ++n) {
    monitor_->Monitor(network_.nodes.Get(n));
  }
  monitor_->TraceConnectWithoutContext("MessageDrop",
                                       ns3::MakeCallback(&TransferEngine::DatagramLost, this));
  // Applications start from events at time 0 (ns-3 schedules them when they
  // are added): run those now, before any transfer is scheduled.
  simulation_.RunSlice(1, Simulation::kNoHorizon);
}

TransferEngine::~TransferEngine() {
  for (auto& [id, transfer] : in_flight_) transfer.event.Cancel();
  monitor_->Dispose();
  for (std::uint32_t e = 0; e < apps_.size(); ++e) Listen(e, false);
}

void TransferEngine::Listen(std::uint32_t e, bool connect) {
  const ns3::Ptr<ns3::TrestleMessageApplication>& app = apps_[e];
  const std::pair<const char*, ns3::CallbackBase> sinks[] = {
      {"MessageRx", ns3::MakeCallback(&TransferEngine::MessageRead, this)},
      {"DatagramRx", ns3::MakeCallback(&TransferEngine::DatagramRead, this)},
      {"DatagramSendFailed", ns3::MakeCallback(&TransferEngine::DatagramLost, this)},
  };
  for (const auto& [name, sink] : sinks) {
    if (connect) {
      app->TraceConnectWithoutContext(name, sink);
    } else {
      app->TraceDisconnectWithoutContext(name, sink);
    }
  }
  // The context names the sending endpoint.
  const auto failed = ns3::MakeCallback(&TransferEngine::ConnectionFailed, this);
  if (connect) {
    app->TraceConnect("ConnectionFailed", std::to_string(e), failed);
  } else {
    app->TraceDisconnect("ConnectionFailed", std::to_string(e), failed);
  }
}

void TransferEngine::StartAt(std::uint64_t start_ps, const TransferRequest& request) {
  const bool udp = options_.transport == Transport::kUdp;
  const std::uint64_t datagrams =
      request.size == 0 ? 1 : (request.size + datagram_payload_ - 1) / datagram_payload_;
  auto [it, inserted] = in_flight_.emplace(
      request.id, Transfer{request.src, request.dst, start_ps, request.context,
                           udp ? datagrams : 0, false, ns3::EventId()});
  if (!inserted) return;
  const std::uint64_t now = simulation_.NowPs();
  const std::uint64_t send_ps = std::max(start_ps, now) + options_.endpoint_delay_ns * 1000;
  const ns3::Time delay = ns3::PicoSeconds(static_cast<std::int64_t>(send_ps - now));
  if (request.src == request.dst) {
    it->second.event =
        ns3::Simulator::Schedule(delay, &TransferEngine::Finish, this, request.id, true);
    return;
  }
  it->second.event = ns3::Simulator::Schedule(delay, &TransferEngine::Send, this, request.id,
                                              request.src, request.dst, request.size);
}

void TransferEngine::Send(std::uint64_t id, std::uint32_t src, std::uint32_t dst,
                          std::uint64_t size) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  it->second.sent = true;
  if (options_.transport == Transport::kUdp) {
    // Before sending: a datagram the socket refuses finishes the transfer
    // at once, cancelling this.
    it->second.event = ns3::Simulator::Schedule(
        ns3::NanoSeconds(static_cast<std::int64_t>(options_.udp_timeout_ns)),
        &TransferEngine::Finish, this, id, false);
  }
  apps_[src]->SendMessage(id, network_.endpointAddresses[dst], size);
}

void TransferEngine::Finish(std::uint64_t id, bool delivered) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  const TransferResult result{id, delivered, it->second.start_ps, simulation_.NowPs(),
                              it->second.context};
  it->second.event.Cancel();
  in_flight_.erase(it);
  ++(delivered ? delivered_ : dropped_);
  on_done_(result);
}

void TransferEngine::MessageRead(std::uint64_t id, std::uint64_t) { Finish(id, true); }

void TransferEngine::DatagramRead(std::uint64_t id, std::uint64_t, std::uint32_t) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;  // already lost: a late datagram of it
  if (--it->second.datagrams_left == 0) Finish(id, true);
}

void TransferEngine::DatagramLost(std::uint64_t id) { Finish(id, false); }

void TransferEngine::ConnectionFailed(std::string src, ns3::Ipv4Address peer) {
  const auto dst = endpoint_of_address_.find(peer);
  if (dst == endpoint_of_address_.end()) return;
  const auto from = static_cast<std::uint32_t>(std::strtoul(src.c_str(), nullptr, 10));
  // Every message on that connection is lost (a broken connection is rare:
  // scanning the transfers in flight is fine).
  std::vector<std::uint64_t> lost;
  for (const auto& [id, transfer] : in_flight_) {
    if (transfer.sent && transfer.src == from && transfer.dst == dst->second) lost.push_back(id);
  }
  for (std::uint64_t id : lost) Finish(id, false);
}

}  // namespace trestle::ns3_adapter
