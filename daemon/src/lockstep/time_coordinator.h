// TimeCoordinator: the daemon as the time coordinator of a lockstep run
// (time_mode: lockstep; docs/protocol.md, "Lockstep time"), in the role an
// HLA RTI or a HELICS broker plays. Conservative: nothing is modelled or
// delivered before it is known to be final.
//
// It keeps, per app of the run, its virtual clock (from Sends and Clock
// frames), whether it is blocked in a receive and until when, and the
// deliveries the simulators have posted for it but that are not yet safe;
// per simulator, its lookahead L (between two distinct apps) and Ls (an
// app to itself), its last Grant and how far it has reached. From these, at
// the end of every loop pass in which something changed:
//
//   U  the earliest t_deliver any message not yet posted can still get:
//      reached + 1 for what a simulator has taken in with an answered
//      Grant, t_send + L (or + Ls, to itself) for the rest;
//   G  the bound on any future t_send: the minimum over the apps of the run
//      of their clock (running) or max(clock, min(wake, earliest held, U))
//      (blocked);
//   R  deliveries with t_deliver < R are final: min(U, G + L), and G + 1
//      in a zero-lookahead run once everything is quiet (a delta step).
//      With Ls < L an app is handed only what comes before anything it can
//      still send itself.
//
// A simulator gets Grant{G} once every transit accepted so far is written to
// it (so the Grant follows them on its channel), it has answered its last
// Grant, and G grew or it was given transits since. An app gets what is
// held for it with t_deliver < R in (t_deliver, source id, source sequence)
// order (a platform::DueTimeQueue); a blocked app whose wake time is below
// R and who has nothing before it gets Wake; when every app of the run is
// blocked with no wake time and nothing is anywhere in flight, each gets
// Quiescent (once per block). Determinism follows: what an app is handed,
// and when in virtual time, depends only on the virtual times the apps and
// the model produce.
//
// The run's time starts once lockstep_app_count apps (or the apps named in
// lockstep_app_ids) have said Hello; an app joins at Hello, at the current
// bound, and leaves when its session loses its channels.
//
// Is it hung or slow? With every bound it also keeps who holds G back (the
// app whose time is the minimum, or the simulator whose U it is, or
// transits no simulator has taken), and when G last moved: FillStats says
// so, and CheckStall logs a warning when G has not moved for stall_warn_s
// while some app runs (time_coordinator_holder.cc). With lockstep_app_ids it
// also says which of them have never joined.
//
// Across daemons (federate; docs/federation.md, "Lockstep across daemons")
// this daemon is the run's coordinator, and the apps of peer daemons are
// apps of the run like its own: their peer daemon reports their joins,
// leaves and clocks (OnTimeEntry), their transits come through this
// daemon's stream (OnPeerTransit), what is released for them is handed on
// to their daemon, and Wake and Quiescent go to it as reports (all through
// the LockstepLink). Such an app's blocked report is stale while it has
// seen fewer deliveries than were released to it. The apps of a peer
// daemon whose heartbeat expired leave the run.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "dispatch/delivery_dispatcher.h"
#include "dispatch/transit_dispatcher.h"
#include "lockstep/app_bounds.h"
#include "lockstep/lockstep_link.h"
#include "lockstep/lockstep_sends.h"
#include "lockstep/transit_times.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/platform/due_time_queue.h"

namespace trestle::daemon {

class Session;

class TimeCoordinator final : public TransitObserver,
                              public DeliveryObserver,
                              public LockstepSends,
                              public LockstepCoordinatorEvents {
 public:
  TimeCoordinator(uv_loop_t* loop, const DaemonConfig& config, MessageLedger& ledger,
                  ClientRegistry& apps, const ClientRegistry& sims, TransitDispatcher& transits,
                  DeliveryDispatcher& deliveries);

  // Apps. Join at Hello: returns the virtual time the app starts at (the
  // run's bound; 0 before the run's time starts).
  std::uint64_t Join(Session& app);
  void Leave(Session& app);
  void OnClock(Session& app, const wire::Clock& clock);

  // Federated: reports to the apps of peer daemons, and their deliveries,
  // go through `link` (which must outlive the coordinator).
  void SetLink(LockstepLink* link) { link_ = link; }

  // Simulators. The lookaheads from its Hello.
  void OnSimReady(Session& sim, std::uint64_t lookahead_ns, std::uint64_t self_lookahead_ns);
  void OnSimDetached(Session& sim);
  void OnReached(Session& sim, const wire::Reached& reached);

  // LockstepSends.
  absl::Status OnSend(Session& app, std::uint64_t t_send) override;
  std::uint64_t ClockOf(Session& app) override;
  void OnAdmitted(const MessageRecord& r) override;
  void OnDiscarded(const MessageRecord& r) override;

  // LockstepCoordinatorEvents: join, leave and clock reports of peers' apps.
  void OnTimeEntry(const TimeEntry& entry) override;
  void OnPeerTransit(const MessageRecord& r) override;
  // A peer daemon whose heartbeat expired: its apps leave the run, so that
  // the others go on without them.
  void OnLiveDaemons(std::span<const std::uint32_t> alive, std::uint64_t as_of_ms) override;
  // The simulator posted its outcome: `r` is held until safe, then handed
  // to the DeliveryDispatcher (a delivery for r.dst, or a drop report for
  // r.src when `drop_report`). A DROPPED outcome without a report is only
  // forgotten here (`hold` false).
  void OnPosted(MessageRecord& r, bool hold, bool drop_report);

  // TransitObserver, DeliveryObserver.
  void OnTransitWritten(std::uint32_t sim, MessageRecord& r) override;
  void OnTransitRequeued(MessageRecord& r) override;
  void OnDeliveryWritten(std::uint32_t app, const MessageRecord& r) override;

  // Registry indices freed or given back (as the dispatchers).
  void ForgetApp(std::uint32_t app) {
    if (app >= app_time_.size()) return;
    app_time_[app] = AppTime(app, apps_);
    bounds_.Forget(app);
  }
  void ForgetSim(std::uint32_t sim) {
    if (sim < sim_time_.size()) sim_time_[sim] = SimTime();
  }

  // Recomputes the bounds and sends what became due (grants, deliveries,
  // wakes, quiescence). Once per loop pass while pending().
  void Advance();
  bool pending() const { return dirty_; }
  // From housekeeping: a warning, at most once per stall_warn_s, while G
  // has not moved for that long and the run is not quiescent (an app runs,
  // or a simulator holds transits).
  void CheckStall(std::uint64_t now_ms);

  // For reports and tests.
  bool started() const { return started_; }
  std::uint64_t bound_ns() const { return bound_; }
  std::uint64_t safe_before_ns() const { return safe_before_; }
  void FillStats(wire::LockstepStats* stats) const;

 private:
  // Sources are app indices, in the order of their client ids.
  struct ByClientId {
    const ClientRegistry* apps = nullptr;
    bool operator()(std::uint64_t a, std::uint64_t b) const {
      return apps->at(static_cast<std::uint32_t>(a)).id <
             apps->at(static_cast<std::uint32_t>(b)).id;
    }
  };
  struct Held {
    std::uint64_t id = 0;
    bool drop_report = false;
  };
  // Keyed (t_deliver, source app, the id's low 32 bits: its source sequence).
  using HeldQueue = platform::DueTimeQueue<Held, ByClientId>;
  // What an app last told the coordinator.
  enum class Report : std::uint8_t { kJoined, kSent, kRunning, kBlocked };
  struct AppTime {
    AppTime(std::uint32_t app, const ClientRegistry& apps) : index(app), held(ByClientId{&apps}) {}
    std::uint32_t index = 0;  // its registry index
    bool joined = false;
    bool blocked = false;
    bool quiescent_sent = false;
    std::uint64_t clock = 0;
    std::optional<std::uint64_t> wake;
    std::uint64_t seen_seq = 0;
    std::uint64_t block = 0;  // of the last blocked Clock
    std::uint64_t last_released = 0;      // id; 0 = none
    std::uint64_t last_released_seq = 0;  // its delivery_seq once written; 0 = not yet
    Session* session = nullptr;
    HeldQueue held;
    // An app of a peer daemon: its daemon, the deliveries released to it,
    // and those it had seen at its last report.
    bool remote = false;
    std::uint32_t daemon = 0;
    std::uint64_t released = 0;
    std::uint64_t taken = 0;
    std::uint64_t joined_ms = 0;  // loop time of its join
    Report report = Report::kJoined;  // its last report, at loop time report_ms
    std::uint64_t report_ms = 0;
  };
  struct SimTime {
    Session* session = nullptr;
    std::uint64_t lookahead = 0;
    std::uint64_t self_lookahead = 0;
    bool outstanding = false;  // a Grant not yet answered
    bool answered = false;     // some Grant was answered
    bool delta = false;        // a Grant to `granted` was a delta step
    std::uint64_t granted = 0;  // the last Grant's until_ns
    std::uint64_t reached = 0;  // valid once answered
    std::uint32_t grants_sent = 0;
    std::uint64_t granted_ms = 0;  // loop time of the last Grant
    TransitTimes since_grant;   // written since the last Grant
    TransitTimes before_grant;  // written before the outstanding Grant
  };
  // The smallest of the simulators': between two apps, and to itself.
  struct Lookaheads {
    std::uint64_t between = 0;
    std::uint64_t self = 0;
  };

  AppTime& AppAt(std::uint32_t app);
  // `a`'s terms changed: its place in bounds_ follows.
  void Touch(const AppTime& a);
  // Apps whose last release is not yet written may stop being stale when
  // its record goes (the store lost it): looked at again every pass.
  void RecheckStale();
  // Join / Leave of app `app`; `session` null for an app of a peer daemon.
  std::uint64_t JoinApp(std::uint32_t app, Session* session, std::uint32_t daemon);
  void LeaveApp(std::uint32_t app);
  void ClockOf(AppTime& a, const wire::Clock& clock);
  void Sent(AppTime& a, std::uint64_t t_send);
  // Wake / Quiescent to `a`, the frame in frame_ (its report for a peer's app).
  void Tell(AppTime& a, std::uint32_t app);
  SimTime& SimAt(std::uint32_t sim);
  // The app's blocked report predates a delivery it was handed since.
  bool Stale(const AppTime& a) const;
  void Forget(SimTime& s, const MessageRecord& r);
  static bool ToItself(const MessageRecord& r) { return r.src == r.dst; }
  Lookaheads Lookahead() const;
  // Who holds G back: an app or a simulator (by index), or transits not yet
  // written to any simulator.
  struct Holder {
    enum class Kind : std::uint8_t { kNone, kApp, kSim, kUnwritten } kind = Kind::kNone;
    std::uint32_t index = 0;
  };
  // U, and in `source` (if not null) what it comes from.
  std::uint64_t EarliestUnposted(Lookaheads l, Holder* source = nullptr) const;
  // G moved to `g` (or not) at loop time `now_ms`, held back by `holder`.
  void Bound(std::uint64_t g, Holder holder, std::uint64_t now_ms);
  // The holder's name and role, and what it is doing, in words.
  void DescribeHolder(wire::LockstepStats* stats, std::uint64_t now_ms) const;
  std::string AppState(const AppTime& a, std::uint64_t now_ms) const;
  std::string SimState(std::uint32_t sim, std::uint64_t now_ms) const;
  // Not quiescent: some app runs, or some transit waits for a simulator.
  bool Busy() const;
  bool AllBlocked() const;
  bool Quiet() const;
  void Grant(SimTime& s, std::uint64_t until, bool delta);
  // Below R: also before anything `a` can still send itself.
  std::uint64_t ReleaseLimit(const AppTime& a, bool blocked, std::uint64_t r, Lookaheads l) const;
  // Hands `a` what is held for it below `limit`; returns the number handed.
  std::size_t Release(AppTime& a, std::uint64_t limit, std::uint64_t now_ms);
  void MaybeStart();
  void Write(Session* s, wire::Frame& frame);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  MessageLedger& ledger_;
  ClientRegistry& apps_;
  const ClientRegistry& sims_;
  TransitDispatcher& transits_;
  DeliveryDispatcher& deliveries_;
  LockstepLink* link_ = nullptr;
  TimeEntry report_;  // Tell's scratch
  std::vector<AppTime> app_time_;  // by app client index
  AppBounds bounds_;               // their terms, in order
  std::vector<std::uint32_t> stale_watch_;  // apps RecheckStale looks at
  std::vector<std::uint32_t> due_;          // Advance's scratch
  std::vector<SimTime> sim_time_;  // by sim client index
  TransitTimes unwritten_;  // admitted transits not with a simulator
  std::uint64_t joined_ = 0;
  absl::flat_hash_set<std::string> never_joined_;  // of config_.lockstep_app_ids
  std::uint64_t bound_ = 0;        // G, as last computed (never decreases)
  std::uint64_t safe_before_ = 0;  // R, as last computed
  bool started_ = false;
  bool dirty_ = false;
  Holder holder_;
  std::uint64_t bound_moved_ms_ = 0;  // loop time G last grew (or the run started)
  std::uint64_t stall_warned_ms_ = 0;  // loop time of the last stall warning
  wire::LockstepStats counts_;  // the frame counters of FillStats
  wire::Frame frame_;
};

}  // namespace trestle::daemon
