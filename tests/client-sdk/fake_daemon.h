// FakeDaemon: the daemon's side of the protocol, scripted, for SDK unit
// tests. It listens on 127.0.0.1 port 0 on the test's EventLoop, so it is
// served whenever the client under test runs the loop. It answers Hello with
// `welcome` (or `hello_error`), Attach with Attached, Ping with Pong,
// StatsRequest with `stats`, and Bye by closing the session's connections;
// it records every frame it receives. Single session at a time.
#pragma once

#include "trestle/client_options.h"

#include <uv.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trestle.pb.h"
#include "trestle/event_loop.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::testing {

class FakeDaemon final : private wire::FramedStream::Handler {
 public:
  explicit FakeDaemon(EventLoop& loop);
  FakeDaemon(const FakeDaemon&) = delete;
  FakeDaemon& operator=(const FakeDaemon&) = delete;
  // Closes every connection and runs the loop until they are closed.
  ~FakeDaemon() override;

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  // ---- script ---------------------------------------------------------------
  wire::Welcome welcome;                  // session_token "fake-token" unless set
  std::optional<wire::Error> hello_error;  // answer Hello with this, then close
  bool answer_hello = true;               // false: say nothing (connect timeout)
  bool hold_send_attached = false;        // delay Attached on send until released
  std::vector<wire::Frame> on_recv_attached;  // written on recv right after Attached
  wire::StatsReply stats;

  // ---- observations -----------------------------------------------------------
  std::vector<wire::Frame> ctrl_frames;
  std::vector<wire::Frame> send_frames;
  std::vector<wire::Frame> recv_frames;
  int connections_accepted = 0;
  bool bye_received = false;

  // ---- actions ----------------------------------------------------------------
  void ReleaseSendAttached();
  void WriteOn(wire::Channel channel, const wire::Frame& frame);
  // Stops / resumes reading a channel (backpressure on the client).
  void PauseReading(wire::Channel channel);
  void ResumeReading(wire::Channel channel);
  // Closes every connection, as a crashing daemon would.
  void DropConnections();
  bool channel_open(wire::Channel channel) const { return conn(channel) != nullptr; }

 private:
  struct Conn {
    Conn(EventLoop& loop, FakeDaemon* owner)
        : stream(loop.uv_loop(), wire::FramedStream::Kind::kTcp, loop.flush_queue(), 1u << 24),
          daemon(owner) {}
    wire::FramedStream stream;
    FakeDaemon* daemon;
    wire::Channel channel = wire::CHANNEL_UNSPECIFIED;
  };

  static void OnConnection(uv_stream_t* server, int status);
  void OnFrame(wire::FramedStream& stream, wire::Frame& frame) override;
  void OnStreamError(wire::FramedStream& stream, std::string_view what) override;
  void OnPeerClosed(wire::FramedStream& stream) override;
  void OnClosed(wire::FramedStream& stream) override;
  void Reply(Conn& conn, const wire::Frame& frame);
  Conn* conn(wire::Channel channel) const;

  EventLoop& loop_;
  uv_tcp_t* server_;
  std::uint16_t port_ = 0;
  std::vector<Conn*> conns_;
  int open_handles_ = 0;
  bool send_attached_held_ = false;
};

// Options of a client named `client_id` that talks to `daemon`.
inline ClientOptions OptionsFor(const FakeDaemon& daemon, std::string client_id,
                                DeliveryMode mode = DeliveryMode::kPush) {
  ClientOptions o;
  o.daemon = daemon.address();
  o.client_id = std::move(client_id);
  o.mode = mode;
  return o;
}

}  // namespace trestle::testing
