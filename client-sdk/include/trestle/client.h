// trestle::Client: what AppClient and SimClient share — the session with the
// daemon over three connections (ctrl, send, recv), its handshake, ping,
// statistics, asynchronous errors and orderly close.
//
// Usage (an app that sends one payload and waits for one):
//
//   trestle::ClientOptions options;
//   options.daemon = "127.0.0.1:7878";
//   options.client_id = "node-a";
//   trestle::AppClient app(options);          // private EventLoop
//   if (absl::Status s = app.Connect(); !s.ok()) return Fail(s);
//   absl::StatusOr<uint64_t> id = app.Send("node-b", "hello");
//   absl::StatusOr<trestle::Message> m =
//       app.Receive(std::chrono::milliseconds(1000));
//   if (m.ok()) Use(m->payload, m->t_deliver);
//   app.Close(std::chrono::milliseconds(1000));
//
// Many clients on one thread share an EventLoop and connect asynchronously:
//
//   trestle::EventLoop loop;
//   std::vector<std::unique_ptr<trestle::AppClient>> apps;
//   int ready = 0;
//   for (...) {
//     apps.push_back(std::make_unique<trestle::AppClient>(loop, options_i));
//     absl::Status s = apps.back()->ConnectAsync(
//         [&](absl::Status st) { if (st.ok()) ++ready; });
//   }
//   loop.RunUntil([&] { return ready == n; }, std::chrono::seconds(10));
//
// Errors: every call reports errors as absl::Status. Codes: daemon Error
// frames map UNAUTHENTICATED -> kUnauthenticated, ALREADY_EXISTS ->
// kAlreadyExists, PERMISSION_DENIED -> kPermissionDenied, NOT_FOUND ->
// kNotFound, BAD_REQUEST/BAD_FRAME -> kInvalidArgument, UNSUPPORTED_VERSION ->
// kFailedPrecondition, SHUTTING_DOWN and UNAVAILABLE -> kUnavailable,
// RESOURCE_EXHAUSTED -> kResourceExhausted; the message carries the daemon's
// text. A call that runs out of time returns kDeadlineExceeded; a
// lost connection gives kUnavailable; a blocking call from inside a loop
// callback, or a call on a client that is not connected, gives
// kFailedPrecondition.
//
// Threading and lifetime: see event_loop.h. A client must not be destroyed
// from inside one of its own callbacks.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle.pb.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"

namespace trestle {

namespace internal {
class Session;
}  // namespace internal

class Client {
 public:
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  // Closes the session: sends Bye if connected (best effort, without
  // waiting) and closes the connections; never blocks for the daemon.
  virtual ~Client();

  // Opens the session: resolves the address, connects ctrl, says Hello,
  // then connects and attaches send and recv. Blocks (running the loop) for
  // at most ClientOptions::connect_timeout. May be called again after the
  // session ended, which opens a new one (set options via
  // set_resume_token() first to resume the lost session).
  absl::Status Connect();
  // Starts the same handshake without blocking. If it cannot start (bad
  // address, already connecting or connected), returns the error and `done`
  // never runs. Otherwise returns OK and `done` runs exactly once, on the
  // loop thread, with the outcome (OK once both channels are attached).
  absl::Status ConnectAsync(std::function<void(absl::Status)> done);

  // Round trip on the ctrl channel: Ping -> Pong. Returns the RTT in ns.
  absl::StatusOr<std::uint64_t> Ping(std::chrono::milliseconds timeout);
  // The daemon's counters (totals and every client, gathered page by page
  // within `timeout`).
  absl::StatusOr<wire::StatsReply> Stats(std::chrono::milliseconds timeout);

  // Ends the session: flushes what this client still has to send (bounded by
  // `timeout`), sends Bye and waits for the daemon to close the connections.
  // The daemon forgets the session (it cannot be resumed). Returns OK if the
  // daemon closed within `timeout`, DeadlineExceeded otherwise (the
  // connections are closed either way); OK if the client was not connected.
  absl::Status Close(std::chrono::milliseconds timeout);
  // Drops the connections without Bye, as a crash would: the daemon keeps
  // the session for session_linger_ms so it can be resumed with
  // session_token(). A client on a lane (ClientOptions::multiplex) cannot
  // drop a connection others share: its lane ends with Bye, and the session
  // with it. Never blocks.
  void Disconnect();

  // Registers the receiver of asynchronous errors: a send the daemon
  // rejected (the message names the id, see AppClient::Send), an Error frame
  // outside any call, or the loss of the connection (kUnavailable). Runs on
  // the loop thread. Replaces the previous callback.
  void OnError(std::function<void(const absl::Status&)> callback);

  bool connected() const;
  const std::string& client_id() const { return options_.client_id; }
  // Valid after Connect succeeded (kept after the session ends, for resume).
  const std::string& session_token() const { return session_token_; }
  // Sets ClientOptions::resume_token for the next Connect().
  void set_resume_token(std::string token) { options_.resume_token = std::move(token); }
  // Whether the daemon resumed an earlier session on the last Connect.
  bool resumed() const;
  // The daemon's configuration, as its Welcome announced it.
  const wire::EffectiveConfig& daemon_config() const;
  // APP: the simulators connected to the daemon when it welcomed this
  // session, with what each declared (Welcome.simulators; empty before
  // Connect, or when none was connected).
  const google::protobuf::RepeatedPtrField<wire::SimulatorInfo>& simulators() const;
  const ClientOptions& options() const { return options_; }
  EventLoop& loop() { return *loop_; }

 protected:
  // `loop` null: the client creates and owns a private loop.
  Client(EventLoop* loop, ClientOptions options, wire::Role role);

  // Hooks for AppClient and SimClient; all run on the loop thread.
  // Both channels are attached; `welcome` is the daemon's Welcome.
  virtual void HandleReady(const wire::Welcome& welcome) = 0;
  // A frame on the recv channel (after the handshake).
  virtual void HandleRecvFrame(wire::Frame& frame) = 0;
  // An Error frame on an established session. Default: ReportError.
  virtual void HandleChannelError(wire::Channel channel, const wire::Error& error);
  // The session ended unexpectedly (already reported through OnError).
  virtual void HandleLost(const absl::Status&) {}
  // Close() is about to flush the send channel and say Bye: write anything
  // still buffered in the client.
  virtual void HandleClosing() {}

  // Ends the session if destruction begins while connected; derived classes
  // call it first in their destructors so no hook runs on a half-destroyed
  // object.
  void Shutdown();
  // Hands an asynchronous error to the OnError callback.
  void ReportError(const absl::Status& status);
  // FailedPrecondition when called from inside a loop callback.
  absl::Status CheckMayBlock(const char* call) const;
  // FailedPrecondition / the loss status when the session is not ready.
  absl::Status CheckConnected() const;
  // The blocking wait behind Receive and Fetch: runs the loop until `have()`
  // holds, the session ends, or `timeout` passes (a timeout of 0 runs one
  // pass without waiting: the I/O already ready). In PULL mode it keeps one
  // long-poll for up to `pull_batch` items outstanding, asking again for the
  // time left when one is answered empty. Returns OK once `have()` holds;
  // FailedPrecondition (from a callback, or not connected), the loss status
  // if the session ended, DeadlineExceeded when time ran out.
  absl::Status WaitForRecv(const char* call, const std::function<bool()>& have,
                           std::uint32_t pull_batch, std::chrono::milliseconds timeout);
  // Null until the first Connect.
  internal::Session* session() { return session_.get(); }
  const internal::Session* session() const { return session_.get(); }

 private:
  class SessionEvents;

  std::unique_ptr<EventLoop> owned_loop_;  // declared first: destroyed last
  EventLoop* loop_;
  ClientOptions options_;
  wire::Role role_;
  std::unique_ptr<SessionEvents> events_;
  std::unique_ptr<internal::Session> session_;
  // The previous session, kept alive until the next Connect: a new Connect
  // may be started from a callback that the old session is running.
  std::unique_ptr<internal::Session> retired_session_;
  std::string session_token_;
  std::function<void(const absl::Status&)> on_error_;
};

}  // namespace trestle
