// LockstepSends: what the SendAdmission asks of lockstep time about an app's
// sends: the run's TimeCoordinator, or on a peer daemon of a federated run
// the LockstepRelay that stands in for it. Loop thread only.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "messages/message_table.h"

namespace trestle::daemon {

class Session;

class LockstepSends {
 public:
  // A Send at `t_send`: FailedPrecondition naming both times if it is below
  // the app's clock; otherwise the clock moves to it.
  virtual absl::Status OnSend(Session& app, std::uint64_t t_send) = 0;
  // The app's clock as lockstep time has it (what it reported, sent, or
  // was handed while blocked).
  virtual std::uint64_t ClockOf(Session& app) = 0;
  // Admitted (before the store has the payload) / refused after admission.
  virtual void OnAdmitted(const MessageRecord& r) = 0;
  virtual void OnDiscarded(const MessageRecord& r) = 0;

  // OnSend's verdict for a Send at `t_send` by an app at `clock`.
  static absl::Status CheckSendTime(std::uint64_t t_send, std::uint64_t clock) {
    if (t_send >= clock) return absl::OkStatus();
    return absl::FailedPreconditionError(
        absl::StrCat("Send.t_send ", t_send, " ns is before the app's clock, ", clock,
                     " ns: in lockstep time a Send carries the app's Now()"));
  }

 protected:
  ~LockstepSends() = default;
};

}  // namespace trestle::daemon
