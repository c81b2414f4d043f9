// RaiseOpenFileLimit: up to what was asked, never down, and as far as the
// hard limit allows when the process may not raise it.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "trestle/platform/open_file_limit.h"

namespace trestle::platform {
namespace {

rlimit Current() {
  rlimit lim{};
  getrlimit(RLIMIT_NOFILE, &lim);
  return lim;
}

class RaiseOpenFileLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = Current();
    ASSERT_GE(saved_.rlim_max, 512u) << "this test needs a hard limit of at least 512";
    rlimit low = saved_;
    low.rlim_cur = 256;
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  }
  void TearDown() override { setrlimit(RLIMIT_NOFILE, &saved_); }
  rlimit saved_{};
};

TEST_F(RaiseOpenFileLimitTest, RaisesTheSoftLimitToWhatIsNeeded) {
  EXPECT_EQ(RaiseOpenFileLimit(400), 400u);
  EXPECT_EQ(Current().rlim_cur, 400u);
  EXPECT_EQ(Current().rlim_max, saved_.rlim_max) << "the hard limit was high enough";
}

TEST_F(RaiseOpenFileLimitTest, NeverLowersIt) {
  EXPECT_EQ(RaiseOpenFileLimit(100), 256u);
  EXPECT_EQ(Current().rlim_cur, 256u);
}

TEST_F(RaiseOpenFileLimitTest, AboveTheHardLimitGoesAsFarAsAllowed) {
  const std::uint64_t wanted = saved_.rlim_max + 1000;
  const std::uint64_t got = RaiseOpenFileLimit(wanted);
  EXPECT_EQ(got, Current().rlim_cur) << "returns the limit in force";
  // With CAP_SYS_RESOURCE all of it, without it the old hard limit.
  EXPECT_TRUE(got == wanted || got == saved_.rlim_max) << got;
}

}  // namespace
}  // namespace trestle::platform
