// LoopTaskQueue: the one door from other threads (the gRPC admin service,
// the metrics HTTP server) into the event loop. Post() from any thread; the
// task runs on the loop thread, in order. Never blocks the loop: the loop
// only takes the queue's mutex for the swap of a vector.
#pragma once

#include <uv.h>

#include <functional>
#include <mutex>
#include <vector>

#include "trestle/platform/uv_handle.h"

namespace trestle::daemon {

class LoopTaskQueue {
 public:
  using Task = std::function<void()>;

  explicit LoopTaskQueue(uv_loop_t* loop);
  LoopTaskQueue(const LoopTaskQueue&) = delete;
  LoopTaskQueue& operator=(const LoopTaskQueue&) = delete;

  // Thread-safe. Returns false (and drops `task`) once Close() was called.
  bool Post(Task task);
  // Loop thread only. Later posts are refused; queued tasks are discarded.
  // The handle closes on the next loop pass.
  void Close();

 private:
  static void OnAsync(uv_async_t* async);

  platform::UvHandle<uv_async_t> async_;  // guarded by mu_ once other threads post
  std::mutex mu_;
  std::vector<Task> pending_;  // guarded by mu_
  bool closed_ = false;        // guarded by mu_
  std::vector<Task> running_;  // loop thread only
};

}  // namespace trestle::daemon
