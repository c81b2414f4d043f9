// Lane: one session's share of a multiplexed connection (docs/protocol.md,
// "Lanes"): the frames of one socket that carry Frame.lane = N. To the
// control plane it is a ClientConnection like a socket of its own, bound to
// a session that carries its three channels on it (a shared session).
//
//   - Write tags each frame with the lane; frames of every lane of a socket
//     leave together, in one system call per loop pass.
//   - Close ends the lane, not the socket: a Bye on the lane tells the
//     client its session is over; frames that still come on it are dropped.
//     The object lives on (a closed lane is never opened again) until its
//     socket is freed.
//   - Backpressure is the socket's: pausing any lane pauses reading the
//     socket until every lane that paused it resumes; output watermarks and
//     the frame limit are the socket's.
//
// Owned by its Connection. Loop thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "net/client_connection.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class Connection;

class Lane final : public ClientConnection {
 public:
  Lane(Connection& socket, std::uint32_t lane) : socket_(socket), lane_(lane) {}

  std::uint32_t lane() const { return lane_; }
  bool closed() const { return closed_; }
  Connection& socket() const { return socket_; }

  // Channel
  void Write(const wire::Frame& frame) override;
  void SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id = 0,
                 bool close_after = false) override;
  void PauseReading() override;
  void ResumeReading() override;
  bool reading_paused() const override { return paused_; }
  std::size_t pending_bytes() const override;
  bool above_high_watermark() const override;
  void Close() override;

  // ClientConnection
  void SetWatermarks(std::size_t high, std::size_t low) override;
  void SetMaxFrameBytes(std::uint32_t max_frame_bytes) override;

 private:
  Connection& socket_;
  const std::uint32_t lane_;
  bool paused_ = false;
  bool closed_ = false;
};

}  // namespace trestle::daemon
