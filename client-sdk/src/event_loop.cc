#include "trestle/event_loop.h"

#include <signal.h>

#include <atomic>
#include <vector>

#include "trestle/platform/uv_handle.h"
#include "trestle/wire/framed_stream.h"

namespace trestle {

struct EventLoop::Impl {
  uv_loop_t loop;
  std::unique_ptr<wire::FlushQueue> flush_queue;
  // Runs the per-pass hooks and then flushes every stream, just before the
  // loop blocks in epoll. Our own prepare handle (rather than relying on the
  // order of FlushQueue's) guarantees that frames produced by a hook leave
  // in the same pass.
  platform::UvHandle<uv_prepare_t> prepare;
  platform::UvHandle<uv_timer_t> deadline;  // bounds RunUntil
  platform::UvHandle<uv_async_t> wakeup;    // Stop() from any thread
  std::vector<platform::UvHandle<uv_signal_t>> signals;
  std::vector<internal::LoopPassHook*> hooks;
  std::vector<internal::LoopPassHook*> running_hooks;
  std::atomic<bool> stop_requested{false};
  int stop_signal = 0;
  int depth = 0;
  bool timed_out = false;
  const std::function<bool()>* done = nullptr;  // RunUntil's condition

  static void OnPrepare(uv_prepare_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    // Hooks may schedule themselves again while running (for the next pass).
    self->running_hooks.swap(self->hooks);
    for (std::size_t i = 0; i < self->running_hooks.size(); ++i) {
      if (internal::LoopPassHook* hook = self->running_hooks[i]) hook->BeforeLoopSleeps();
    }
    self->running_hooks.clear();
    self->flush_queue->FlushAll();
    // The poll that follows would block (possibly with no timer left) even
    // though a timer or pending callback of this pass already finished the
    // caller's wait: make it return at once instead.
    if (self->timed_out || self->stop_requested.load() ||
        (self->done != nullptr && (*self->done)())) {
      uv_stop(&self->loop);
    }
  }
  static void OnDeadline(uv_timer_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    self->timed_out = true;
    uv_stop(&self->loop);
  }
  static void OnWakeup(uv_async_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    if (self->stop_requested.load()) uv_stop(&self->loop);
  }
  static void OnSignal(uv_signal_t* handle, int signum) {
    auto* self = static_cast<Impl*>(handle->data);
    self->stop_signal = signum;
    self->stop_requested.store(true);
    uv_stop(&self->loop);
  }
};

namespace {

// libuv writes with write(2), which raises SIGPIPE when the peer has closed
// the socket (a daemon that exited, say); the default action would kill the
// application. Ignore it, so the write fails with EPIPE and the SDK reports
// a lost connection, unless the application installed its own handler.
void IgnoreSigpipeUnlessHandled() {
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
    signal(SIGPIPE, SIG_IGN);
  }
}

}  // namespace

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {
  IgnoreSigpipeUnlessHandled();
  Impl& s = *impl_;
  uv_loop_init(&s.loop);
  s.flush_queue = std::make_unique<wire::FlushQueue>(&s.loop);
  s.prepare.Init(uv_prepare_init, &s.loop);
  s.prepare->data = impl_.get();
  uv_prepare_start(s.prepare.get(), &Impl::OnPrepare);
  uv_unref(s.prepare.base());
  s.deadline.Init(uv_timer_init, &s.loop);
  s.deadline->data = impl_.get();
  s.wakeup.Init(uv_async_init, &s.loop, &Impl::OnWakeup);
  s.wakeup->data = impl_.get();
  uv_unref(s.wakeup.base());
}

EventLoop::~EventLoop() {
  Impl& s = *impl_;
  s.flush_queue->Close();
  s.prepare.Close();
  s.deadline.Close();
  s.wakeup.Close();
  s.signals.clear();
  // Connections of destroyed clients finish closing here (their close
  // callbacks free them).
  uv_run(&s.loop, UV_RUN_DEFAULT);
  if (uv_loop_close(&s.loop) == UV_EBUSY) {
    // Handles someone forgot: close them so the loop can be released.
    uv_walk(
        &s.loop,
        [](uv_handle_t* h, void*) {
          if (!uv_is_closing(h)) uv_close(h, nullptr);
        },
        nullptr);
    uv_run(&s.loop, UV_RUN_DEFAULT);
    uv_loop_close(&s.loop);
  }
}

void EventLoop::Run() {
  Impl& s = *impl_;
  if (s.depth > 0) return;
  // The wakeup handle keeps uv_run from returning when no client is busy.
  uv_ref(s.wakeup.base());
  ++s.depth;
  while (!s.stop_requested.load()) uv_run(&s.loop, UV_RUN_DEFAULT);
  --s.depth;
  uv_unref(s.wakeup.base());
  s.stop_requested.store(false);
}

void EventLoop::Stop() {
  impl_->stop_requested.store(true);
  uv_async_send(impl_->wakeup.get());
}

void EventLoop::RunFor(std::chrono::milliseconds duration) {
  RunUntil([] { return false; }, duration);
}

bool EventLoop::RunUntil(const std::function<bool()>& done,
                         std::chrono::milliseconds timeout) {
  Impl& s = *impl_;
  if (done()) return true;
  if (s.depth > 0) return false;  // libuv loops are not reentrant
  const auto ms = timeout.count() < 0 ? 0 : static_cast<std::uint64_t>(timeout.count());
  s.timed_out = false;
  uv_update_time(&s.loop);
  uv_timer_start(s.deadline.get(), &Impl::OnDeadline, ms, 0);
  ++s.depth;
  s.done = &done;
  bool ok = false;
  for (;;) {
    // Blocks in epoll until some I/O or timer (at worst the deadline) fires.
    uv_run(&s.loop, UV_RUN_ONCE);
    if (done()) {
      ok = true;
      break;
    }
    if (s.timed_out) break;
  }
  --s.depth;
  s.done = nullptr;
  uv_timer_stop(s.deadline.get());
  return ok;
}

void EventLoop::StopOnSignal(int signum) {
  Impl& s = *impl_;
  platform::UvHandle<uv_signal_t>& sig = s.signals.emplace_back();
  sig.Init(uv_signal_init, &s.loop);
  sig->data = impl_.get();
  uv_signal_start(sig.get(), &Impl::OnSignal, signum);
  // A signal handler alone must not keep RunUntil-style runs alive.
  uv_unref(sig.base());
}

int EventLoop::stop_signal() const { return impl_->stop_signal; }

bool EventLoop::in_loop() const { return impl_->depth > 0; }

uv_loop_t* EventLoop::uv_loop() { return &impl_->loop; }

wire::FlushQueue* EventLoop::flush_queue() { return impl_->flush_queue.get(); }

void EventLoop::ScheduleBeforeSleep(internal::LoopPassHook* hook) {
  impl_->hooks.push_back(hook);
}

void EventLoop::CancelBeforeSleep(internal::LoopPassHook* hook) {
  for (auto* list : {&impl_->hooks, &impl_->running_hooks}) {
    for (auto& h : *list) {
      if (h == hook) h = nullptr;
    }
  }
}

}  // namespace trestle
