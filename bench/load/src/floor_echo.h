// FloorEcho: the floor's stand-in for the ghost simulator (`trestle
// bench-floor-echo`, started by `trestle bench --floor`). It connects to the
// floor relay, says hello as the echo, and returns every frame at once with
// its echo_posted stamp, as the ghost posts every transit back at once. One
// libuv loop on one thread; frames flushed once per loop pass.
//
// Not thread-safe: use on the loop's thread. Close(), then run the loop
// (RunFor a millisecond) before destroying the echo.
#pragma once

#include <uv.h>

#include <functional>
#include <span>

#include "absl/status/status.h"
#include "floor_flush_list.h"
#include "floor_stream.h"
#include "trestle/platform/socket_address.h"

namespace trestle::bench {

class FloorEcho : private FloorStream::Handler {
 public:
  explicit FloorEcho(uv_loop_t* loop);
  FloorEcho(const FloorEcho&) = delete;
  FloorEcho& operator=(const FloorEcho&) = delete;

  // Connects to the relay and queues the hello. `connected` runs once, on
  // the loop, with the outcome; `lost` runs if the relay closes the
  // connection later. Call once.
  void Connect(const platform::SocketAddress& relay,
               std::function<void(const absl::Status&)> connected, std::function<void()> lost);
  void Close();

 private:
  void OnFrame(FloorStream& stream, std::span<char> body) override;
  void OnClosed(FloorStream& stream) override;

  uv_loop_t* loop_;
  FloorFlushList flush_list_;
  FloorStream* stream_ = nullptr;
  std::function<void()> lost_;
};

}  // namespace trestle::bench
