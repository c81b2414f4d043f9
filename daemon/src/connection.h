// Connection: one accepted socket. Its first frame decides its channel:
// Hello makes it a ctrl channel (and, if it asks, send and recv too), Attach
// a send or recv channel of an existing session. Frames and socket events go to the ConnectionOwner (the daemon).
//
// Lifetime: owned by the daemon; freed only from OnClosed, after libuv has
// closed the handle (never inside its own callbacks).
#pragma once

#include <string_view>

#include "trestle.pb.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::daemon {

class Connection;
class Session;

class ConnectionOwner {
 public:
  virtual ~ConnectionOwner() = default;
  virtual void OnFrame(Connection& c, wire::Frame& frame) = 0;
  virtual void OnConnectionLost(Connection& c) = 0;  // EOF, reset or bad bytes
  virtual void OnWritable(Connection& c) = 0;
  virtual void OnConnectionClosed(Connection& c) = 0;  // free it now
};

class Connection final : public wire::FramedStream::Handler {
 public:
  Connection(ConnectionOwner& owner, uv_loop_t* loop, wire::FramedStream::Kind kind,
             wire::FlushQueue* flush_queue, std::uint32_t max_frame_bytes)
      : owner_(owner), stream_(loop, kind, flush_queue, max_frame_bytes) {
    stream_.set_handler(this);
  }

  wire::FramedStream& stream() { return stream_; }
  void Write(const wire::Frame& frame) { stream_.Write(frame); }
  // Sends an Error frame; with close_after, the connection then closes.
  void SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id = 0,
                 bool close_after = false);
  void Close() { stream_.Close(); }

  wire::Channel channel = wire::CHANNEL_UNSPECIFIED;
  // A ctrl connection that also carries the session's send and recv
  // channels (Hello.shared_connection).
  bool shared = false;
  Session* session = nullptr;  // set once Hello or Attach succeeded

 private:
  void OnFrame(wire::FramedStream&, wire::Frame& frame) override { owner_.OnFrame(*this, frame); }
  void OnStreamError(wire::FramedStream&, std::string_view what) override;
  void OnPeerClosed(wire::FramedStream&) override { owner_.OnConnectionLost(*this); }
  void OnWritable(wire::FramedStream&) override { owner_.OnWritable(*this); }
  void OnClosed(wire::FramedStream&) override { owner_.OnConnectionClosed(*this); }

  ConnectionOwner& owner_;
  wire::FramedStream stream_;
};

}  // namespace trestle::daemon
