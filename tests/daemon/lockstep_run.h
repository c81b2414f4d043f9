// LockstepRun: a TimeCoordinator wired as the DataPlane wires it, for its
// unit tests: the real TransitDispatcher and DeliveryDispatcher, observed by
// it, the in-memory store, fake channels (test_session.h) on a private loop
// (test_loop.h); no sockets. A test joins apps, sends, reports clocks, has
// a simulator post outcomes and Reached, runs the pumps as the DataPlane's
// RunPumps does (the coordinator last), and reads back what the coordinator
// wrote: Grants on the simulator's channel, deliveries, drop reports, Wake
// and Quiescent on each app's, in the order written.
//
// Apps are named by client id; "#n" below is a message's source sequence
// (its id's low 32 bits).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "clock_frame.h"
#include "dispatch/delivery_budget.h"
#include "dispatch/delivery_dispatcher.h"
#include "dispatch/simulator_assignment.h"
#include "dispatch/transit_dispatcher.h"
#include "fake_session_closer.h"
#include "lockstep/time_coordinator.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "store/in_memory_payload_store.h"
#include "test_loop.h"
#include "test_session.h"

namespace trestle::daemon {

class LockstepRun {
 public:
  explicit LockstepRun(DaemonConfig config = {}) : config_(std::move(config)) {
    transits_.SetObserver(&time_);
    deliveries_.SetObserver(&time_);
  }

  // App `id` says Hello and is ready: returns the time it starts at.
  std::uint64_t Join(std::string_view id) {
    auto& s = apps_by_id_[std::string(id)];
    s = std::make_unique<TestSession>(
        loop_.get(), apps_, id, TestSessionOptions{.id_prefix = ++sessions_});
    const std::uint64_t start = time_.Join(**s);
    deliveries_.OnAppReady(**s);
    return start;
  }
  // App `id` loses its session (a Bye, or a lost connection).
  void Leave(std::string_view id) {
    TestSession& s = App(id);
    s.Detach();
    transits_.OnAppDetached(*s);
    deliveries_.OnAppDetached(*s);
    time_.Leave(*s);
  }
  // The simulator says Hello with lookaheads L and Ls and is ready.
  void SimReady(std::uint64_t lookahead_ns, std::uint64_t self_lookahead_ns,
                wire::DeliveryMode mode = wire::PUSH) {
    sim_ = std::make_unique<TestSession>(loop_.get(), sims_, "sim",
                                         TestSessionOptions{.role = wire::ROLE_SIM, .mode = mode});
    transits_.OnSimReady(**sim_, 0);
    time_.OnSimReady(**sim_, lookahead_ns, self_lookahead_ns);
  }

  // The simulator loses its channels: its transits go back to the queue.
  void SimDetached() {
    sim_->Detach();
    transits_.OnSimDetached(**sim_);
    time_.OnSimDetached(**sim_);
  }

  // A Send from `src` to `dst` (here, or an app of a peer daemon that has
  // joined the run) at `t_send`, admitted as SendAdmission does;
  // returns its id. A Send the coordinator refuses fails the test.
  std::uint64_t Send(std::string_view src, std::string_view dst, std::uint64_t t_send,
                     bool notify_drop = false) {
    TestSession& s = App(src);
    const std::uint64_t id = s->NextId();
    const absl::Status in_time = time_.OnSend(*s, t_send);
    EXPECT_TRUE(in_time.ok()) << in_time;
    const ClientEntry* to = apps_.Find(dst);  // here, or an app of a peer daemon
    EXPECT_NE(to, nullptr) << "no app '" << dst << "'";
    if (to == nullptr) return id;
    MessageRecord* r = ledger_.Open(id, s.client(), to->index);
    EXPECT_NE(r, nullptr) << "id " << id;
    if (r == nullptr) return id;
    r->t_send = t_send;
    r->notify_drop = notify_drop;
    time_.OnAdmitted(*r);
    store_.Put(id, "payload", [](const absl::Status& status) { EXPECT_TRUE(status.ok()); });
    ledger_.Accept(*r);
    transits_.Enqueue(*r);
    return id;
  }
  void Clock(std::string_view app, std::uint64_t now_ns, bool blocked,
             std::optional<std::uint64_t> wake_ns = std::nullopt, std::uint64_t block = 0,
             std::uint64_t seen_delivery_seq = 0) {
    time_.OnClock(*App(app), ClockFrame(now_ns, blocked, wake_ns, block, seen_delivery_seq));
  }

  // The simulator's outcome for transit `id`, as DataPlane::OnOutcomes and
  // CoordinatedOutcomes route it.
  void Deliver(std::uint64_t id, std::uint64_t t_deliver) {
    MessageRecord* r = Released(id, t_deliver);
    if (r != nullptr) time_.OnPosted(*r, /*hold=*/true, /*drop_report=*/false);
  }
  void Drop(std::uint64_t id, std::uint64_t t_deliver) {
    MessageRecord* r = Released(id, t_deliver);
    if (r == nullptr) return;
    store_.Erase(id);
    ledger_.Dropped(*r);
    time_.OnPosted(*r, /*hold=*/r->notify_drop, /*drop_report=*/true);
    if (!r->notify_drop) ledger_.Erase(id);
  }
  // A PULL simulator's Fetch, answered at once with what is queued.
  void Fetch() {
    wire::Fetch fetch;
    fetch.set_max_count(100);
    fetch.set_timeout_ms(0);
    transits_.OnFetch(**sim_, fetch);
  }
  void Reached(std::uint64_t reached_ns, std::uint64_t grant_ns) {
    wire::Reached reached;
    reached.set_reached_ns(reached_ns);
    reached.set_grant_ns(grant_ns);
    time_.OnReached(**sim_, reached);
  }

  // The DataPlane's RunPumps: until the dispatchers and the coordinator settle.
  void Pump() {
    while (transits_.pump_pending() || deliveries_.pump_pending() || time_.pending()) {
      transits_.Pump();
      deliveries_.Pump();
      if (time_.pending()) time_.Advance();
    }
  }

  // Every Grant's until_ns written to the simulator so far, in order.
  std::vector<std::uint64_t> Grants() const {
    std::vector<std::uint64_t> grants;
    for (const wire::Frame& f : sim_->recv().frames()) {
      if (f.has_grant()) grants.push_back(f.grant().until_ns());
    }
    return grants;
  }
  // What was written to app `id` so far, in order: "a#1 at 15" (a delivery
  // from a), "dropped #1 at 15" (a drop report), "wake 40 (block 1)",
  // "quiescent (block 3)".
  std::vector<std::string> Events(std::string_view id) {
    std::vector<std::string> events;
    for (const wire::Frame& f : App(id).recv().frames()) {
      for (const wire::Delivery& d : f.deliveries().deliveries()) {
        const std::uint64_t seq = d.id() & 0xffffffffu;
        events.push_back(d.status() == wire::DROPPED
                             ? absl::StrCat("dropped #", seq, " at ", d.t_deliver())
                             : absl::StrCat(d.src(), "#", seq, " at ", d.t_deliver()));
      }
      if (f.has_wake()) {
        events.push_back(absl::StrCat("wake ", f.wake().wake_ns(), " (block ", f.wake().block(),
                                      ")"));
      }
      if (f.has_quiescent()) {
        events.push_back(absl::StrCat("quiescent (block ", f.quiescent().block(), ")"));
      }
    }
    return events;
  }
  // The highest delivery_seq written to app `id` (what its next Clock has seen).
  std::uint64_t LastDeliverySeq(std::string_view id) {
    return deliveries_.last_delivery_seq(App(id).client());
  }

  TestSession& App(std::string_view id) {
    auto it = apps_by_id_.find(std::string(id));
    EXPECT_NE(it, apps_by_id_.end()) << "no app '" << id << "' joined";
    return *it->second;
  }
  TestSession& sim() { return *sim_; }
  TimeCoordinator& time() { return time_; }
  uv_loop_t* loop() { return loop_.get(); }

 private:
  MessageRecord* Released(std::uint64_t id, std::uint64_t t_deliver) {
    MessageRecord* r = transits_.Release(**sim_, id);
    EXPECT_NE(r, nullptr) << "the simulator does not hold transit " << id;
    if (r != nullptr) r->t_deliver = t_deliver;
    return r;
  }

  TestLoop loop_;
  DaemonConfig config_;
  ClientRegistry apps_;
  ClientRegistry sims_;
  MessageLedger ledger_{apps_};
  InMemoryPayloadStore store_;
  DeliveryBudget budget_{1u << 30, [](bool) {}};
  FakeSessionCloser closer_;
  SimulatorAssignment assignment_{SimAssignment::kSystem};
  TransitDispatcher transits_{config_, ledger_, apps_, assignment_};
  DeliveryDispatcher deliveries_{loop_.get(), config_, ledger_, apps_, store_, budget_, closer_};
  TimeCoordinator time_{loop_.get(), config_, ledger_, apps_, sims_, transits_, deliveries_};
  std::uint64_t sessions_ = 0;
  // Destroyed before the coordinator and the dispatchers that point at them.
  std::unique_ptr<TestSession> sim_;
  std::map<std::string, std::unique_ptr<TestSession>> apps_by_id_;
};

}  // namespace trestle::daemon
