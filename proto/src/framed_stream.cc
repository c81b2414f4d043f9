#include "trestle/wire/framed_stream.h"

#include <cstring>
#include <utility>

#include "decode_arena.h"
#include "trestle/wire/frame_encoder.h"

namespace trestle::wire {
namespace {
constexpr std::size_t kReadChunk = 64 * 1024;
// A buffer that grew for a large payload is given back once it drains.
constexpr std::size_t kKeepCapacity = 1u << 20;
// Output beyond this goes to the kernel at once rather than at the end of
// the loop pass, so that a peer on another core starts on the first frames
// of a large pass (a daemon's deliveries to a thousand lanes) while the rest
// are still being made.
constexpr std::size_t kEagerWriteBytes = 64 * 1024;
}  // namespace

FramedStream::FramedStream(uv_loop_t* loop, Kind kind, FlushQueue* flush_queue,
                           std::uint32_t max_frame_bytes)
    : flush_queue_(flush_queue), decoder_(max_frame_bytes) {
  if (kind == Kind::kTcp) {
    uv_tcp_init(loop, &handle_.tcp);
  } else {
    uv_pipe_init(loop, &handle_.pipe, 0);
  }
  handle_.tcp.data = this;
  write_req_.data = this;
}

FramedStream::FramedStream(FrameMux* mux, std::uint32_t lane)
    : flush_queue_(nullptr), decoder_(0), mux_(mux), lane_(lane) {}

FramedStream::~FramedStream() {
  if (flush_scheduled_) flush_queue_->Cancel(this);
}

int FramedStream::StartReading() {
  if (closing_) return UV_EINVAL;
  if (mux_ != nullptr) {
    reading_ = true;
    return 0;
  }
  if (handle()->type == UV_TCP) uv_tcp_nodelay(&handle_.tcp, 1);
  reading_ = true;
  paused_ = false;
  return uv_read_start(handle(), &FramedStream::OnAlloc, &FramedStream::OnRead);
}

void FramedStream::PauseReading() {
  if (paused_ || closing_) return;
  paused_ = true;
  if (mux_ != nullptr) return mux_->PauseLane();
  uv_read_stop(handle());
}

void FramedStream::ResumeReading() {
  if (!paused_ || closing_) return;
  paused_ = false;
  if (mux_ != nullptr) return mux_->ResumeLane();
  // Frames that arrived before the pause are handed out first.
  DispatchFrames();
  if (!paused_ && !closing_ && reading_) {
    uv_read_start(handle(), &FramedStream::OnAlloc, &FramedStream::OnRead);
  }
}

void FramedStream::OnAlloc(uv_handle_t* h, std::size_t, uv_buf_t* buf) {
  auto* self = static_cast<FramedStream*>(h->data);
  std::size_t available = 0;
  buf->base = self->decoder_.WritableSpace(kReadChunk, &available);
  buf->len = available;
}

void FramedStream::OnRead(uv_stream_t* s, ssize_t nread, const uv_buf_t*) {
  auto* self = static_cast<FramedStream*>(s->data);
  if (nread > 0) {
    self->decoder_.Commit(static_cast<std::size_t>(nread));
    self->DispatchFrames();
    self->decoder_.Retain();
    return;
  }
  self->decoder_.Retain();  // nothing (more) was read into the space
  if (nread == 0) return;  // EAGAIN: nothing read, not an error
  uv_read_stop(s);
  self->reading_ = false;
  if (self->closing_) return;
  if (nread == UV_EOF || nread == UV_ECONNRESET) {
    self->handler_->OnPeerClosed(*self);
  } else {
    self->Fail(uv_strerror(static_cast<int>(nread)));
  }
}

void FramedStream::DispatchFrames() {
  if (dispatching_) return;  // a handler resumed us from inside OnFrame
  dispatching_ = true;
  DecodeArena& arena = DecodeArena::ForThisThread();
  Frame* frame = arena.Enter();
  while (!paused_ && !closing_ && !failed_) {
    const FrameDecoder::Result r = decoder_.Next(frame);
    if (r == FrameDecoder::Result::kNeedMore) break;
    if (r == FrameDecoder::Result::kOversized) {
      Fail("frame of " + std::to_string(decoder_.last_length()) +
           " bytes exceeds the maximum of " +
           std::to_string(decoder_.max_frame_bytes()));
      break;
    }
    if (r == FrameDecoder::Result::kMalformed) {
      Fail("frame of " + std::to_string(decoder_.last_length()) +
           " bytes is not a valid trestle.wire.Frame");
      break;
    }
    handler_->OnFrame(*this, *frame);
  }
  arena.Leave();
  dispatching_ = false;
}

void FramedStream::Fail(std::string_view what) {
  failed_ = true;
  if (reading_) {
    uv_read_stop(handle());
    reading_ = false;
  }
  handler_->OnStreamError(*this, what);
}

void FramedStream::Write(const Frame& frame, std::uint32_t lane) {
  if (closing_) return;
  if (mux_ != nullptr) return mux_->Write(frame, lane);
  AppendFrame(frame, lane, &pending_);
  if (above_high_watermark()) was_above_high_ = true;
  if (write_in_progress_) return;
  if (pending_.size() >= kEagerWriteBytes) {
    WriteOut();
  } else if (!flush_scheduled_) {
    flush_queue_->Schedule(this);
  }
}

void FramedStream::Flush() {
  if (mux_ != nullptr) return mux_->Flush();
  if (WriteOut()) NotifyIfWritable();
}

bool FramedStream::WriteOut() {
  if (write_in_progress_ || pending_.empty()) return false;
  uv_buf_t buf = uv_buf_init(pending_.data(), static_cast<unsigned>(pending_.size()));
  const int n = closing_ ? UV_EAGAIN : uv_try_write(handle(), &buf, 1);
  if (n == static_cast<int>(pending_.size())) {
    Drained(pending_);
    return true;
  }
  if (n >= 0 || n == UV_EAGAIN) {
    StartWrite(n > 0 ? static_cast<std::size_t>(n) : 0);
  } else {
    pending_.Clear();  // the connection is broken; reading will report it
  }
  return false;
}

void FramedStream::Drained(OutputBuffer& buffer) {
  // A buffer that grew for a burst goes back once a flush uses little of it;
  // one that steady traffic fills stays, so that frames are not copied into
  // a new one every pass.
  const bool little = buffer.size() < buffer.capacity() / 4;
  buffer.Clear();
  if (buffer.capacity() > kKeepCapacity && little) buffer.Release();
}

void FramedStream::NotifyIfWritable() {
  if (was_above_high_ && pending_bytes() <= low_watermark_) {
    was_above_high_ = false;
    if (!closing_) handler_->OnWritable(*this);
  }
}

void FramedStream::StartWrite(std::size_t sent) {
  pending_.swap(inflight_);
  inflight_sent_ = sent;
  write_in_progress_ = true;
  uv_buf_t buf =
      uv_buf_init(inflight_.data() + sent, static_cast<unsigned>(inflight_.size() - sent));
  if (uv_write(&write_req_, handle(), &buf, 1, &FramedStream::OnWriteDone) != 0) {
    write_in_progress_ = false;
    inflight_.Clear();
    inflight_sent_ = 0;
  }
}

void FramedStream::OnWriteDone(uv_write_t* req, int status) {
  auto* self = static_cast<FramedStream*>(req->data);
  self->write_in_progress_ = false;
  self->inflight_sent_ = 0;
  Drained(self->inflight_);
  if (status < 0) {
    self->pending_.Clear();
    return;
  }
  self->Flush();
  self->NotifyIfWritable();
}

void FramedStream::Close() {
  if (closing_) return;
  if (mux_ != nullptr) {
    closing_ = true;
    if (paused_) mux_->ResumeLane();
    return mux_->CloseLane(*this);
  }
  Flush();  // best effort: an Error frame often precedes a close
  closing_ = true;
  if (flush_scheduled_) flush_queue_->Cancel(this);
  uv_close(reinterpret_cast<uv_handle_t*>(&handle_), &FramedStream::OnHandleClosed);
}

void FramedStream::Deliver(Frame& frame) {
  if (closing_ || !reading_) return;
  if (frame.has_bye()) return LanePeerClosed();  // the peer ended the lane
  handler_->OnFrame(*this, frame);
}

void FramedStream::LanePeerClosed() {
  if (peer_ended_) return;
  peer_ended_ = true;
  if (!closing_) handler_->OnPeerClosed(*this);
}

void FramedStream::LaneStreamError(std::string_view what) {
  if (peer_ended_) return;
  peer_ended_ = true;
  if (!closing_) handler_->OnStreamError(*this, what);
}

void FramedStream::LaneClosed() { handler_->OnClosed(*this); }

void FramedStream::OnHandleClosed(uv_handle_t* h) {
  auto* self = static_cast<FramedStream*>(h->data);
  self->handler_->OnClosed(*self);
}

FlushQueue::FlushQueue(uv_loop_t* loop) {
  uv_prepare_init(loop, &prepare_);
  prepare_.data = this;
  uv_prepare_start(&prepare_, &FlushQueue::OnPrepare);
  // The prepare handle alone must not keep the loop alive.
  uv_unref(reinterpret_cast<uv_handle_t*>(&prepare_));
}

void FlushQueue::Close() {
  uv_close(reinterpret_cast<uv_handle_t*>(&prepare_), nullptr);
}

void FlushQueue::Schedule(FramedStream* stream) {
  stream->flush_scheduled_ = true;
  stream->next_to_flush_ = head_;
  head_ = stream;
}

void FlushQueue::Cancel(FramedStream* stream) {
  for (FramedStream** p = &head_; *p != nullptr; p = &(*p)->next_to_flush_) {
    if (*p == stream) {
      *p = stream->next_to_flush_;
      break;
    }
  }
  stream->flush_scheduled_ = false;
  stream->next_to_flush_ = nullptr;
}

void FlushQueue::FlushAll() {
  while (head_ != nullptr) {
    FramedStream* s = head_;
    head_ = s->next_to_flush_;
    s->next_to_flush_ = nullptr;
    s->flush_scheduled_ = false;
    s->Flush();
  }
}

void FlushQueue::OnPrepare(uv_prepare_t* prepare) {
  static_cast<FlushQueue*>(prepare->data)->FlushAll();
}

}  // namespace trestle::wire
