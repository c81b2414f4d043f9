// Listeners: the daemon's data-path listening sockets (TCP, and optionally a
// Unix socket). Each accepted socket becomes a Connection owned by the
// daemon, handed over through `on_accept`.
//
// Loop thread only. Close() must be followed by loop iterations until the
// handles are closed.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "trestle/platform/uv_handle.h"
#include "trestle/wire/framed_stream.h"

namespace trestle::daemon {

class Listeners {
 public:
  // Called for each accepted socket, with the kind of stream to make of it;
  // the callee creates the stream and calls Accept().
  using AcceptCallback = std::function<void(uv_stream_t* server, wire::FramedStream::Kind kind)>;

  Listeners(uv_loop_t* loop, AcceptCallback on_accept)
      : loop_(loop), on_accept_(std::move(on_accept)) {}

  // Binds and listens on `address` (HOST:PORT; port 0 picks one). Errors
  // name the address.
  absl::Status ListenTcp(const std::string& address);
  // Listens on the Unix socket `path`, replacing a stale socket file left by
  // a daemon that died (any other file is left alone). Empty path: none.
  absl::Status ListenUnix(const std::string& path);
  void Close();

  std::uint16_t tcp_port() const { return tcp_port_; }

 private:
  static void OnConnection(uv_stream_t* server, int status);

  uv_loop_t* loop_;
  AcceptCallback on_accept_;
  platform::UvHandle<uv_tcp_t> tcp_;
  platform::UvHandle<uv_pipe_t> pipe_;
  std::string unix_path_;
  std::uint16_t tcp_port_ = 0;
};

}  // namespace trestle::daemon
