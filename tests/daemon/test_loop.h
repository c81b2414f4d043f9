// TestLoop: a private libuv loop for a unit test of the data plane. The
// session timers (LongPolls) live on it; Run() runs it until no timer is
// armed (every parked long-poll has timed out), RunUntil() until a condition
// holds. Its destructor runs the close
// callbacks of what was closed (sessions are freed from theirs) and checks
// that nothing was left open: declare it before anything that uses it.
#pragma once

#include <gtest/gtest.h>
#include <uv.h>

#include <cstdint>

namespace trestle::daemon {

class TestLoop {
 public:
  TestLoop() {
    uv_loop_init(&loop_);
    uv_update_time(&loop_);
  }
  ~TestLoop() {
    uv_run(&loop_, UV_RUN_DEFAULT);
    EXPECT_EQ(uv_loop_close(&loop_), 0) << "a handle was left open on the test loop";
  }
  TestLoop(const TestLoop&) = delete;
  TestLoop& operator=(const TestLoop&) = delete;

  uv_loop_t* get() { return &loop_; }
  std::uint64_t now_ms() const { return uv_now(&loop_); }
  // Runs until no handle is active (every armed timer has fired).
  void Run() { uv_run(&loop_, UV_RUN_DEFAULT); }
  // Runs one pass at a time until `done()`, or until nothing is left to run.
  template <typename Done>
  void RunUntil(Done done) {
    while (!done() && uv_run(&loop_, UV_RUN_ONCE) != 0) {
    }
  }

 private:
  uv_loop_t loop_;
};

}  // namespace trestle::daemon
