// FakeClientConnection: a ClientConnection (daemon/src/net/client_connection.h)
// with no socket, for the daemon dispatch fuzz target. It plays the part of
// Connection: frames the peer sends wait in an inbound queue and reach the
// router only while reading is not paused; output is counted, not sent, and
// drains only when the harness says the peer read it (so watermarks and
// backpressure are reached). It records what the harness needs to write the
// peer's next frames (session tokens from Welcome, transit ids from
// TransitBatch), and aborts on a contract breach by the daemon: a Write or
// an Error after the connection was closed, or a frame above the peer's
// frame limit.
//
// Lifetime: owned by the harness, which calls SessionManager::
// OnConnectionClosed and frees it after Close(), as the daemon does once
// libuv has closed the handle; ASan then reports any later use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <string>
#include <deque>
#include <limits>
#include <string_view>

#include "net/client_connection.h"
#include "trestle.pb.h"

namespace trestle::fuzz {

// What the daemon wrote that later frames of any peer may refer to.
class PeerMemory {
 public:
  virtual ~PeerMemory() = default;
  virtual void SawToken(const std::string& token) = 0;
  virtual void SawTransit(std::uint64_t id) = 0;
};

class FakeClientConnection final : public daemon::ClientConnection {
 public:
  // `max_out`: the largest frame the peer accepts (Welcome.config's
  // max_frame_bytes); a larger one from the daemon aborts.
  FakeClientConnection(int slot, PeerMemory& memory, std::size_t max_out)
      : slot_(slot), memory_(memory), max_out_(max_out) {}

  // Channel
  void Write(const wire::Frame& frame) override {
    if (closed_) Breach("Write", frame.body_case());
    const std::size_t bytes = frame.ByteSizeLong();
    if (bytes > max_out_) {
      std::fprintf(stderr,
                   "daemon_dispatch_fuzzer: a frame (%d) of %zu bytes on connection %d, above "
                   "the peer's limit of %zu\n",
                   frame.body_case(), bytes, slot_, max_out_);
      std::abort();
    }
    pending_ += bytes;
    if (frame.has_welcome()) memory_.SawToken(frame.welcome().session_token());
    if (frame.has_transits()) {
      for (const wire::Transit& t : frame.transits().transits()) memory_.SawTransit(t.id());
    }
  }
  void SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id,
                 bool close_after) override {
    if (closed_) Breach("SendError", code);
    static const bool trace = std::getenv("TRESTLE_FUZZ_TRACE") != nullptr;
    if (trace) {
      std::fprintf(stderr, "  error %d to connection %d: %.*s\n", code, slot_,
                   static_cast<int>(text.size()), text.data());
    }
    wire::Frame frame;
    frame.mutable_error()->set_code(code);
    frame.mutable_error()->set_text(std::string(text));
    frame.mutable_error()->set_ref_id(ref_id);
    pending_ += frame.ByteSizeLong();
    if (close_after) Close();
  }
  void PauseReading() override { paused_ = true; }
  void ResumeReading() override { paused_ = false; }
  bool reading_paused() const override { return paused_; }
  std::size_t pending_bytes() const override { return pending_; }
  bool above_high_watermark() const override { return pending_ > high_; }
  void Close() override { closed_ = true; }

  // ClientConnection
  void SetWatermarks(std::size_t high, std::size_t low) override {
    high_ = high;
    low_ = low;
  }
  void SetMaxFrameBytes(std::uint32_t max_frame_bytes) override { max_in_ = max_frame_bytes; }

  // Harness side.
  std::deque<wire::Frame>& inbound() { return inbound_; }
  bool closed() const { return closed_; }
  int slot() const { return slot_; }
  // The peer read everything: true if it had been above its high watermark
  // (the daemon is then told it is writable, as FramedStream does).
  bool Drain() {
    const bool was_above = above_high_watermark();
    pending_ = 0;
    return was_above;
  }
  std::uint32_t max_in() const { return max_in_; }

 private:
  [[noreturn]] void Breach(const char* what, int which) {
    std::fprintf(stderr, "daemon_dispatch_fuzzer: %s (%d) on connection %d after it was closed\n",
                 what, which, slot_);
    std::abort();
  }

  int slot_;
  PeerMemory& memory_;
  std::deque<wire::Frame> inbound_;
  std::size_t pending_ = 0;
  std::size_t high_ = std::numeric_limits<std::size_t>::max();
  std::size_t low_ = 0;
  std::size_t max_out_;
  std::uint32_t max_in_ = 0;
  bool paused_ = false;
  bool closed_ = false;
};

}  // namespace trestle::fuzz
