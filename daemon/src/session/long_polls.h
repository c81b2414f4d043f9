// LongPolls: the PULL requests (Fetch or Receive) a session has waiting. Up
// to wire::kMaxWaitingPolls wait at once, each until its own deadline; the
// oldest is answered first. One timer, armed for the earliest deadline,
// hands the expired ones to the handler given at Park (the dispatcher that
// answers them with an empty batch).
//
// Owned by its Session; freed only through Close(), whose timer close
// callback the session waits for. Loop thread only.
#pragma once

#include <uv.h>

#include <array>
#include <cstdint>

#include "trestle/wire/frame_format.h"

namespace trestle::daemon {

class Session;

class LongPolls {
 public:
  // Answers polls that timed out; `count` of them expired at once.
  class TimeoutHandler {
   public:
    virtual void OnPollsExpired(Session& session, std::uint32_t count) = 0;

   protected:
    ~TimeoutHandler() = default;
  };

  LongPolls(uv_loop_t* loop, Session& session);
  LongPolls(const LongPolls&) = delete;
  LongPolls& operator=(const LongPolls&) = delete;

  bool waiting() const { return waiting_ > 0; }
  bool room() const { return waiting_ < wire::kMaxWaitingPolls; }
  // Parks a request for up to `max_count` items. Requires room().
  void Park(std::uint32_t max_count, std::uint64_t timeout_ms, TimeoutHandler* handler);
  // Removes the oldest waiting poll; returns its max_count (0 if none).
  std::uint32_t Take();
  // Forgets every waiting poll (the session lost its channels).
  void Drop();
  // Closes the timer; `on_closed` runs from its close callback, with the
  // handle's data pointing at this LongPolls.
  void Close(uv_close_cb on_closed);
  Session& session() const { return session_; }

 private:
  struct Waiting {
    std::uint32_t max_count;
    std::uint64_t deadline_ms;
  };
  static void OnTimer(uv_timer_t* timer);
  void Arm();

  Session& session_;
  uv_timer_t timer_;
  TimeoutHandler* handler_ = nullptr;
  std::array<Waiting, wire::kMaxWaitingPolls> polls_{};  // oldest first
  std::uint32_t waiting_ = 0;
};

}  // namespace trestle::daemon
