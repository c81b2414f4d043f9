// FabricAdapter: the live fabric adapter (part of trestle_fabric_adapter). A
// thin layer that connects the analytical model to trestled as a simulator:
// for every transit it maps the sender and receiver client ids to endpoints
// (EndpointMap), prices the message with MessageTimeModel under the chosen
// Routing, and posts one Outcome:
//
//   DELIVERED, t_deliver = t_send + round(modelled ns)
//       in virtual and wallclock mode at once; in paced mode at wall time
//       start + t_deliver × dilation (PacedScheduler; start is when the
//       session became ready).
//   DROPPED, t_deliver = t_send, at once in every mode
//       - with probability loss_rate (seeded, so runs repeat), or
//       - when the sender or receiver cannot be mapped to an endpoint (an id
//         beyond the topology's endpoints, or one the map file lacks). The
//         error is logged once per client id (spdlog warn) and counted.
//
// Adaptive routing sees no link load (the model is congestion-unaware).
// The per-transit path allocates nothing once mapped ids and containers
// have warmed up; nothing is logged per message.
//
// Threading and lifetime: everything runs on `loop`'s thread. `loop` and
// `topology` must outlive the adapter. On Stop (or destruction) outcomes
// still held in paced mode are discarded: the daemon gives the transits of a
// departed simulator back to its queue.
#ifndef TRESTLE_FABRIC_FABRIC_ADAPTER_H_
#define TRESTLE_FABRIC_FABRIC_ADAPTER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <unordered_set>

#include "absl/status/status.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/endpoint_map.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/paced_scheduler.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/time_mode.h"
#include "trestle/fabric/topology.h"
#include "trestle/sim_client.h"
#include "trestle/transit.h"

namespace trestle::fabric {

struct FabricAdapterOptions {
  TimeMode time_mode = TimeMode::kVirtual;
  double dilation = 1.0;  // paced: wall ns per virtual ns; must be > 0
  RoutingKind routing = RoutingKind::kMinimal;
  std::uint64_t seed = 1;       // routing choices and loss draws
  double loss_rate = 0.0;       // probability of DROPPED, in [0, 1]
  Duration endpoint_delay;      // per-message endpoint overhead

  // InvalidArgument naming the field when dilation or loss_rate is out of range.
  absl::Status Validate() const;
};

// What the adapter has done so far.
struct FabricAdapterCounters {
  std::uint64_t transits = 0;          // received
  std::uint64_t delivered = 0;         // DELIVERED posted (paced: released)
  std::uint64_t dropped_by_loss = 0;   // DROPPED by --loss-rate
  std::uint64_t dropped_unmapped = 0;  // DROPPED: an id had no endpoint
};

class FabricAdapter {
 public:
  FabricAdapter(EventLoop& loop, ClientOptions client, const Topology& topology,
                EndpointMap endpoints, FabricAdapterOptions options);
  ~FabricAdapter();

  // Validates the options, connects (blocking, bounded by the client's
  // connect_timeout) and starts answering transits. Errors: InvalidArgument
  // (options), or those of SimClient::Connect.
  absl::Status Start();
  // Discards held outcomes, flushes the posted ones and ends the session.
  absl::Status Stop(std::chrono::milliseconds timeout);

  const FabricAdapterCounters& counters() const { return counters_; }
  // Outcomes waiting for their wall time (paced mode).
  std::size_t held() const { return scheduler_ ? scheduler_->pending() : 0; }
  SimClient& client() { return client_; }

 private:
  void HandleTransits(std::span<const Transit> transits);
  void Answer(const Transit& transit);
  void PostDropped(const Transit& transit);
  // The endpoint of `client_id`, or kNoNode after warning (once per id).
  NodeId EndpointOf(const std::string& client_id);

  SimClient client_;
  EndpointMap endpoints_;
  FabricAdapterOptions options_;
  RoutingPtr routing_;
  MessageTimeModel model_;
  std::mt19937_64 loss_rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  std::unique_ptr<PacedScheduler> scheduler_;  // paced mode only
  std::unordered_set<std::string> warned_ids_;
  FabricAdapterCounters counters_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FABRIC_ADAPTER_H_
