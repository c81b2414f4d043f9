// FloorRelay: the floor's minimal relay (`trestle bench-floor-relay`, started
// by `trestle bench --floor`). It has the bridge's shape and nothing else:
// apps and one echo connect to it; it passes each app frame on to the echo
// and each frame the echo returns on to its destination app, stamping both
// as trestled stamps its messages (floor_frame.h). One libuv loop on one
// thread, frames flushed once per loop pass, like trestled; no protocol
// beyond the length prefix, no message table, no store, no accounting.
//
// A frame for an app whose hello has not arrived yet (or that came before
// the echo's hello) waits in the relay until it does. Frames for an app
// index that never connects stay there (the run's ledger reports them).
//
// Not thread-safe: use on the loop's thread. Close(), then run the loop
// (RunFor a millisecond) before destroying the relay.
#pragma once

#include <uv.h>

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "floor_flush_list.h"
#include "floor_stream.h"
#include "trestle/platform/socket_address.h"
#include "trestle/platform/uv_handle.h"

namespace trestle::bench {

class FloorRelay : private FloorStream::Handler {
 public:
  explicit FloorRelay(uv_loop_t* loop);
  FloorRelay(const FloorRelay&) = delete;
  FloorRelay& operator=(const FloorRelay&) = delete;

  // Listens on the numeric TCP address `tcp` (port 0: a free one) and, if
  // `unix_path` is not empty, on that Unix socket too. Returns the TCP port.
  // Errors name the address.
  absl::StatusOr<std::uint16_t> Listen(const platform::SocketAddress& tcp,
                                       const std::string& unix_path);
  // Closes the listeners and every connection.
  void Close();

 private:
  static void OnConnection(uv_stream_t* server, int status);
  void Accept(uv_stream_t* server, bool unix_socket);
  void OnFrame(FloorStream& stream, std::span<char> body) override;
  void OnClosed(FloorStream& stream) override;
  void OnHello(FloorStream& stream, std::span<const char> body);
  // Passes an app's frame to the echo (or keeps it until the echo is here).
  void ToEcho(std::span<char> body, std::uint64_t now);
  // Passes a frame from the echo to its app (or keeps it until the app is here).
  void ToApp(std::span<char> body);

  uv_loop_t* loop_;
  FloorFlushList flush_list_;
  platform::UvHandle<uv_tcp_t> tcp_listener_;
  platform::UvHandle<uv_pipe_t> unix_listener_;
  std::vector<FloorStream*> connections_;
  std::vector<FloorStream*> apps_;  // by app index; null until its hello
  FloorStream* echo_ = nullptr;
  // Whole frames (length prefix included) waiting for the echo or an app.
  std::string early_for_echo_;
  std::unordered_map<std::uint32_t, std::string> early_for_app_;
};

}  // namespace trestle::bench
