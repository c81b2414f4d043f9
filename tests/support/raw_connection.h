// RawConnection: a blocking TCP socket that speaks frames by hand, for tests
// that must send what no SDK would (split, merged, oversized or garbage
// frames) and read the daemon's exact answers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "trestle.pb.h"

namespace trestle::testing {

class RawConnection {
 public:
  explicit RawConnection(std::uint16_t port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  void WriteBytes(const std::string& bytes);
  void WriteFrame(const wire::Frame& frame);
  // The next frame, or nullopt on timeout or when the daemon closed.
  std::optional<wire::Frame> ReadFrame(int timeout_ms = 5000);
  // True once the daemon closed the connection (reads EOF within timeout).
  bool WaitClosed(int timeout_ms = 5000);

  // Hello on this connection as a ctrl channel (with `shared`, also send and
  // recv: Hello.shared_connection); returns the Welcome or Error.
  wire::Frame Hello(const std::string& client_id, wire::Role role,
                    const std::string& token = "", wire::DeliveryMode mode = wire::PUSH,
                    bool shared = false);
  // Attach on this connection (presenting `auth_token`); returns Attached or Error.
  wire::Frame Attach(const std::string& session_token, wire::Channel channel,
                     const std::string& auth_token = "");
  // StatsRequest on this (ctrl) connection; an empty reply on failure.
  wire::StatsReply Stats();

 private:
  bool ReadExact(char* out, std::size_t n, int timeout_ms);
  int fd_ = -1;
};

// A client built from RawConnections: ctrl, send, recv all attached.
struct RawSession {
  RawSession(std::uint16_t port, const std::string& client_id, wire::Role role,
             wire::DeliveryMode mode = wire::PUSH, const std::string& auth_token = "");
  RawConnection ctrl;
  RawConnection send;
  RawConnection recv;
  wire::Welcome welcome;
  bool ok = false;
};

// Plays a PUSH simulator on `sim`: reads transits and answers each with its
// own Outcome frame (`status`, t_deliver = t_send), until `want` were
// answered or a read waits `timeout_ms` in vain. Returns how many were answered.
int AnswerTransits(RawSession& sim, int want, wire::OutcomeStatus status = wire::DELIVERED,
                   int timeout_ms = 3000);

}  // namespace trestle::testing
