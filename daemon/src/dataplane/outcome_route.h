// OutcomeRoute: where a simulator's outcome goes once DataPlane::OnOutcomes
// has checked it (the simulator held the transit) and stamped its record.
// The data plane picks one when it is built, from the time mode and whether
// the daemon is federated, so no outcome asks again:
//
//   FreeRunningOutcomes  one daemon, not lockstep: a delivery queues for its
//                        app, a drop report for its sender
//   CoordinatedOutcomes  lockstep time, this daemon coordinates the run
//                        (federated or not): the TimeCoordinator holds both
//                        until they are safe, and releases them in order
//   FederatedOutcomes    a federated daemon outside lockstep time, or a peer
//                        daemon of a lockstep run: a delivery whose app, or a
//                        drop report whose sender, has no session here goes
//                        to FederationOutbound; the rest as free-running
//
// Loop thread only. Everything passed to a constructor must outlive the route.
#pragma once

#include <cstdint>

#include "dispatch/delivery_dispatcher.h"
#include "federation/federation_outbound.h"
#include "lockstep/time_coordinator.h"
#include "messages/message_ledger.h"

namespace trestle::daemon {

class OutcomeRoute {
 public:
  virtual ~OutcomeRoute() = default;
  // A DELIVERED outcome for `r`, at loop time `now_ms`.
  virtual void Delivered(MessageRecord& r, std::uint64_t now_ms) = 0;
  // A DROPPED outcome for `r`, counted dropped and its payload erased: its
  // drop report is due if r.notify_drop; otherwise the record goes.
  virtual void Dropped(MessageRecord& r, std::uint64_t now_ms) = 0;
};

class FreeRunningOutcomes final : public OutcomeRoute {
 public:
  FreeRunningOutcomes(MessageLedger& ledger, DeliveryDispatcher& deliveries)
      : ledger_(ledger), deliveries_(deliveries) {}
  void Delivered(MessageRecord& r, std::uint64_t now_ms) override {
    deliveries_.EnqueueDelivery(r, now_ms);
  }
  void Dropped(MessageRecord& r, std::uint64_t now_ms) override {
    if (r.notify_drop) return deliveries_.EnqueueDropReport(r, now_ms);
    ledger_.Erase(r.id);
  }

 private:
  MessageLedger& ledger_;
  DeliveryDispatcher& deliveries_;
};

class CoordinatedOutcomes final : public OutcomeRoute {
 public:
  CoordinatedOutcomes(MessageLedger& ledger, TimeCoordinator& time)
      : ledger_(ledger), time_(time) {}
  void Delivered(MessageRecord& r, std::uint64_t /*now_ms*/) override {
    time_.OnPosted(r, /*hold=*/true, /*drop_report=*/false);
  }
  void Dropped(MessageRecord& r, std::uint64_t /*now_ms*/) override {
    time_.OnPosted(r, /*hold=*/r.notify_drop, /*drop_report=*/true);
    if (!r.notify_drop) ledger_.Erase(r.id);
  }

 private:
  MessageLedger& ledger_;
  TimeCoordinator& time_;
};

class FederatedOutcomes final : public OutcomeRoute {
 public:
  FederatedOutcomes(MessageLedger& ledger, DeliveryDispatcher& deliveries,
                    FederationOutbound& outbound)
      : ledger_(ledger), deliveries_(deliveries), outbound_(outbound) {}
  void Delivered(MessageRecord& r, std::uint64_t now_ms) override {
    if (!outbound_.TakeDelivery(r)) deliveries_.EnqueueDelivery(r, now_ms);
  }
  void Dropped(MessageRecord& r, std::uint64_t now_ms) override {
    if (!r.notify_drop) return ledger_.Erase(r.id);
    if (!outbound_.TakeDropReport(r)) deliveries_.EnqueueDropReport(r, now_ms);
  }

 private:
  MessageLedger& ledger_;
  DeliveryDispatcher& deliveries_;
  FederationOutbound& outbound_;
};

}  // namespace trestle::daemon
