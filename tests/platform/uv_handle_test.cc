// UvHandle: a handle closed by its holder (even from inside its own
// callback) leaves a loop that closes cleanly; a failed Init keeps nothing.
#include "trestle/platform/uv_handle.h"

#include <gtest/gtest.h>

#include <memory>

namespace trestle::platform {
namespace {

class UvHandleTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(uv_loop_init(&loop_), 0); }
  void TearDown() override {
    uv_run(&loop_, UV_RUN_DEFAULT);  // the close callbacks free the handles
    EXPECT_EQ(uv_loop_close(&loop_), 0) << "a handle was left open";
  }
  uv_loop_t loop_;
};

TEST_F(UvHandleTest, ATimerRunsAndItsHolderClosesIt) {
  int fired = 0;
  {
    UvHandle<uv_timer_t> timer;
    ASSERT_EQ(timer.Init(uv_timer_init, &loop_), 0);
    ASSERT_TRUE(timer);
    timer->data = &fired;
    uv_timer_start(timer.get(), [](uv_timer_t* t) { ++*static_cast<int*>(t->data); }, 0, 0);
    uv_run(&loop_, UV_RUN_DEFAULT);
  }
  EXPECT_EQ(fired, 1);
}

TEST_F(UvHandleTest, AnOwnerMayGoFromInsideItsHandlesCallback) {
  struct Owner {
    UvHandle<uv_timer_t> timer;
    int* fired;
  };
  int fired = 0;
  auto* owner = new Owner{{}, &fired};
  ASSERT_EQ(owner->timer.Init(uv_timer_init, &loop_), 0);
  owner->timer->data = owner;
  // A repeating timer whose callback deletes its owner: the handle is
  // closed, stops repeating, and is freed on the next pass.
  uv_timer_start(
      owner->timer.get(),
      [](uv_timer_t* t) {
        auto* self = static_cast<Owner*>(t->data);
        ++*self->fired;
        delete self;
      },
      0, 1);
  uv_run(&loop_, UV_RUN_DEFAULT);
  EXPECT_EQ(fired, 1);
}

TEST_F(UvHandleTest, AnUnreferencedAsyncHandleDoesNotKeepTheLoopAlive) {
  UvHandle<uv_async_t> async;
  ASSERT_EQ(async.Init(uv_async_init, &loop_, [](uv_async_t*) {}), 0);
  uv_unref(async.base());
  EXPECT_EQ(uv_run(&loop_, UV_RUN_DEFAULT), 0);
  UvHandle<uv_async_t> moved = std::move(async);
  EXPECT_FALSE(async);
  EXPECT_TRUE(moved);
  moved.Close();
  EXPECT_FALSE(moved);
  moved.Close();  // twice: nothing
}

TEST_F(UvHandleTest, AFailedInitKeepsNothing) {
  UvHandle<uv_poll_t> poll;
  EXPECT_EQ(poll.Init(uv_poll_init, &loop_, -1), UV_EBADF);
  EXPECT_FALSE(poll);
}

}  // namespace
}  // namespace trestle::platform
