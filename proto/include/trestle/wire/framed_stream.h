// A libuv stream (TCP or Unix socket) that speaks length-prefixed frames.
//
// Reading: bytes go through a FrameDecoder; each whole frame is handed to the
// Handler. PauseReading() stops at the next frame boundary (backpressure): the
// rest stays buffered until ResumeReading().
//
// Writing: Write() appends an encoded frame to an output buffer and asks the
// FlushQueue to flush it before the loop next sleeps, so many frames leave in
// one system call (once 64 KiB are waiting they go at once, so that a
// large pass reaches its peer while the rest is made). Flush() writes at once (uv_try_write first, uv_write for
// the remainder). Nothing is ever dropped: bytes the kernel refuses stay
// queued, and pending_bytes() lets the owner stop producing (watermarks).
//
// Lifetime: the stream must be heap-allocated by its owner; Close() starts an
// asynchronous close, after which Handler::OnClosed runs exactly once, from
// the loop, and only then may the owner free the stream. Not thread-safe:
// use only on the thread that runs its loop.
//
// Lanes (docs/protocol.md, "Lanes"): a stream made on a FrameMux is one lane
// of a connection the mux owns, not a socket of its own. Its frames go out
// through the mux, tagged with the lane, and the mux hands it the frames of
// its lane (Deliver); pausing it pauses the whole connection; its output and
// watermarks are the connection's; a Bye on the lane is the peer closing it.
#pragma once

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "trestle.pb.h"
#include "trestle/wire/frame_decoder.h"
#include "trestle/wire/output_buffer.h"

namespace trestle::wire {

class FlushQueue;
class FramedStream;

// The connection under the lanes of a multiplexed socket (FramedStream's
// lane mode). Loop thread only.
class FrameMux {
 public:
  virtual void Write(const Frame& frame, std::uint32_t lane) = 0;
  virtual void Flush() = 0;
  virtual std::size_t pending_bytes() const = 0;
  virtual bool above_high_watermark() const = 0;
  // A lane paused (or resumed) reading: the connection reads while none has.
  virtual void PauseLane() = 0;
  virtual void ResumeLane() = 0;
  // `stream` closes: the mux tells the peer unless the peer ended it, and
  // runs its handler's OnClosed later, from the loop.
  virtual void CloseLane(FramedStream& stream) = 0;
  // A lane accepts frames of up to this many bytes: so does the connection.
  virtual void SetMaxFrameBytes(std::uint32_t max_frame_bytes) = 0;

 protected:
  ~FrameMux() = default;
};

class FramedStream {
 public:
  class Handler {
   public:
    virtual ~Handler() = default;
    // A whole frame arrived. `frame` is reused after the call returns; move
    // out what must be kept.
    virtual void OnFrame(FramedStream& stream, Frame& frame) = 0;
    // The peer sent an oversized or malformed frame (or the read failed with
    // something other than EOF). The stream is unusable; the handler decides
    // whether to send an Error before closing it.
    virtual void OnStreamError(FramedStream& stream, std::string_view what) = 0;
    // The peer closed its end (EOF) or the connection broke.
    virtual void OnPeerClosed(FramedStream& stream) = 0;
    // The output buffer drained below `low_watermark` after being above
    // `high_watermark` (see SetWatermarks).
    virtual void OnWritable(FramedStream&) {}
    // The handle is closed; the owner may now free the stream.
    virtual void OnClosed(FramedStream& stream) = 0;
  };

  enum class Kind { kTcp, kPipe };

  FramedStream(uv_loop_t* loop, Kind kind, FlushQueue* flush_queue,
               std::uint32_t max_frame_bytes);
  // Lane `lane` of the connection `mux` (which must outlive the stream).
  FramedStream(FrameMux* mux, std::uint32_t lane);
  FramedStream(const FramedStream&) = delete;
  FramedStream& operator=(const FramedStream&) = delete;
  ~FramedStream();

  uv_stream_t* handle() { return reinterpret_cast<uv_stream_t*>(&handle_); }
  void set_handler(Handler* handler) { handler_ = handler; }
  Handler* handler() const { return handler_; }

  // Starts delivering frames to the handler. Returns a libuv error code.
  int StartReading();
  void PauseReading();
  void ResumeReading();
  bool reading_paused() const { return paused_; }

  // Queues one frame; flushed before the loop sleeps. Ignored once closing.
  void Write(const Frame& frame) { Write(frame, lane_); }
  // The same on lane `lane` of a multiplexed connection (Frame.lane).
  void Write(const Frame& frame, std::uint32_t lane);
  // Writes queued bytes now, as far as the socket takes them.
  void Flush();
  std::size_t pending_bytes() const {
    return mux_ != nullptr ? mux_->pending_bytes()
                           : pending_.size() + inflight_.size() - inflight_sent_;
  }
  // The largest incoming frame accepted, from the next frame on.
  void set_max_frame_bytes(std::uint32_t max_frame_bytes) {
    if (mux_ != nullptr) return mux_->SetMaxFrameBytes(max_frame_bytes);
    decoder_.set_max_frame_bytes(max_frame_bytes);
  }
  bool above_high_watermark() const {
    return mux_ != nullptr ? mux_->above_high_watermark() : pending_bytes() >= high_watermark_;
  }
  void SetWatermarks(std::size_t high, std::size_t low) {
    high_watermark_ = high;
    low_watermark_ = low;
  }

  // Closes the handle after trying once to write what is queued.
  void Close();
  bool closing() const { return closing_; }

  // Lane mode: the lane, and the mux's hand-over of a frame of the lane,
  // of the peer's end of it, and of its close.
  std::uint32_t lane() const { return lane_; }
  void Deliver(Frame& frame);
  void LanePeerClosed();
  void LaneStreamError(std::string_view what);
  void LaneClosed();
  bool lane_ended_by_peer() const { return peer_ended_; }

  // Opaque slot for the owner (e.g. the connection object it belongs to).
  void* owner = nullptr;

 private:
  friend class FlushQueue;
  static void OnAlloc(uv_handle_t* h, std::size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf);
  static void OnWriteDone(uv_write_t* req, int status);
  static void OnHandleClosed(uv_handle_t* h);

  void DispatchFrames();
  void Fail(std::string_view what);
  // Hands what is pending to the kernel (uv_try_write, then a uv_write for
  // the rest); true if all of it went.
  bool WriteOut();
  // Hands pending_ to a uv_write, from byte `sent` (uv_try_write took those).
  void StartWrite(std::size_t sent);
  static void Drained(OutputBuffer& buffer);
  void NotifyIfWritable();

  union {
    uv_tcp_t tcp;
    uv_pipe_t pipe;
  } handle_;
  uv_write_t write_req_;
  Handler* handler_ = nullptr;
  FlushQueue* flush_queue_;
  FrameDecoder decoder_;
  OutputBuffer pending_;   // encoded frames not yet handed to the kernel
  OutputBuffer inflight_;  // bytes owned by the uv_write in progress
  std::size_t inflight_sent_ = 0;  // of inflight_, taken before its uv_write
  std::size_t high_watermark_ = 8u << 20;
  std::size_t low_watermark_ = 1u << 20;
  bool paused_ = false;
  bool reading_ = false;
  bool dispatching_ = false;
  bool closing_ = false;
  bool failed_ = false;
  bool write_in_progress_ = false;
  bool was_above_high_ = false;
  bool flush_scheduled_ = false;
  FramedStream* next_to_flush_ = nullptr;
  FrameMux* mux_ = nullptr;  // lane mode
  std::uint32_t lane_ = 0;
  bool peer_ended_ = false;  // lane mode: the peer's Bye, or the connection lost
};

// Flushes every stream that wrote since the last pass, just before the loop
// blocks for I/O (a uv_prepare handle). One per loop.
class FlushQueue {
 public:
  explicit FlushQueue(uv_loop_t* loop);
  FlushQueue(const FlushQueue&) = delete;
  FlushQueue& operator=(const FlushQueue&) = delete;
  // Must be followed by loop iterations until the handle closes.
  void Close();

  void Schedule(FramedStream* stream);
  void Cancel(FramedStream* stream);
  void FlushAll();

 private:
  static void OnPrepare(uv_prepare_t* prepare);
  uv_prepare_t prepare_;
  FramedStream* head_ = nullptr;
};

}  // namespace trestle::wire
