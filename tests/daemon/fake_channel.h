// FakeChannel: a Channel (daemon/src/net/channel.h) that records what the data
// plane does with it, for unit tests without sockets: every frame written
// (copied), every Error, each pause and resume of reading, Close and Unbind.
// Output never drains by itself: pending_bytes() grows by each frame's
// encoded size until Drain(), and the channel is above its high watermark
// while pending_bytes() exceeds the one set (never, by default).
//
// Single-threaded, like the real channels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "net/channel.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class FakeChannel final : public Channel {
 public:
  struct Error {
    wire::ErrorCode code;
    std::string text;
    std::uint64_t ref_id;
    bool close_after;
  };

  void Write(const wire::Frame& frame) override {
    if (closed_) return;
    frames_.push_back(frame);
    pending_ += frame.ByteSizeLong();
  }
  void SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id,
                 bool close_after) override {
    if (closed_) return;
    errors_.push_back({code, std::string(text), ref_id, close_after});
  }

  void PauseReading() override {
    paused_ = true;
    ++pause_calls_;
  }
  void ResumeReading() override {
    paused_ = false;
    ++resume_calls_;
  }
  bool reading_paused() const override { return paused_; }

  std::size_t pending_bytes() const override { return pending_; }
  bool above_high_watermark() const override { return pending_ > high_watermark_; }

  void Close() override { closed_ = true; }
  void Unbind() override { unbound_ = true; }

  // Test controls.
  void set_high_watermark(std::size_t bytes) { high_watermark_ = bytes; }
  // The peer took everything written so far.
  void Drain() { pending_ = 0; }
  // Output queued by something else (the peer stopped reading long ago).
  void AddPending(std::size_t bytes) { pending_ += bytes; }
  void ClearRecorded() {
    frames_.clear();
    errors_.clear();
  }

  const std::vector<wire::Frame>& frames() const { return frames_; }
  const std::vector<Error>& errors() const { return errors_; }
  int pause_calls() const { return pause_calls_; }
  int resume_calls() const { return resume_calls_; }
  bool closed() const { return closed_; }
  bool unbound() const { return unbound_; }

 private:
  std::vector<wire::Frame> frames_;
  std::vector<Error> errors_;
  std::size_t pending_ = 0;
  std::size_t high_watermark_ = std::numeric_limits<std::size_t>::max();
  int pause_calls_ = 0;
  int resume_calls_ = 0;
  bool paused_ = false;
  bool closed_ = false;
  bool unbound_ = false;
};

}  // namespace trestle::daemon
