// internal::DeliveryAcks: the app side of delivery acknowledgements
// (docs/protocol.md, "Delivery acknowledgements"). It tells a delivery seen
// before (one the daemon wrote again after a reconnect: its delivery_seq is
// not above the highest seen) from a new one, and acknowledges what was
// taken off the wire with one cumulative Ack per loop pass, just before the
// loop sleeps, never one per message. A delivery that comes again is
// acknowledged again: the daemon wrote it because it had not heard.
//
// Loop thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "trestle/event_loop.h"

namespace trestle::internal {

class Session;

class DeliveryAcks final : public LoopPassHook {
 public:
  // `current_session` names the client's session at the time of asking
  // (null when there is none); acknowledgements go to it.
  DeliveryAcks(EventLoop& loop, std::function<Session*()> current_session)
      : loop_(loop), current_session_(std::move(current_session)) {}
  ~DeliveryAcks();
  DeliveryAcks(const DeliveryAcks&) = delete;
  DeliveryAcks& operator=(const DeliveryAcks&) = delete;

  // A delivery numbered `delivery_seq` arrived: true if it is new (to be
  // handed to the app), false if it was seen before. 0 (a daemon that does
  // not number deliveries) is always new.
  bool Take(std::uint64_t delivery_seq);
  // A session that is not a resume of the last one starts a new numbering.
  void Reset();
  // Writes the pending acknowledgement now (before a Bye), not when the
  // loop next sleeps.
  void Flush();
  std::uint64_t highest_seen() const { return highest_seen_; }

 private:
  void BeforeLoopSleeps() override;

  EventLoop& loop_;
  std::function<Session*()> current_session_;
  std::uint64_t highest_seen_ = 0;
  std::uint64_t highest_acked_ = 0;
  bool resend_ack_ = false;  // a delivery came again: acknowledge again
  bool scheduled_ = false;
};

}  // namespace trestle::internal
