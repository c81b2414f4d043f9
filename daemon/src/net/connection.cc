#include "net/connection.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {

void Connection::SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id,
                           bool close_after) {
  stream_.Write(ErrorFrame(code, text, ref_id));
  if (close_after) stream_.Close();
}

Connection::~Connection() = default;

void Connection::OnFrame(wire::FramedStream&, wire::Frame& frame) {
  if (frame.lane() != 0) return OnLaneFrame(frame);
  if (!lanes_.empty()) {
    SendError(wire::BAD_REQUEST,
              "this connection carries lanes: every frame on it needs its lane (Frame.lane)");
    return;
  }
  owner_.OnFrame(*this, *this, frame);
}

void Connection::OnLaneFrame(wire::Frame& frame) {
  const std::uint32_t n = frame.lane();
  auto it = lanes_.find(n);
  if (it == lanes_.end()) {
    if (channel() != wire::CHANNEL_UNSPECIFIED) {
      return RefuseOnLane(n, wire::BAD_REQUEST,
                          "this connection carries a session of its own (lane 0): lanes need a "
                          "connection whose first frame is a Hello on a lane");
    }
    if (!frame.has_hello() || !frame.hello().shared_connection()) {
      return RefuseOnLane(n, wire::BAD_REQUEST,
                          "the first frame on a lane must be Hello with shared_connection");
    }
    if (lanes_.size() >= wire::kMaxLanesPerConnection) {
      return RefuseOnLane(n, wire::RESOURCE_EXHAUSTED,
                          absl::StrCat("this connection has ", lanes_.size(),
                                       " lanes already, the most allowed "
                                       "(kMaxLanesPerConnection): open another connection"));
    }
    it = lanes_.emplace(n, std::make_unique<Lane>(*this, n)).first;
  }
  Lane& lane = *it->second;
  if (lane.closed()) return;  // the client had not yet read the lane's Bye
  owner_.OnFrame(*this, lane, frame);
}

void Connection::RefuseOnLane(std::uint32_t lane, wire::ErrorCode code, std::string_view text) {
  stream_.Write(
      ErrorFrame(code, absl::StrCat("lane ", lane, ": ", absl::string_view(text.data(), text.size()))),
      lane);
}

void Connection::PauseLane() {
  if (lanes_pausing_++ == 0) stream_.PauseReading();
}

void Connection::ResumeLane() {
  if (lanes_pausing_ > 0 && --lanes_pausing_ == 0) stream_.ResumeReading();
}

void Connection::LoseLanes() {
  for (auto& [n, lane] : lanes_) {
    if (!lane->closed() && lane->session() != nullptr) owner_.OnConnectionLost(*lane);
  }
}

void Connection::OnStreamError(wire::FramedStream&, std::string_view what) {
  // The byte stream is out of step; tell the peer why, then treat it as lost.
  SendError(wire::BAD_FRAME, what);
  LoseLanes();
  owner_.OnConnectionLost(*this);
}

void Connection::OnPeerClosed(wire::FramedStream&) {
  LoseLanes();
  owner_.OnConnectionLost(*this);
}

void Connection::OnWritable(wire::FramedStream&) {
  owner_.OnWritable(*this);
  for (auto& [n, lane] : lanes_) {
    if (!lane->closed()) owner_.OnWritable(*lane);
  }
}

void Connection::OnClosed(wire::FramedStream&) {
  for (auto& [n, lane] : lanes_) owner_.OnLaneFreed(*lane);
  lanes_.clear();
  owner_.OnConnectionClosed(*this);
}

}  // namespace trestle::daemon
