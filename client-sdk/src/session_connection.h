// internal::Session's connections (session.h): one per channel, or one
// shared by all three, and the handler that frees them once their Session is
// gone. Private to session.cc and session_handshake.cc.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string_view>

#include "session.h"
#include "trestle/event_loop.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::internal {

// One connection of the session. Heap-allocated so that it can outlive the
// Session: libuv still owns the stream handle and the connect request until
// the close callback, which frees the Connection.
struct Session::Connection {
  Connection(EventLoop& loop, wire::FramedStream::Kind kind, std::uint32_t max_frame_bytes,
             Session* owner, wire::Channel which)
      : stream(loop.uv_loop(), kind, loop.flush_queue(), max_frame_bytes),
        session(owner),
        channel(which) {
    stream.owner = this;
    connect_req.data = this;
  }
  // Lane `lane` of `mux` (ClientOptions::multiplex): no socket of its own.
  Connection(wire::FrameMux& mux, std::uint32_t lane, Session* owner, wire::Channel which)
      : stream(&mux, lane), session(owner), channel(which) {
    stream.owner = this;
    connect_req.data = this;
  }
  wire::FramedStream stream;
  uv_connect_t connect_req;
  Session* session;  // null once orphaned
  wire::Channel channel;
};

// Receives the last callbacks of connections whose Session is gone.
class Session::OrphanHandler final : public wire::FramedStream::Handler {
 public:
  void OnFrame(wire::FramedStream&, wire::Frame&) override {}
  void OnStreamError(wire::FramedStream& stream, std::string_view) override { stream.Close(); }
  void OnPeerClosed(wire::FramedStream& stream) override { stream.Close(); }
  void OnClosed(wire::FramedStream& stream) override {
    delete static_cast<Connection*>(stream.owner);
  }
};

}  // namespace trestle::internal
