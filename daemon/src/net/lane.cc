#include "net/lane.h"

#include <string>

#include "net/connection.h"

namespace trestle::daemon {

void Lane::Write(const wire::Frame& frame) {
  if (!closed_) socket_.stream().Write(frame, lane_);
}

void Lane::SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id,
                     bool close_after) {
  Write(ErrorFrame(code, text, ref_id));
  if (close_after) Close();
}

void Lane::PauseReading() {
  if (paused_ || closed_) return;
  paused_ = true;
  socket_.PauseLane();
}

void Lane::ResumeReading() {
  if (!paused_) return;
  paused_ = false;
  socket_.ResumeLane();
}

std::size_t Lane::pending_bytes() const { return socket_.pending_bytes(); }

bool Lane::above_high_watermark() const { return socket_.above_high_watermark(); }

void Lane::Close() {
  if (closed_) return;
  wire::Frame bye;
  bye.mutable_bye();
  Write(bye);
  ResumeReading();
  closed_ = true;
}

void Lane::SetWatermarks(std::size_t high, std::size_t low) { socket_.SetWatermarks(high, low); }

void Lane::SetMaxFrameBytes(std::uint32_t max_frame_bytes) {
  socket_.SetMaxFrameBytes(max_frame_bytes);
}

}  // namespace trestle::daemon
