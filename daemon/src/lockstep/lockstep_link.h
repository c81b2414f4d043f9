// The seam between lockstep time and the federation (docs/federation.md,
// "Lockstep across daemons"). The run's coordinator (the daemon of its
// simulator) and the peer daemons that stand in for their apps talk in
// TimeEntry reports, through each other's streams:
//
//   LockstepLink         what they ask of the bridge (the FederationRouter):
//                        send a report, deliver a released message or drop
//                        report;
//   LockstepPeerEvents   what the bridge tells either of them: the reports
//                        that came; LockstepCoordinatorEvents adds what only
//                        the coordinator hears (peers' transits, the daemons
//                        alive), LockstepRelayEvents what only a peer hears
//                        (its transits handed on).
//
// Loop thread only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "lockstep/time_entry.h"
#include "messages/message_table.h"

namespace trestle::daemon {

class LockstepLink {
 public:
  // Appends `entry` to daemon `daemon`'s stream. Reports go in the order
  // given, and after every transit handed on before them.
  virtual void SendTimeEntry(std::uint32_t daemon, const TimeEntry& entry) = 0;
  // A delivery the coordinator released: handed on to `daemon` (where its
  // app joined the run), or without one to wherever its app is (this
  // daemon's delivery queue if it is here).
  virtual void Deliver(MessageRecord& r, std::optional<std::uint32_t> daemon) = 0;
  // A drop report the coordinator released for a sender that joined the
  // run on daemon `daemon` (another one): handed on to it.
  virtual void DeliverDropReport(MessageRecord& r, std::uint32_t daemon) = 0;

 protected:
  ~LockstepLink() = default;
};

class LockstepPeerEvents {
 public:
  // A report from daemon entry.from.
  virtual void OnTimeEntry(const TimeEntry& entry) = 0;

 protected:
  ~LockstepPeerEvents() = default;
};

// The run's coordinator (TimeCoordinator).
class LockstepCoordinatorEvents : public LockstepPeerEvents {
 public:
  // The transit of an app of a peer daemon, taken in from this daemon's
  // stream (before it queues for the simulator).
  virtual void OnPeerTransit(const MessageRecord& r) = 0;
  // The daemons alive (ascending) as of loop time `as_of_ms`, from a
  // heartbeat sent then: the apps of a daemon not among them leave the run.
  virtual void OnLiveDaemons(std::span<const std::uint32_t> alive, std::uint64_t as_of_ms) = 0;

 protected:
  ~LockstepCoordinatorEvents() = default;
};

// A peer daemon of the run (LockstepRelay).
class LockstepRelayEvents : public LockstepPeerEvents {
 public:
  // The transit of an app here went to the coordinator's stream (its append
  // is issued), or will not (it ended first).
  virtual void OnTransitHandedOn(const MessageRecord& r) = 0;

 protected:
  ~LockstepRelayEvents() = default;
};

}  // namespace trestle::daemon
