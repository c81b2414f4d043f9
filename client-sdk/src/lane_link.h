// internal::LaneLink: one connection to a daemon that carries the sessions
// of many clients of one EventLoop, a lane each (ClientOptions::multiplex;
// docs/protocol.md, "Lanes"). A Session in multiplex mode opens its shared
// connection as a lane of the link for its daemon address: a FramedStream in
// lane mode (trestle/wire/framed_stream.h) whose frames go out through the
// link and whose frames the link hands over by lane. All lanes' frames leave
// in one system call per loop pass, and one read takes in what came for all
// of them: that, not a socket each, is what lets thousands of clients in
// one process cost the daemon little per message.
//
//   - Link(loop, address, sockaddr) finds the link of that loop and
//     address, or starts connecting a new one; Open() gives a lane its
//     number and runs `connected(req, status)` once the socket is connected
//     (or failed), from the loop, as uv_tcp_connect would.
//   - A lane that closes (FramedStream::Close) says Bye on its lane unless
//     the daemon ended it; its handler's OnClosed runs from the loop.
//   - The socket lost (EOF, a read error, a bad frame) ends every lane: each
//     handler hears OnPeerClosed or OnStreamError, and later clients of that
//     address get a new link.
//   - The link closes its socket when its last lane has closed, and frees
//     itself once the socket is closed. One that has numbered the lanes a
//     connection may carry (wire::kMaxLanesPerConnection) takes no more:
//     later clients get a new link.
//
// Loop thread only.
#pragma once

#include <sys/socket.h>
#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "daemon_address.h"
#include "trestle/event_loop.h"
#include "trestle/platform/uv_handle.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::internal {

class LaneLink final : public wire::FrameMux, private wire::FramedStream::Handler {
 public:
  // The link of `loop` to `address` (`resolved`: its socket address, for
  // TCP), connecting a new one if there is none or the last one is ending.
  static LaneLink& Link(EventLoop& loop, const DaemonAddress& address,
                        const sockaddr_storage& resolved);

  // Makes `stream` (built with Lane()'s number on this link) a lane of the
  // link: `connected(req, status)` runs from the loop once the socket is
  // connected (status 0) or failed (a libuv error).
  std::uint32_t NextLane() { return next_lane_++; }
  void Open(wire::FramedStream& stream, uv_connect_t* req, uv_connect_cb connected);

  // FrameMux
  void Write(const wire::Frame& frame, std::uint32_t lane) override;
  void Flush() override { socket_->Flush(); }
  std::size_t pending_bytes() const override { return socket_->pending_bytes(); }
  bool above_high_watermark() const override { return socket_->above_high_watermark(); }
  void PauseLane() override;
  void ResumeLane() override;
  void CloseLane(wire::FramedStream& stream) override;
  void SetMaxFrameBytes(std::uint32_t max_frame_bytes) override;

 private:
  LaneLink(EventLoop& loop, const DaemonAddress& address, const sockaddr_storage& resolved,
           std::string key);
  ~LaneLink() override;

  // FramedStream::Handler (the socket)
  void OnFrame(wire::FramedStream&, wire::Frame& frame) override;
  void OnStreamError(wire::FramedStream&, std::string_view what) override;
  void OnPeerClosed(wire::FramedStream&) override;
  void OnWritable(wire::FramedStream&) override;
  void OnClosed(wire::FramedStream&) override;

  static void OnConnected(uv_connect_t* req, int status);
  static void OnIdle(uv_idle_t* idle);
  // Runs what waits for the loop: connect callbacks and closed lanes.
  void RunDeferred();
  void Defer();
  // The socket is gone: every lane ends, and the link closes.
  void Fail(int status, std::string_view what, bool stream_error);
  // No lane left: the socket closes (the link goes from its OnClosed).
  void CloseIfIdle();
  void Forget();  // from the registry: later clients get a new link

  struct Opening {
    wire::FramedStream* stream;
    uv_connect_t* req;
    uv_connect_cb connected;
  };

  EventLoop& loop_;
  const std::string key_;  // in the registry
  wire::FramedStream* socket_;  // freed from OnClosed
  uv_connect_t connect_req_;
  platform::UvHandle<uv_idle_t> idle_;
  bool connected_ = false;
  int connect_status_ = 0;  // once connected_ or failed: the connect's status
  bool failed_ = false;
  bool closing_ = false;
  bool registered_ = true;
  std::uint32_t next_lane_ = 1;
  std::uint32_t lanes_pausing_ = 0;
  std::uint32_t max_frame_bytes_;
  absl::flat_hash_map<std::uint32_t, wire::FramedStream*> lanes_;
  std::vector<Opening> opening_;                // waiting for the socket
  std::vector<Opening> connected_calls_;        // to call back from the loop
  std::vector<wire::FramedStream*> closed_;     // OnClosed to run from the loop
};

}  // namespace trestle::internal
