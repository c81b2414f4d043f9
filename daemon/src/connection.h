// Connection: one accepted socket. Its first frame decides what it is: Hello
// makes it a session's ctrl channel (and, if it asks, its send and recv
// channels too: a shared connection), Attach a send or recv channel of an
// existing session. Frames and socket events go to the ConnectionOwner (the
// daemon); to its session it is a Channel.
//
// Lifetime: owned by the daemon; freed only from OnConnectionClosed, after
// libuv has closed the handle (never inside its own callbacks).
#pragma once

#include <string_view>

#include "channel.h"
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

class Connection final : public Channel, private wire::FramedStream::Handler {
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

  // What the first frame made of it: the session it belongs to (null before
  // Hello or Attach succeeded, and once the session forgot it), which of the
  // session's channels it is, and whether it carries all three.
  Session* session() const { return session_; }
  wire::Channel channel() const { return channel_; }
  bool shared() const { return shared_; }
  void Bind(Session* session, wire::Channel channel, bool shared) {
    session_ = session;
    channel_ = channel;
    shared_ = shared;
  }
  void Unbind() override { session_ = nullptr; }

 private:
  void OnFrame(wire::FramedStream&, wire::Frame& frame) override { owner_.OnFrame(*this, frame); }
  void OnStreamError(wire::FramedStream&, std::string_view what) override;
  void OnPeerClosed(wire::FramedStream&) override { owner_.OnConnectionLost(*this); }
  void OnWritable(wire::FramedStream&) override { owner_.OnWritable(*this); }
  void OnClosed(wire::FramedStream&) override { owner_.OnConnectionClosed(*this); }

  ConnectionOwner& owner_;
  wire::FramedStream stream_;
  Session* session_ = nullptr;
  wire::Channel channel_ = wire::CHANNEL_UNSPECIFIED;
  bool shared_ = false;
};

}  // namespace trestle::daemon
