// Connection: one accepted socket. Its first frame decides what it is: Hello
// makes it a session's ctrl channel (and, if it asks, its send and recv
// channels too: a shared connection), Attach a send or recv channel of an
// existing session. A socket whose first frame is a Hello on a lane (Frame.lane
// above 0) is multiplexed instead: each lane is the shared connection of a
// session of its own (Lane; docs/protocol.md, "Lanes"), at most
// wire::kMaxLanesPerConnection of them. Frames and socket events go to the
// ConnectionOwner (the daemon); to the control plane the socket, and each
// of its lanes, is a ClientConnection.
//
// Lifetime: owned by the daemon; freed only from OnConnectionClosed, after
// libuv has closed the handle (never inside its own callbacks). Its lanes go
// with it (OnLaneFreed first).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "net/client_connection.h"
#include "net/lane.h"
#include "trestle.pb.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::daemon {

class Connection;
class Lane;
class Session;

class ConnectionOwner {
 public:
  virtual ~ConnectionOwner() = default;
  // A frame of `c`: the socket itself, or one of its lanes.
  virtual void OnFrame(Connection& socket, ClientConnection& c, wire::Frame& frame) = 0;
  virtual void OnConnectionLost(ClientConnection& c) = 0;  // EOF, reset or bad bytes
  virtual void OnWritable(ClientConnection& c) = 0;
  virtual void OnLaneFreed(Lane& lane) = 0;            // its socket is about to go
  virtual void OnConnectionClosed(Connection& c) = 0;  // free it now
};

class Connection final : public ClientConnection, private wire::FramedStream::Handler {
 public:
  Connection(ConnectionOwner& owner, uv_loop_t* loop, wire::FramedStream::Kind kind,
             wire::FlushQueue* flush_queue, std::uint32_t max_frame_bytes)
      : owner_(owner), stream_(loop, kind, flush_queue, max_frame_bytes) {
    stream_.set_handler(this);
  }

  ~Connection() override;
  wire::FramedStream& stream() { return stream_; }
  // A lane paused reading (or resumed): the socket reads while none has.
  void PauseLane();
  void ResumeLane();
  std::size_t lane_count() const { return lanes_.size(); }

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
  void OnFrame(wire::FramedStream&, wire::Frame& frame) override;
  void OnStreamError(wire::FramedStream&, std::string_view what) override;
  void OnPeerClosed(wire::FramedStream&) override;
  void OnWritable(wire::FramedStream&) override;
  void OnClosed(wire::FramedStream&) override;
  // A frame on lane `frame.lane()`: to its Lane, opened by a Hello.
  void OnLaneFrame(wire::Frame& frame);
  // Error{code, text} on lane `lane` (one with no Lane object yet).
  void RefuseOnLane(std::uint32_t lane, wire::ErrorCode code, std::string_view text);
  // Every lane bound to a session lost its channels.
  void LoseLanes();

  ConnectionOwner& owner_;
  wire::FramedStream stream_;
  absl::flat_hash_map<std::uint32_t, std::unique_ptr<Lane>> lanes_;
  std::uint32_t lanes_pausing_ = 0;  // lanes that paused reading
};

}  // namespace trestle::daemon
