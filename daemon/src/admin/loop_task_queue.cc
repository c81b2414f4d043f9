#include "admin/loop_task_queue.h"

#include <utility>

namespace trestle::daemon {

LoopTaskQueue::LoopTaskQueue(uv_loop_t* loop) {
  async_.Init(uv_async_init, loop, &LoopTaskQueue::OnAsync);
  async_->data = this;
  // The queue alone must not keep the loop alive.
  uv_unref(async_.base());
}

bool LoopTaskQueue::Post(Task task) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return false;
  pending_.push_back(std::move(task));
  // Under the lock: Close() cannot take the handle away meanwhile.
  uv_async_send(async_.get());
  return true;
}

void LoopTaskQueue::Close() {
  std::vector<Task> dropped;
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return;
  closed_ = true;
  dropped.swap(pending_);
  async_.Close();
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
