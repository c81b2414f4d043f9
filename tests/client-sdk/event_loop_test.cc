#include "trestle/event_loop.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <time.h>

#include <chrono>
#include <thread>

#include "trestle/platform/uv_handle.h"
#include "trestle/wire/framed_stream.h"

namespace trestle {
namespace {

using std::chrono::milliseconds;

double ProcessCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct OneShotTimer {
  OneShotTimer(EventLoop& loop, std::uint64_t ms, std::function<void()> fn) : fn(std::move(fn)) {
    timer.Init(uv_timer_init, loop.uv_loop());
    timer->data = this;
    uv_timer_start(
        timer.get(), [](uv_timer_t* t) { static_cast<OneShotTimer*>(t->data)->fn(); }, ms, 0);
  }
  platform::UvHandle<uv_timer_t> timer;
  std::function<void()> fn;
};

// A referenced timer that never fires: it keeps the loop alive.
platform::UvHandle<uv_timer_t> IdleForever(EventLoop& loop) {
  platform::UvHandle<uv_timer_t> timer;
  timer.Init(uv_timer_init, loop.uv_loop());
  uv_timer_start(timer.get(), [](uv_timer_t*) {}, 3'600'000, 0);
  return timer;
}

TEST(EventLoopTest, RunUntilReturnsTrueAsSoonAsDone) {
  EventLoop loop;
  bool fired = false;
  {
    OneShotTimer t(loop, 10, [&] { fired = true; });
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(loop.RunUntil([&] { return fired; }, milliseconds(5000)));
    EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(1000));
  }
}

TEST(EventLoopTest, RunUntilTimesOutWithoutSpinning) {
  EventLoop loop;
  const double cpu_before = ProcessCpuMs();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(loop.RunUntil([] { return false; }, milliseconds(200)));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, milliseconds(195));
  EXPECT_LT(elapsed, milliseconds(2000));
  // Sleeping in epoll costs next to no CPU; a polling loop would burn 200 ms.
  EXPECT_LT(ProcessCpuMs() - cpu_before, 50.0);
}

TEST(EventLoopTest, RunUntilWithZeroTimeoutDoesNotBlock) {
  EventLoop loop;
  // An active, referenced handle that never fires: without care, a 0 ms
  // deadline that fires before the poll would leave epoll to wait forever.
  platform::UvHandle<uv_timer_t> idle_forever = IdleForever(loop);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(loop.RunUntil([] { return false; }, milliseconds(0)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(500));
}

TEST(EventLoopTest, ConditionMetInATimerCallbackEndsTheWaitWithoutAnotherEvent) {
  EventLoop loop;
  platform::UvHandle<uv_timer_t> idle_forever = IdleForever(loop);
  bool fired = false;
  {
    OneShotTimer t(loop, 5, [&] { fired = true; });
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(loop.RunUntil([&] { return fired; }, milliseconds(3000)));
    EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(1000));
  }
}

TEST(EventLoopTest, RunReturnsAfterStopFromACallback) {
  EventLoop loop;
  {
    OneShotTimer t(loop, 5, [&] { loop.Stop(); });
    loop.Run();
  }
}

TEST(EventLoopTest, StopFromAnotherThreadEndsRun) {
  EventLoop loop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(20));
    loop.Stop();
  });
  const auto start = std::chrono::steady_clock::now();
  loop.Run();
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(2000));
}

TEST(EventLoopTest, BlockingWaitsInsideCallbacksDoNotNest) {
  EventLoop loop;
  bool inner_result = true;
  bool in_loop_seen = false;
  {
    OneShotTimer t(loop, 1, [&] {
      in_loop_seen = loop.in_loop();
      inner_result = loop.RunUntil([] { return false; }, milliseconds(1000));
      loop.Stop();
    });
    EXPECT_FALSE(loop.in_loop());
    loop.Run();
  }
  EXPECT_TRUE(in_loop_seen);
  EXPECT_FALSE(inner_result);
}

class CountingHook : public internal::LoopPassHook {
 public:
  void BeforeLoopSleeps() override { ++runs; }
  int runs = 0;
};

TEST(EventLoopTest, BeforeSleepHookRunsOncePerScheduling) {
  EventLoop loop;
  CountingHook hook;
  loop.ScheduleBeforeSleep(&hook);
  loop.RunFor(milliseconds(20));
  EXPECT_EQ(hook.runs, 1);
  loop.ScheduleBeforeSleep(&hook);
  loop.CancelBeforeSleep(&hook);
  loop.RunFor(milliseconds(20));
  EXPECT_EQ(hook.runs, 1);
}

TEST(EventLoopTest, StopOnSignalStopsRunAndRecordsTheSignal) {
  EventLoop loop;
  loop.StopOnSignal(SIGUSR1);
  std::thread killer([] {
    std::this_thread::sleep_for(milliseconds(20));
    raise(SIGUSR1);
  });
  loop.Run();
  killer.join();
  EXPECT_EQ(loop.stop_signal(), SIGUSR1);
}

TEST(EventLoopTest, IgnoresSigpipeUnlessTheApplicationHandlesIt) {
  // Regression: a Bye written to a daemon that had exited killed the app.
  signal(SIGPIPE, SIG_DFL);
  { EventLoop loop; }
  struct sigaction current {};
  sigaction(SIGPIPE, nullptr, &current);
  EXPECT_EQ(current.sa_handler, SIG_IGN);

  static int handled = 0;
  signal(SIGPIPE, [](int) { ++handled; });
  { EventLoop loop; }
  sigaction(SIGPIPE, nullptr, &current);
  EXPECT_NE(current.sa_handler, SIG_IGN);  // the application's handler stays
  signal(SIGPIPE, SIG_IGN);
}

}  // namespace
}  // namespace trestle
