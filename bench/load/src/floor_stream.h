// FloorStream: one connection of the floor relay (`trestle bench --floor`):
// a libuv TCP or Unix stream carrying length-prefixed frames (floor_frame.h).
//
// Reading: reads land in one scratch buffer per thread; whole frames are
// handed to the Handler as mutable bytes (valid during the call, so the
// relay can stamp them in place and copy them on); only a frame cut by a
// read boundary is kept per stream.
//
// Writing: Write() appends a frame to the output and lists the stream in its
// FloorFlushList, which writes everything queued just before the loop sleeps
// (uv_try_write, then uv_write for what the kernel did not take). Nothing is
// dropped; pending_bytes() lets a producer stop.
//
// Lifetime: created with new, freed by itself: Close() (or a broken
// connection, after Handler::OnClosed) closes the handle and deletes the
// stream in the close callback. Not thread-safe: one loop thread.
#pragma once

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "trestle/platform/socket_address.h"

namespace trestle::bench {

class FloorFlushList;

class FloorStream {
 public:
  class Handler {
   public:
    virtual ~Handler() = default;
    // A whole frame's body; valid only during the call.
    virtual void OnFrame(FloorStream& stream, std::span<char> body) = 0;
    // The peer closed, the connection broke or a frame was over
    // kFloorMaxBody. The stream is closing; it is freed after this returns.
    virtual void OnClosed(FloorStream& stream) = 0;
  };

  // A stream for a Unix socket (`unix_socket`) or TCP, not yet connected;
  // `flush_list` must outlive it.
  FloorStream(uv_loop_t* loop, bool unix_socket, FloorFlushList* flush_list);
  FloorStream(const FloorStream&) = delete;
  FloorStream& operator=(const FloorStream&) = delete;

  uv_stream_t* handle() { return reinterpret_cast<uv_stream_t*>(&handle_); }
  void set_handler(Handler* handler) { handler_ = handler; }

  // Connects to `address` (numeric host or Unix path); `done` gets 0 or a
  // libuv error code. Only for a stream that is not connected.
  void Connect(const platform::SocketAddress& address, std::function<void(int status)> done);
  // Starts handing frames to the handler. Returns a libuv error code.
  int StartReading();

  // Queues one frame whose body is `head` followed by `tail`.
  void Write(std::span<const char> head, std::span<const char> tail = {});
  std::size_t pending_bytes() const { return pending_.size() + inflight_.size(); }
  // Writes what is queued, as far as the kernel takes it (FloorFlushList).
  void Flush();

  // Closes the handle; the stream deletes itself once it is closed.
  void Close();
  bool closing() const { return closing_; }

  // The identity from the peer's hello; kUnknown until then.
  static constexpr std::uint32_t kUnknown = 0xfffffffeu;
  std::uint32_t identity = kUnknown;

 private:
  static void OnAlloc(uv_handle_t* h, std::size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf);
  static void OnWritten(uv_write_t* req, int status);
  static void OnConnected(uv_connect_t* req, int status);

  // Hands the whole frames at the start of `data` to the handler; returns
  // the bytes used. Stops early (returning what it used) once closing.
  std::size_t Dispatch(char* data, std::size_t size);
  void Fail();

  union {
    uv_tcp_t tcp;
    uv_pipe_t pipe;
  } handle_;
  uv_write_t write_req_{};
  uv_connect_t connect_req_{};
  std::function<void(int)> on_connected_;
  Handler* handler_ = nullptr;
  FloorFlushList* flush_list_;
  std::string partial_;   // a frame cut by a read boundary
  std::string pending_;   // frames not yet handed to the kernel
  std::string inflight_;  // bytes of the uv_write in progress
  bool writing_ = false;
  bool listed_ = false;   // in flush_list_
  bool closing_ = false;
};

}  // namespace trestle::bench
