// LockstepRelay: a peer daemon's part in a lockstep run spread over several
// daemons (federate; docs/federation.md, "Lockstep across daemons"). The
// run's TimeCoordinator is on another daemon, the coordinator (the one of
// the simulator); this daemon computes no bounds and stands in for its
// lockstep apps towards it, through the LockstepLink:
//
//   - an app's Hello is reported (join), and its Welcome waits for the
//     coordinator's answer: the virtual time it starts at (OnJoined); a join
//     not answered within join_timeout_ms closes the session, naming the
//     coordinator (Housekeeping);
//   - its Clock reports go on (clock), each after every transit of that app
//     accepted before it is handed on to the coordinator (a report that
//     came earlier waits: of clocks in a row, the latest is kept), so the coordinator never
//     sees a clock that covers a send it has not got; with the report goes
//     how many deliveries the app had seen (`taken`);
//   - its departure is reported (leave), after its transits as well;
//   - the coordinator's Wake and Quiescent reports become frames to the app.
//
// Deliveries come as delivery entries, once the coordinator released them;
// they are written here as any other.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include <uv.h>

#include "absl/container/flat_hash_set.h"
#include "dispatch/delivery_dispatcher.h"
#include "lockstep/lockstep_link.h"
#include "lockstep/lockstep_sends.h"
#include "messages/client_registry.h"
#include "session/session_closer.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class Session;

class LockstepRelay final : public LockstepSends,
                            public LockstepRelayEvents,
                            public DeliveryObserver {
 public:
  // The coordinator answered app `app`'s join: it starts at `start_ns`.
  using JoinedCallback = std::function<void(Session& app, std::uint64_t start_ns)>;

  // How long a join waits for the coordinator's answer (the SDK's connect
  // timeout is 5 s by default).
  static constexpr std::uint64_t kJoinTimeoutMs = 3'000;

  LockstepRelay(uv_loop_t* loop, const DaemonConfig& config, ClientRegistry& apps,
                SessionCloser& closer);

  void SetLink(LockstepLink* link) { link_ = link; }
  void OnJoined(JoinedCallback callback) { on_joined_ = std::move(callback); }

  // Hello of a lockstep app: the time it starts at if it is in the run
  // already (a resumed session); otherwise nullopt, and OnJoined follows
  // once the coordinator answers.
  std::optional<std::uint64_t> Join(Session& app);
  void Leave(Session& app);
  void OnClock(Session& app, const wire::Clock& clock);
  // Closes the sessions whose join the coordinator has not answered in time.
  void Housekeeping(std::uint64_t now_ms);

  // LockstepSends.
  absl::Status OnSend(Session& app, std::uint64_t t_send) override;
  std::uint64_t ClockOf(Session& app) override;
  void OnAdmitted(const MessageRecord& r) override;
  void OnDiscarded(const MessageRecord& r) override { OnTransitHandedOn(r); }

  // LockstepRelayEvents: the coordinator's answers, and transits that left.
  void OnTimeEntry(const TimeEntry& entry) override;
  void OnTransitHandedOn(const MessageRecord& r) override;

  // DeliveryObserver: counts what each app is handed.
  void OnDeliveryWritten(std::uint32_t app, const MessageRecord& r) override;

  // The registry index `app` was freed.
  void ForgetApp(std::uint32_t app) {
    if (app < apps_time_.size()) apps_time_[app] = AppState();
  }

 private:
  struct AppState {
    Session* session = nullptr;
    bool joining = false;  // join reported, not answered yet
    std::uint64_t join_ms = 0;  // loop time of the join
    bool joined = false;
    std::uint64_t clock = 0;
    std::uint32_t unsent = 0;           // its transits not yet handed on
    std::vector<TimeEntry> deferred;    // the reports that wait for them
    std::deque<std::uint64_t> unseen;   // delivery_seq written, not yet seen
    std::uint64_t last_written = 0;     // the last delivery_seq written
    std::uint64_t taken = 0;            // deliveries the app has seen
  };

  AppState& At(std::uint32_t app);
  // Sends `e` for app `app`, or keeps it until its transits are handed on.
  void Report(std::uint32_t app, TimeEntry e);
  void Write(Session* s);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  ClientRegistry& apps_;
  SessionCloser& closer_;
  LockstepLink* link_ = nullptr;
  JoinedCallback on_joined_;
  std::vector<AppState> apps_time_;  // by app registry index
  absl::flat_hash_set<std::uint64_t> unsent_ids_;  // transits not yet handed on
  wire::Frame frame_;
};

}  // namespace trestle::daemon
