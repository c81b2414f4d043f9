// trestle::EventLoop: the libuv loop that drives Trestle clients.
//
// Every AppClient and SimClient is driven by an EventLoop. Nothing happens on
// a client's connections unless someone runs its loop: either the owner calls
// Run/RunFor/RunUntil, or a blocking client call (Connect, Send above the
// high watermark, Receive, Fetch, Ping, Stats, Flush, Close) runs the loop on
// the calling thread until the call is done or times out. Because a blocking
// call runs the whole loop, every client sharing the loop keeps making
// progress during it: thousands of clients can live in one process on one
// thread. The loop never spins: it sleeps in epoll with a timer as deadline.
//
// Threading: an EventLoop and all clients on it belong to one thread, the one
// that runs the loop. The only call allowed from another thread is Stop().
//
// Reentrancy: libuv loops cannot be run from inside their own callbacks. Code
// running inside a loop callback (OnMessage, OnTransits, OnError, a connect
// callback) must not make blocking calls; those calls return
// absl::FailedPreconditionError there instead of waiting (see each method).
//
// Signals: creating an EventLoop sets SIGPIPE to SIG_IGN if it still has the
// default action, so that writing to a connection the daemon closed fails
// with EPIPE (reported as kUnavailable) instead of killing the process.
//
// Lifetime: the loop must outlive every client attached to it. Destroying the
// loop finishes the asynchronous close of connections of destroyed clients.
#pragma once

#include <uv.h>

#include <chrono>
#include <functional>
#include <memory>

namespace trestle {

namespace internal {
class LoopPassHook;
}  // namespace internal

namespace wire {
class FlushQueue;
}  // namespace wire

class EventLoop {
 public:
  EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;
  ~EventLoop();

  // Runs the loop until Stop() is called (from a callback, a signal set up
  // with StopOnSignal, or another thread). Returns at once if Stop() was
  // called since the last Run returned; returns at once, doing nothing, when
  // called from inside a loop callback.
  void Run();
  // Makes Run() return. Thread-safe and async-signal-safe.
  void Stop();
  // Runs the loop for `duration`, then returns.
  void RunFor(std::chrono::milliseconds duration);
  // Runs the loop until `done()` returns true (checked after every loop
  // iteration) or `timeout` passes. Returns done(). Called from inside a loop
  // callback it does not run the loop and just returns done().
  bool RunUntil(const std::function<bool()>& done,
                std::chrono::milliseconds timeout);

  // Makes Run() return when the process receives `signum` (e.g. SIGINT).
  // The signal handler stays installed until the loop is destroyed.
  void StopOnSignal(int signum);
  // The last signal that stopped Run() through StopOnSignal, 0 if none.
  int stop_signal() const;

  // True while the loop is running, i.e. when called from a loop callback.
  bool in_loop() const;

  // The underlying libuv loop, for callers that add their own handles. They
  // must close those handles before destroying the EventLoop.
  uv_loop_t* uv_loop();

  // Internal to the SDK: the loop's write batching and per-pass hooks.
  wire::FlushQueue* flush_queue();
  void ScheduleBeforeSleep(internal::LoopPassHook* hook);
  void CancelBeforeSleep(internal::LoopPassHook* hook);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

namespace internal {
// Work that must run once per loop pass, just before the loop sleeps and
// before queued frames are flushed (e.g. closing an outcome batch).
class LoopPassHook {
 public:
  virtual void BeforeLoopSleeps() = 0;

 protected:
  ~LoopPassHook() = default;
};
}  // namespace internal

}  // namespace trestle
