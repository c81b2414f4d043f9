#include "admin/loop_task_queue.h"

#include <utility>

namespace trestle::daemon {

LoopTaskQueue::LoopTaskQueue(uv_loop_t* loop) {
  uv_async_init(loop, &async_, &LoopTaskQueue::OnAsync);
  async_.data = this;
  // The queue alone must not keep the loop alive.
  uv_unref(reinterpret_cast<uv_handle_t*>(&async_));
}

bool LoopTaskQueue::Post(Task task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return false;
    pending_.push_back(std::move(task));
  }
  uv_async_send(&async_);
  return true;
}

void LoopTaskQueue::Close() {
  std::vector<Task> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return;
    closed_ = true;
    dropped.swap(pending_);
  }
  uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
}

void LoopTaskQueue::OnAsync(uv_async_t* async) {
  auto* self = static_cast<LoopTaskQueue*>(async->data);
  {
    std::lock_guard<std::mutex> lock(self->mu_);
    self->running_.swap(self->pending_);
  }
  for (Task& task : self->running_) task();
  self->running_.clear();
}

}  // namespace trestle::daemon
