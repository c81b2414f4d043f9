#include "lane_link.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "trestle/wire/frame_format.h"

namespace trestle::internal {
namespace {

// The links of this thread's loops, by loop and address. A link is in it
// from its creation until it starts to end.
absl::flat_hash_map<std::string, LaneLink*>& Registry() {
  thread_local absl::flat_hash_map<std::string, LaneLink*> links;
  return links;
}

}  // namespace

LaneLink& LaneLink::Link(EventLoop& loop, const DaemonAddress& address,
                         const sockaddr_storage& resolved) {
  std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(loop.uv_loop())) + " " +
                    address.ToString();
  auto it = Registry().find(key);
  if (it != Registry().end()) {
    // A connection that has numbered all the lanes the daemon allows gives
    // way to a new one (it closes once its own lanes have).
    if (it->second->next_lane_ <= wire::kMaxLanesPerConnection) return *it->second;
    it->second->Forget();
  }
  auto* link = new LaneLink(loop, address, resolved, key);
  Registry().emplace(std::move(key), link);
  return *link;
}

LaneLink::LaneLink(EventLoop& loop, const DaemonAddress& address,
                   const sockaddr_storage& resolved, std::string key)
    : loop_(loop),
      key_(std::move(key)),
      socket_(new wire::FramedStream(loop.uv_loop(),
                                     address.kind == DaemonAddress::Kind::kUnix
                                         ? wire::FramedStream::Kind::kPipe
                                         : wire::FramedStream::Kind::kTcp,
                                     loop.flush_queue(), wire::kDefaultMaxFrameBytes)),
      max_frame_bytes_(wire::kDefaultMaxFrameBytes) {
  socket_->set_handler(this);
  idle_.Init(uv_idle_init, loop.uv_loop());
  idle_->data = this;
  connect_req_.data = this;
  int rc = 0;
  if (address.kind == DaemonAddress::Kind::kUnix) {
    uv_pipe_connect(&connect_req_, reinterpret_cast<uv_pipe_t*>(socket_->handle()),
                    address.path.c_str(), &LaneLink::OnConnected);
  } else {
    rc = uv_tcp_connect(&connect_req_, reinterpret_cast<uv_tcp_t*>(socket_->handle()),
                        reinterpret_cast<const sockaddr*>(&resolved), &LaneLink::OnConnected);
  }
  if (rc != 0) {
    // Told to the lanes that open, from the loop, as a refused connect.
    failed_ = true;
    connect_status_ = rc;
    Forget();
  }
}

LaneLink::~LaneLink() = default;

void LaneLink::Forget() {
  if (!registered_) return;
  registered_ = false;
  Registry().erase(key_);
}

void LaneLink::Open(wire::FramedStream& stream, uv_connect_t* req, uv_connect_cb connected) {
  lanes_.emplace(stream.lane(), &stream);
  if (connected_ || failed_) {
    connected_calls_.push_back({&stream, req, connected});
    Defer();
  } else {
    opening_.push_back({&stream, req, connected});
  }
}

void LaneLink::OnConnected(uv_connect_t* req, int status) {
  auto* self = static_cast<LaneLink*>(req->data);
  if (self->closing_) return;
  self->connect_status_ = status;
  if (status == 0) status = self->socket_->StartReading();
  if (status != 0) {
    self->connect_status_ = status;
    self->failed_ = true;
    self->Forget();
  } else {
    self->connected_ = true;
  }
  for (Opening& o : self->opening_) self->connected_calls_.push_back(o);
  self->opening_.clear();
  self->Defer();
}

void LaneLink::Defer() { uv_idle_start(idle_.get(), &LaneLink::OnIdle); }

void LaneLink::OnIdle(uv_idle_t* idle) { static_cast<LaneLink*>(idle->data)->RunDeferred(); }

void LaneLink::RunDeferred() {
  uv_idle_stop(idle_.get());
  std::vector<Opening> calls;
  calls.swap(connected_calls_);
  for (const Opening& o : calls) {
    // A lane that closed meanwhile is in closed_, and hears nothing more.
    if (!lanes_.contains(o.stream->lane())) continue;
    o.connected(o.req, failed_ ? (connect_status_ != 0 ? connect_status_ : UV_ECONNRESET) : 0);
  }
  std::vector<wire::FramedStream*> closed;
  closed.swap(closed_);
  for (wire::FramedStream* stream : closed) stream->LaneClosed();  // may free it
  CloseIfIdle();
}

void LaneLink::Write(const wire::Frame& frame, std::uint32_t lane) {
  if (!failed_) socket_->Write(frame, lane);
}

void LaneLink::PauseLane() {
  if (lanes_pausing_++ == 0) socket_->PauseReading();
}

void LaneLink::ResumeLane() {
  if (lanes_pausing_ > 0 && --lanes_pausing_ == 0) socket_->ResumeReading();
}

void LaneLink::SetMaxFrameBytes(std::uint32_t max_frame_bytes) {
  if (max_frame_bytes <= max_frame_bytes_) return;
  max_frame_bytes_ = max_frame_bytes;
  socket_->set_max_frame_bytes(max_frame_bytes);
}

void LaneLink::CloseLane(wire::FramedStream& stream) {
  auto it = lanes_.find(stream.lane());
  if (it == lanes_.end() || it->second != &stream) return;
  // A lane the daemon has heard of (its socket connected, so its Hello went)
  // ends its session with Bye, unless the daemon ended it.
  const bool told = connected_ && !failed_ &&
                    std::none_of(connected_calls_.begin(), connected_calls_.end(),
                                 [&](const Opening& o) { return o.stream == &stream; });
  if (told && !stream.lane_ended_by_peer()) {
    wire::Frame bye;
    bye.mutable_bye();
    socket_->Write(bye, stream.lane());
  }
  lanes_.erase(it);
  closed_.push_back(&stream);
  Defer();
}

void LaneLink::CloseIfIdle() {
  if (closing_ || !lanes_.empty() || !closed_.empty() || !connected_calls_.empty() ||
      !opening_.empty()) {
    return;
  }
  closing_ = true;
  Forget();
  socket_->Close();  // writes what is queued (the last Byes) first
}

void LaneLink::OnFrame(wire::FramedStream&, wire::Frame& frame) {
  auto it = lanes_.find(frame.lane());
  if (it == lanes_.end()) return;  // lane 0 (the daemon's word on the socket), or one that closed
  it->second->Deliver(frame);
}

void LaneLink::Fail(int status, std::string_view what, bool stream_error) {
  if (failed_) return;
  failed_ = true;
  connect_status_ = status;
  Forget();
  std::vector<wire::FramedStream*> lanes;
  for (auto& [n, stream] : lanes_) lanes.push_back(stream);
  for (wire::FramedStream* stream : lanes) {
    if (stream_error) {
      stream->LaneStreamError(what);
    } else {
      stream->LanePeerClosed();
    }
  }
}

void LaneLink::OnStreamError(wire::FramedStream&, std::string_view what) {
  Fail(UV_EPROTO, what, true);
}

void LaneLink::OnPeerClosed(wire::FramedStream&) { Fail(UV_ECONNRESET, "", false); }

void LaneLink::OnWritable(wire::FramedStream&) {
  std::vector<wire::FramedStream*> lanes;
  for (auto& [n, stream] : lanes_) lanes.push_back(stream);
  for (wire::FramedStream* stream : lanes) {
    if (stream->handler() != nullptr) stream->handler()->OnWritable(*stream);
  }
}

void LaneLink::OnClosed(wire::FramedStream&) {
  delete socket_;
  delete this;
}

}  // namespace trestle::internal
