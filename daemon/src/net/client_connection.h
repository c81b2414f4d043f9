// ClientConnection: an accepted connection as the control plane sees it: a
// Channel that also knows what its first frame made it (which session, which
// of the session's channels, whether it carries all three), and whose frame
// limit and output watermarks the session manager sets. Connection
// implements it over a socket; tests and the fuzz harness use fakes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "net/channel.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class Session;

class ClientConnection : public Channel {
 public:
  // Null before Hello or Attach succeeded, and once the session forgot it.
  Session* session() const { return session_; }
  wire::Channel channel() const { return channel_; }
  bool shared() const { return shared_; }
  void Bind(Session* session, wire::Channel channel, bool shared) {
    session_ = session;
    channel_ = channel;
    shared_ = shared;
  }
  void Unbind() override { session_ = nullptr; }

  // Output bytes above which it counts as above its high watermark, and
  // below which it is writable again.
  virtual void SetWatermarks(std::size_t high, std::size_t low) = 0;
  // The largest frame accepted from the peer, from the next frame on.
  virtual void SetMaxFrameBytes(std::uint32_t max_frame_bytes) = 0;

 private:
  Session* session_ = nullptr;
  wire::Channel channel_ = wire::CHANNEL_UNSPECIFIED;
  bool shared_ = false;
};

}  // namespace trestle::daemon
