// Channel: one of a session's channels (ctrl, send, recv) as the session
// manager and the data plane see it: frames out, errors out, reading paused
// or resumed for backpressure, output queued. Connection implements it over a
// socket; unit tests implement it with fakes that record what was written.
//
// Single-threaded: every call on the loop thread. A channel stays valid until
// the session forgets it (SessionManager clears the session's slot before the
// connection is freed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "trestle.pb.h"

namespace trestle::daemon {

// Error{code, text, ref_id}, as every channel sends it.
inline wire::Frame ErrorFrame(wire::ErrorCode code, std::string_view text,
                              std::uint64_t ref_id = 0) {
  wire::Frame frame;
  wire::Error* error = frame.mutable_error();
  error->set_code(code);
  error->set_text(text.data(), text.size());
  error->set_ref_id(ref_id);
  return frame;
}

class Channel {
 public:
  virtual ~Channel() = default;

  // Queues `frame`; it leaves before the loop next sleeps. Ignored once the
  // channel is closing.
  virtual void Write(const wire::Frame& frame) = 0;
  // Sends Error{code, text, ref_id}; with close_after, the channel closes
  // once it is written.
  virtual void SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id = 0,
                         bool close_after = false) = 0;

  // Backpressure on what the peer sends: stop (at a frame boundary) or
  // resume handing its frames to the daemon.
  virtual void PauseReading() = 0;
  virtual void ResumeReading() = 0;
  virtual bool reading_paused() const = 0;

  // Output queued for the peer and not yet taken by the kernel. Above the
  // high watermark the data plane produces nothing more for this channel
  // until it drains (the daemon is then told through OnWritable).
  virtual std::size_t pending_bytes() const = 0;
  virtual bool above_high_watermark() const = 0;

  virtual void Close() = 0;
  // The session forgets this channel (it is being closed): later events of
  // the underlying connection concern no session.
  virtual void Unbind() = 0;
};

}  // namespace trestle::daemon
