// Connection: one accepted socket. Its first frame decides what it is: Hello
// makes it a session's ctrl channel (and, if it asks, its send and recv
// channels too: a shared connection), Attach a send or recv channel of an
// existing session. Frames and socket events go to the ConnectionOwner (the
// daemon); to the control plane it is a ClientConnection.
//
// Lifetime: owned by the daemon; freed only from OnConnectionClosed, after
// libuv has closed the handle (never inside its own callbacks).
#pragma once

#include <string_view>

#include "net/client_connection.h"
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

class Connection final : public ClientConnection, private wire::FramedStream::Handler {
 public:
  Connection(ConnectionOwner& owner, uv_loop_t* loop, wire::FramedStream::Kind kind,
             wire::FlushQueue* flush_queue, std::uint32_t max_frame_bytes)
      : owner_(owner), stream_(loop, kind, flush_queue, max_frame_bytes) {
    stream_.set_handler(this);
  }

  wire::FramedStream& stream() { return stream_; }

  // Channel
  void Write(const wire::Frame& frame) override { stream_.Write(frame); }
  void SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id = 0,
                 bool close_after = false) override;
  void PauseReading() override { stream_.PauseReading(); }
  void ResumeReading() override { stream_.ResumeReading(); }
  bool reading_paused() const override { return stream_.reading_paused(); }
  std::size_t pending_bytes() const override { return stream_.pending_bytes(); }
  bool above_high_watermark() const override { return stream_.above_high_watermark(); }
  void Close() override { stream_.Close(); }

  // ClientConnection
  void SetWatermarks(std::size_t high, std::size_t low) override {
    stream_.SetWatermarks(high, low);
  }
  void SetMaxFrameBytes(std::uint32_t max_frame_bytes) override {
    stream_.set_max_frame_bytes(max_frame_bytes);
  }

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
