// SimAdapter: what every simulator adapter does around its network model.
// It connects to trestled as a simulator (DaemonLink), takes the time mode
// from the daemon's Welcome, and for every transit:
//
//   1. counts it;
//   2. maps both client ids to endpoints, when given an EndpointMap: an id
//      without one gets DROPPED at once (EndpointResolver, dropped_unmapped);
//   3. draws the loss (LossPolicy, --loss-rate): DROPPED at once
//      (dropped_by_loss);
//   4. hands the rest to the TransitHandler, which posts one outcome per
//      transit through the adapter (OutcomeSink): DELIVERED goes out at once
//      in virtual and wallclock time, and in paced time at wall time
//      start + t_deliver × dilation (PacedScheduler; start is when the
//      session became ready), unless options.pace is off; DROPPED goes out
//      at once.
//
// In lockstep time (the daemon's Grants; docs/protocol.md) transits wait in
// the adapter until a Grant covers them (t_send < until), go to the handler
// in (t_send, source id, sequence) order whatever order they arrived in,
// then the handler gets HandleGrant; the adapter answers every Grant with
// Reached: the handler's last ReportReached (everything, for a handler that
// does not report), capped below the earliest transit still waiting.
// The session's Hello says it follows grants, with the handler's
// LookaheadNs.
//
// DROPPED outcomes carry t_deliver = t_send; in lockstep time t_send plus the
// handler's lookahead (self lookahead for a message to itself), so that a
// loss is never reported before the declared bound. Nothing is logged per
// message.
//
// Time mode: parsed once, from the Welcome, when the session becomes ready
// (before the first transit is handled); options.time_mode, when set, must
// agree (AgreeTimeMode) or Start fails, naming both modes, and no transit is
// answered.
//
// Threading and lifetime: everything runs on `loop`'s thread. `loop` and
// `handler` must outlive the adapter. On Stop (or destruction) outcomes held
// in paced mode are discarded: the daemon gives the transits of a departed
// simulator back to its queue.
#ifndef TRESTLE_ADAPTER_SIM_ADAPTER_H_
#define TRESTLE_ADAPTER_SIM_ADAPTER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "trestle/adapter/adapter_counters.h"
#include "trestle/adapter/daemon_link.h"
#include "trestle/adapter/endpoint_map.h"
#include "trestle/adapter/endpoint_resolver.h"
#include "trestle/adapter/loss_policy.h"
#include "trestle/adapter/paced_scheduler.h"
#include "trestle/adapter/time_mode.h"
#include "trestle/adapter/transit_handler.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"

namespace trestle::adapter {

struct SimAdapterOptions {
  // Names the adapter in warnings ("fabric adapter: client id ...").
  std::string name = "simulator";
  // --time-mode; unset: run in the daemon's mode.
  std::optional<wire::TimeMode> time_mode;
  double dilation = 1.0;  // paced: wall ns per virtual ns; must be > 0
  // Paced mode: hold DELIVERED outcomes until their wall time. Off for an
  // adapter that paces itself, or that measures the bridge (ghost).
  bool pace = true;
  double loss_rate = 0.0;  // probability of DROPPED, in [0, 1]
  std::uint64_t seed = 1;  // loss draws (a stream of their own)

  // InvalidArgument naming the field when dilation or loss_rate is out of range.
  absl::Status Validate() const;
};

class SimAdapter final : private OutcomeSink {
 public:
  // `endpoints` unset: ids are not mapped, the handler sees kNoEndpoint.
  SimAdapter(EventLoop& loop, ClientOptions client, SimAdapterOptions options,
             TransitHandler& handler, std::optional<EndpointMap> endpoints);
  ~SimAdapter();
  SimAdapter(const SimAdapter&) = delete;
  SimAdapter& operator=(const SimAdapter&) = delete;

  // Validates the options, connects (blocking, bounded by the client's
  // connect_timeout), settles the time mode and starts answering transits.
  // Errors: InvalidArgument (options), FailedPrecondition (time mode; the
  // session is closed again), or those of DaemonLink::Connect.
  absl::Status Start();
  // Discards held outcomes, flushes the posted ones and ends the session.
  absl::Status Stop(std::chrono::milliseconds timeout);

  const AdapterCounters& counters() const { return counters_; }
  // Outcomes waiting for their wall time (paced mode).
  std::size_t held() const { return scheduler_ ? scheduler_->pending() : 0; }
  // The run's time mode; valid once Start succeeded.
  wire::TimeMode time_mode() const { return time_mode_.value_or(wire::TIME_MODE_VIRTUAL); }
  // The last ReportReached from the handler (0: none yet).
  // Lockstep: transits waiting for a Grant.
  std::size_t waiting() const { return waiting_.size(); }
  std::uint64_t reached_ns() const { return reached_ns_; }
  DaemonLink& link() { return link_; }

 private:
  // OutcomeSink, for the handler.
  void Deliver(std::uint64_t id, std::uint64_t t_deliver_ns) override;
  void Drop(std::uint64_t id, std::uint64_t t_ns) override;
  void ReportReached(std::uint64_t t_ns) override;

  // Settles the time mode from the Welcome (once) and begins the handler.
  absl::Status BeginSession();
  void HandleTransit(const Transit& transit);
  // Lockstep.
  void OnGrant(std::uint64_t until_ns);
  // `answer`: for a Grant (always sent); otherwise only when it changed.
  void SendReached(bool answer);
  void PostDropped(const Transit& transit);
  void PostDelivered(const Outcome& outcome);

  DaemonLink link_;
  SimAdapterOptions options_;
  TransitHandler& handler_;
  std::optional<EndpointResolver> resolver_;
  LossPolicy loss_;
  std::unique_ptr<PacedScheduler> scheduler_;  // paced mode only
  std::optional<wire::TimeMode> time_mode_;
  absl::Status session_status_;  // of BeginSession, once it ran
  std::uint64_t reached_ns_ = 0;
  bool handler_reported_ = false;
  std::vector<Transit> waiting_;  // lockstep: not yet covered by a Grant
  std::uint64_t granted_ns_ = 0;
  bool granted_ = false;
  bool in_grant_ = false;
  std::uint64_t sent_reached_ = 0, sent_grant_ = 0;  // the last Reached
  bool sent_any_ = false;
  AdapterCounters counters_;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_SIM_ADAPTER_H_
