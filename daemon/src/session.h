// Session: one client's three channels and the state that belongs to the
// session rather than to the client id: its token and id space, its delivery
// mode, a parked long-poll (PULL), and, for simulators, the transits it holds.
//
// A session is created by Hello, becomes ready when send and recv have
// attached, and ends by Bye, by losing a channel, or at shutdown. An app
// session that lost its channels lingers (resumable) until its deadline.
// Freed only through Destroy(), which closes its timer first.
#pragma once

#include <uv.h>

#include <array>
#include <cstdint>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "trestle.pb.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {

class Connection;

class Session {
 public:
  enum class State { kOpen, kLingering, kEnded };

  Session(uv_loop_t* loop, std::string token, std::uint64_t id_prefix, wire::Role role,
          wire::DeliveryMode mode, std::uint32_t client);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Closes the poll timer and frees the session from its close callback.
  void Destroy();

  bool ready() const { return state == State::kOpen && ctrl && send && recv; }
  bool is_app() const { return role == wire::ROLE_APP; }
  bool is_push() const { return mode != wire::PULL; }
  std::uint64_t NextId() { return (id_prefix << 32) | next_seq++; }

  Connection* channel(wire::Channel c) const;
  Connection** channel_slot(wire::Channel c);

  // Long-polls (PULL): up to wire::kMaxWaitingPolls Fetch or Receive
  // requests wait for work, each until its own deadline; the oldest is
  // answered first. One timer, armed for the earliest deadline, calls
  // `on_timeout` (the relay's), which takes the expired ones.
  bool poll_waiting() const { return polls_waiting_ > 0; }
  bool poll_room() const { return polls_waiting_ < wire::kMaxWaitingPolls; }
  void ParkPoll(std::uint32_t max_count, std::uint64_t timeout_ms, uv_timer_cb on_timeout);
  // Removes the oldest waiting poll; returns its max_count.
  std::uint32_t TakePoll();
  // Removes the polls whose deadline is at or before `now_ms`; returns how many.
  std::uint32_t TakeExpiredPolls(std::uint64_t now_ms);
  void DropPolls();

  const std::string token;
  const std::uint64_t id_prefix;
  const wire::Role role;
  wire::DeliveryMode mode;
  const std::uint32_t client;  // index in the app or sim ClientRegistry
  std::uint64_t next_seq = 1;
  State state = State::kOpen;
  std::uint64_t linger_deadline_ms = 0;

  Connection* ctrl = nullptr;
  Connection* send = nullptr;
  Connection* recv = nullptr;

  // SIM sessions: the queue they serve and the transits they hold.
  std::uint32_t queue = 0;
  absl::flat_hash_set<std::uint64_t> held;

 private:
  struct WaitingPoll {
    std::uint32_t max_count;
    std::uint64_t deadline_ms;
  };
  ~Session() = default;
  void ArmPollTimer();

  uv_timer_t poll_timer_;
  uv_timer_cb on_poll_timeout_ = nullptr;
  std::array<WaitingPoll, wire::kMaxWaitingPolls> polls_{};  // oldest first
  std::uint32_t polls_waiting_ = 0;
};

}  // namespace trestle::daemon
