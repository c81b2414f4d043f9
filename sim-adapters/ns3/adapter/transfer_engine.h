// TransferEngine: Trestle messages as transfers through an ns-3 network
// (internal to trestle_ns3; C++17, ns-3 headers). Used by the live adapter
// (Ns3TransitHandler) and by sweeps (Ns3CollectiveSweep).
//
// It installs a TrestleMessageApplication on every endpoint and a
// TrestleDropMonitor on every node, and turns each request into one
// transfer of `size` bytes from the source endpoint's node to the
// destination's, started at a given simulated time:
//
//   t_start + endpoint delay   the source hands the message to its socket
//   TCP: the last byte is read  -> delivered at that time
//        the connection breaks  -> dropped (every message it carried)
//   UDP: the last datagram arrives        -> delivered at that time
//        a datagram is dropped anywhere   -> dropped at that time
//        not complete after udp_timeout   -> dropped then (a loss no trace saw)
//   src == dst: delivered at t_start + endpoint delay (no network).
//
// Every request gets exactly one result, from inside a simulator event,
// through the completion callback; results of one time come in event order.
//
// Costs: one hash-map entry per transfer in flight; nothing is logged.
// Lifetime: the network (its simulation) must outlive the engine; the
// callback must not destroy the engine. The applications stay on their
// nodes after the engine goes (ns-3 cannot remove them), and the simulator
// may still run them (Simulator::Destroy closes their sockets): so the
// destructor cancels the engine's events and disconnects it, and its drop
// monitor, from every trace source it listened to. Simulator thread only.
#ifndef TRESTLE_NS3_ADAPTER_TRANSFER_ENGINE_H_
#define TRESTLE_NS3_ADAPTER_TRANSFER_ENGINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "adapter/simulation.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"
#include "trestle-drop-monitor.h"
#include "trestle-message-application.h"
#include "trestle-network.h"
#include "trestle/ns3/ns3_options.h"

namespace trestle::ns3_adapter {

struct TransferRequest {
  std::uint64_t id = 0;  // unique among transfers in flight
  std::uint32_t src = 0;  // endpoints
  std::uint32_t dst = 0;
  std::uint64_t size = 0;  // payload bytes
  std::uint64_t context = 0;  // the caller's, handed back in the result
};

struct TransferResult {
  std::uint64_t id = 0;
  bool delivered = false;
  std::uint64_t start_ps = 0;  // simulated time the transfer was started
  std::uint64_t end_ps = 0;    // when it was delivered or found lost
  std::uint64_t context = 0;
};

class TransferEngine {
 public:
  using Completion = std::function<void(const TransferResult&)>;

  // `options`: transport, MTU, endpoint delay and UDP timeout are used.
  // Runs `simulation` through time 0, so that the applications have started
  // before the first transfer.
  TransferEngine(Simulation& simulation, const ns3::TrestleNetwork& network,
                 const Ns3NetworkOptions& options, Completion on_done);
  ~TransferEngine();
  TransferEngine(const TransferEngine&) = delete;
  TransferEngine& operator=(const TransferEngine&) = delete;

  // Starts `request` at simulated time `start_ps`, which must not be before
  // the simulator's clock. A request whose id is already in flight is
  // ignored (it has its result coming). Endpoints must be < the network's.
  void StartAt(std::uint64_t start_ps, const TransferRequest& request);

  std::size_t in_flight() const { return in_flight_.size(); }
  std::uint64_t delivered() const { return delivered_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  struct Transfer {
    std::uint32_t src;
    std::uint32_t dst;
    std::uint64_t start_ps;
    std::uint64_t context;
    std::uint64_t datagrams_left;  // UDP
    bool sent;                     // handed to the source's application
    ns3::EventId event;            // its Send (or Finish) until sent; then UDP's timeout
  };

  void Send(std::uint64_t id, std::uint32_t src, std::uint32_t dst, std::uint64_t size);
  void Finish(std::uint64_t id, bool delivered);
  // Trace sinks.
  void MessageRead(std::uint64_t id, std::uint64_t size);
  void DatagramRead(std::uint64_t id, std::uint64_t size, std::uint32_t bytes);
  void DatagramLost(std::uint64_t id);
  void ConnectionFailed(std::string src, ns3::Ipv4Address peer);
  // Connects this engine's sinks to endpoint `e`'s application, or
  // disconnects them.
  void Listen(std::uint32_t e, bool connect);

  Simulation& simulation_;
  const ns3::TrestleNetwork& network_;
  Ns3NetworkOptions options_;
  Completion on_done_;
  std::uint32_t datagram_payload_;
  std::vector<ns3::Ptr<ns3::TrestleMessageApplication>> apps_;  // per endpoint
  ns3::Ptr<ns3::TrestleDropMonitor> monitor_;
  std::map<ns3::Ipv4Address, std::uint32_t> endpoint_of_address_;
  std::unordered_map<std::uint64_t, Transfer> in_flight_;
  std::uint64_t delivered_ = 0;
  std::uint64_t dropped_ = 0;
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_ADAPTER_TRANSFER_ENGINE_H_
