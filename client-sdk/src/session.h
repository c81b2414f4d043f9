// internal::Session: one client's session with the daemon over three
// connections (ctrl, send, recv). It runs the handshake (resolve, connect
// ctrl, Hello -> Welcome, connect send and recv, Attach -> Attached), then
// routes frames: ctrl replies (Pong, StatsReply) are kept for the blocking
// calls in Client, recv frames and Error frames go to the Listener.
// The handshake is in session_handshake.cc, the connections (one per
// channel, or one shared) in session_connection.h.
//
// Asynchronous only: nothing here runs the loop. Not thread-safe; everything
// runs on the loop's thread. Connections outlive the Session if it is
// destroyed while they close: they are handed to an orphan handler that
// frees them from their close callback.
#pragma once

#include <netdb.h>
#include <sys/socket.h>
#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "daemon_address.h"
#include "keepalive.h"
#include "trestle.pb.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"
#include "trestle/platform/uv_handle.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::internal {

class Session final : private wire::FramedStream::Handler {
 public:
  class Listener {
   public:
    // Both data channels are attached.
    virtual void OnSessionReady(const wire::Welcome& welcome) = 0;
    // A frame on the recv channel of a ready session.
    virtual void OnRecvFrame(wire::Frame& frame) = 0;
    // An Error frame on a ready session.
    virtual void OnChannelError(wire::Channel channel, const wire::Error& error) = 0;
    // The ready session ended without Bye (connection lost or broken).
    virtual void OnSessionLost(const absl::Status& status) = 0;

   protected:
    ~Listener() = default;
  };

  enum class State {
    kIdle,        // Start not called yet
    kConnecting,  // handshake in progress
    kReady,       // both data channels attached
    kClosing,     // Bye sent, waiting for the daemon to close
    kClosed,      // ended; end_status() says why
  };

  Session(EventLoop& loop, const ClientOptions& options, wire::Role role, Listener* listener);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() override;

  // Starts the handshake. On an immediate error returns it and `done` never
  // runs; otherwise `done` runs once from the loop with the outcome.
  absl::Status Start(std::function<void(absl::Status)> done);

  State state() const { return state_; }
  bool ready() const { return state_ == State::kReady; }
  // Why the session is closed (or FailedPrecondition if never started).
  absl::Status end_status() const;
  const wire::Welcome& welcome() const { return welcome_; }
  const std::string& address_text() const { return options_.daemon; }

  // The data channels; only valid while ready() (or closing).
  wire::FramedStream* send_stream();
  wire::FramedStream* recv_stream();

  // Writes Receive (APP) or Fetch (SIM) on recv; false when not ready. The
  // daemon lets wire::kMaxWaitingPolls of them wait at once.
  bool WritePullRequest(std::uint32_t max_count, std::uint32_t timeout_ms);
  bool pull_outstanding() const { return pulls_outstanding_ > 0; }
  // Backpressure from the client's own buffers: PauseRecv stops reading the
  // recv channel at a frame boundary, so the daemon holds further work;
  // ResumeRecv reads again (and may hand buffered frames to the listener at
  // once). A new session starts reading.
  void PauseRecv();
  void ResumeRecv();
  // Callback modes: tops the requests up to wire::kMaxWaitingPolls, so one
  // waits at the daemon while the other's answer travels.
  void KeepPullsOutstanding(std::uint32_t max_count, std::uint32_t timeout_ms);

  // Ping: StartPing writes Ping and forgets earlier ones; ping_done() turns
  // true when the matching Pong arrives.
  void StartPing();
  // A Ping with nonce 0, for Keepalive: its Pong only counts as hearing.
  void WriteKeepalivePing();
  bool ping_done() const { return ping_done_; }
  std::uint64_t ping_rtt_ns() const { return ping_rtt_ns_; }

  // Stats: replies arrive in request order, so only the reply to the latest
  // request completes it (a timed-out request's late reply is skipped). One
  // page of clients per request, from `first_client` (StatsReply.next_client).
  void RequestStats(std::uint64_t first_client = 0);
  bool stats_done() const { return stats_done_; }
  wire::StatsReply TakeStats() { return std::move(stats_); }

  // Writes Bye; the session is kClosing until the daemon closes ctrl (then
  // kClosed) or Abort() is called.
  void SendBye();
  // Closes every connection now, without Bye; state becomes kClosed with
  // `why` as end status. Calls no listener method; a pending connect
  // callback runs with `why`.
  void Abort(const absl::Status& why);

 private:
  struct Connection;     // session_connection.h
  class OrphanHandler;   // session_connection.h

  // FramedStream::Handler
  void OnFrame(wire::FramedStream& stream, wire::Frame& frame) override;
  void OnStreamError(wire::FramedStream& stream, std::string_view what) override;
  void OnPeerClosed(wire::FramedStream& stream) override;
  void OnClosed(wire::FramedStream& stream) override;

  static void OnResolved(uv_getaddrinfo_t* req, int status, addrinfo* res);
  static void OnConnected(uv_connect_t* req, int status);
  static void OnConnectTimeout(uv_timer_t* timer);

  int OpenChannel(wire::Channel channel);
  void HandleConnected(Connection* conn, int status);
  void HandleCtrlFrame(wire::Frame& frame);
  void HandleDataFrame(Connection* conn, wire::Frame& frame);
  void HandleWelcome(wire::Welcome& welcome);
  // A frame on send or recv during the handshake: Attached, or an Error.
  void HandleAttachReply(Connection* conn, wire::Frame& frame);
  // The handshake is done: tell the listener, then the connect callback.
  void BecomeReady();
  // Handshake failed: close everything and run the connect callback.
  void FailConnect(const absl::Status& status);
  // Ready session broke: close everything and tell the listener.
  void Lose(const absl::Status& status);
  void CloseConnections();
  Connection*& slot(wire::Channel channel);
  void StopConnectTimer();
  // Forgets a name resolution in flight (its callback then frees it).
  void CancelResolve();

  EventLoop& loop_;
  ClientOptions options_;
  wire::Role role_;
  Listener* listener_;
  State state_ = State::kIdle;
  absl::Status end_status_;
  std::function<void(absl::Status)> connect_done_;

  DaemonAddress address_;
  sockaddr_storage sockaddr_{};  // kTcp, once resolved
  struct Resolve;
  Resolve* resolve_ = nullptr;        // in flight; freed by its callback
  platform::UvHandle<uv_timer_t> connect_timer_;  // while connecting

  Connection* ctrl_ = nullptr;
  Connection* send_ = nullptr;
  Connection* recv_ = nullptr;
  bool send_attached_ = false;
  bool recv_attached_ = false;
  wire::Welcome welcome_;
  wire::Frame pull_frame_;  // reused for every Receive / Fetch

  std::uint32_t pulls_outstanding_ = 0;
  bool recv_paused_ = false;  // by PauseRecv
  std::uint64_t ping_nonce_ = 0;
  std::uint64_t ping_sent_ns_ = 0;
  std::uint64_t ping_rtt_ns_ = 0;
  bool ping_done_ = false;
  std::uint32_t stats_outstanding_ = 0;
  bool stats_done_ = false;
  wire::StatsReply stats_;
  Keepalive keepalive_;  // while ready: a silent daemon ends the session
};

}  // namespace trestle::internal
