// Session: one client's session with the daemon. It holds what belongs to
// the session rather than to the client id: its token, its id space, its
// role and delivery mode, the frame limit its peer accepts, its channels, and
// its waiting long-polls (PULL).
//
// Owner: SessionManager, the only class that changes a session's lifecycle
// (channels, state, mode); it is the friend below. The data plane reads a
// session (ready(), channels, mode) and uses its id space and long-polls; it
// keeps its own per-client state in its dispatchers, keyed by client().
//
// A session is created by Hello, becomes ready when send and recv have
// attached, and ends by Bye, by losing a channel, or at shutdown. An app
// session that lost its channels lingers (resumable) until its deadline.
// Freed only through Destroy(), which closes its timer first.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>

#include "net/channel.h"
#include "session/long_polls.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class Session {
 public:
  enum class State { kOpen, kLingering, kEnded };

  struct Params {
    std::string token;
    std::uint64_t id_prefix = 0;  // (daemon id << kSessionBits) | session number
    wire::Role role = wire::ROLE_APP;
    wire::DeliveryMode mode = wire::PUSH;
    std::uint32_t client = 0;            // index in the app or sim ClientRegistry
    std::uint32_t max_frame_bytes = 0;   // the largest frame the peer accepts
    bool delivery_acks = false;          // APP: acknowledges deliveries (Hello)
    // APP: takes payloads by key from the store (Hello.payload_by_key, with
    // delivery_acks: the key must outlive the write until the app's Ack).
    bool payload_by_key = false;
    std::uint64_t lookahead_ns = 0;      // SIM, lockstep: its Hello.lookahead_ns
    std::uint64_t self_lookahead_ns = 0;  // SIM, lockstep: Hello.self_lookahead_ns, else lookahead_ns
    // SIM: Hello.capabilities, passed on to apps unread (Welcome.simulators).
    wire::SimulatorCapabilities capabilities;
  };

  Session(uv_loop_t* loop, Params params);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& token() const { return params_.token; }
  std::uint64_t id_prefix() const { return params_.id_prefix; }
  wire::Role role() const { return params_.role; }
  bool is_app() const { return params_.role == wire::ROLE_APP; }
  wire::DeliveryMode mode() const { return params_.mode; }
  bool is_push() const { return params_.mode != wire::PULL; }
  std::uint32_t client() const { return params_.client; }
  // Frames the daemon writes to this session stay within this many bytes.
  std::uint32_t max_frame_bytes() const { return params_.max_frame_bytes; }
  // The app acknowledges deliveries: they count as delivered at its Ack.
  bool delivery_acks() const { return params_.delivery_acks; }
  // A message sent by key reaches the app as its key (Delivery.by_key).
  bool payload_by_key() const { return params_.payload_by_key; }
  std::uint64_t lookahead_ns() const { return params_.lookahead_ns; }
  std::uint64_t self_lookahead_ns() const { return params_.self_lookahead_ns; }
  const wire::SimulatorCapabilities& capabilities() const { return params_.capabilities; }

  // The id of the next Send read on this session: (id_prefix << 32) | n.
  std::uint64_t NextId() { return (params_.id_prefix << 32) | next_seq_++; }
  std::uint64_t next_seq() const { return next_seq_; }

  State state() const { return state_; }
  bool ready() const { return state_ == State::kOpen && ctrl_ && send_ && recv_; }
  Channel* ctrl() const { return ctrl_; }
  Channel* send() const { return send_; }
  Channel* recv() const { return recv_; }
  LongPolls& polls() { return polls_; }

  // Unit tests of the data plane give a session fake channels.
  void SetChannelsForTest(Channel* ctrl, Channel* send, Channel* recv) {
    ctrl_ = ctrl;
    send_ = send;
    recv_ = recv;
  }
  static Session* NewForTest(uv_loop_t* loop, Params params) { return new Session(loop, std::move(params)); }
  void DestroyForTest() { Destroy(); }

 private:
  friend class SessionManager;
  ~Session() = default;
  // Closes the poll timer and frees the session from its close callback.
  void Destroy();
  Channel*& slot(wire::Channel channel);

  Params params_;
  std::uint64_t next_seq_ = 1;
  State state_ = State::kOpen;
  std::uint64_t linger_deadline_ms_ = 0;
  Channel* ctrl_ = nullptr;
  Channel* send_ = nullptr;
  Channel* recv_ = nullptr;
  LongPolls polls_;
};

}  // namespace trestle::daemon
