// UvHandle<T>: owns one libuv handle (uv_timer_t, uv_poll_t, uv_idle_t,
// uv_prepare_t, uv_check_t, uv_async_t, uv_signal_t, uv_tcp_t, uv_pipe_t)
// on the heap, so that nobody closes one by hand.
//
// libuv frees a handle's memory only from its close callback or after it
// (docs/src/handle.rst, uv_close). The holder's Close() (and destructor)
// stops the handle (uv_close does), clears its data pointer, so that no
// callback of it finds its owner again, and hands the memory to the close
// callback, which frees it on the loop's next pass: the holder, and its
// owner, may go at any time after Close(), from inside one of the handle's
// own callbacks too. The loop must run once more before uv_loop_close (as
// the daemon's and the SDK's loops do when they stop).
//
//   platform::UvHandle<uv_timer_t> timer_;
//   if (int rc = timer_.Init(uv_timer_init, loop); rc != 0) return rc;
//   timer_->data = this;
//   uv_timer_start(timer_.get(), &Owner::OnTimer, 100, 0);
//
// Not for a handle whose close callback frees its owner (the owner lives
// until the handle is closed): a stream that frees itself once closed
// (wire::FramedStream, the bench's FloorStream), a daemon Session freed from
// its LongPolls timer's close callback, the Redis loop adapter's events.
// Those call uv_close themselves.
//
// Library trestle_platform_uv (header-only; it links libuv). Loop thread
// only, like the handle.
#pragma once

#include <uv.h>

#include <utility>

namespace trestle::platform {

template <typename T>
class UvHandle {
 public:
  UvHandle() = default;  // holds nothing
  ~UvHandle() { Close(); }
  UvHandle(UvHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  UvHandle& operator=(UvHandle&& other) noexcept {
    if (this != &other) {
      Close();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  UvHandle(const UvHandle&) = delete;
  UvHandle& operator=(const UvHandle&) = delete;

  // Allocates a handle and initialises it: `init(loop, handle, args...)`
  // (uv_timer_init, uv_poll_init with a descriptor, uv_async_init with a
  // callback...). Returns libuv's error code (no handle is kept) or 0. A
  // handle held before is closed first.
  template <typename... Params, typename... Args>
  int Init(int (*init)(uv_loop_t*, T*, Params...), uv_loop_t* loop, Args&&... args) {
    Close();
    T* handle = new T;
    if (const int rc = init(loop, handle, std::forward<Args>(args)...); rc != 0) {
      delete handle;  // never registered with the loop: no close needed
      return rc;
    }
    handle_ = handle;
    return 0;
  }

  // Closes the handle; its memory goes in the close callback. Nothing if
  // none is held.
  void Close() {
    T* handle = std::exchange(handle_, nullptr);
    if (handle == nullptr) return;
    handle->data = nullptr;
    uv_close(reinterpret_cast<uv_handle_t*>(handle),
             [](uv_handle_t* h) { delete reinterpret_cast<T*>(h); });
  }

  T* get() const { return handle_; }
  T* operator->() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  // The handle as the base type, for uv_ref, uv_unref and the like.
  uv_handle_t* base() const { return reinterpret_cast<uv_handle_t*>(handle_); }
  // The handle as a stream (uv_tcp_t, uv_pipe_t), for uv_listen, uv_accept.
  uv_stream_t* stream() const { return reinterpret_cast<uv_stream_t*>(handle_); }

 private:
  T* handle_ = nullptr;
};

}  // namespace trestle::platform
