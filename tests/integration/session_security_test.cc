// Issue 9, defect 3: session tokens could be predicted. They came from two
// splitmix64 streams, so a client could invert its own token, predict the
// next session's, and attach to that app's channels. Tokens are now 128
// random bits from the kernel; a second Attach for a channel already
// attached is refused and reported on the session's ctrl channel; and an
// Attach presents the auth token too, when the daemon requires one.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

// splitmix64's output function and its inverse.
std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t UnshiftXor(std::uint64_t y, int shift) {
  std::uint64_t x = y;
  for (int i = 0; i < 64 / shift + 1; ++i) x = y ^ (x >> shift);
  return x;
}

std::uint64_t Inverse(std::uint64_t c) {  // c odd: c * Inverse(c) == 1 mod 2^64
  std::uint64_t inv = c;
  for (int i = 0; i < 6; ++i) inv *= 2 - c * inv;
  return inv;
}

std::uint64_t Unmix(std::uint64_t z) {
  z = UnshiftXor(z, 31) * Inverse(0x94d049bb133111ebull);
  z = UnshiftXor(z, 27) * Inverse(0xbf58476d1ce4e5b9ull);
  return UnshiftXor(z, 30);
}

// The token the old daemon would hand out after `token` (two streams of
// 64 bits, each advanced by the golden gamma per token).
std::string PredictNext(const std::string& token) {
  constexpr std::uint64_t kGamma = 0x9e3779b97f4a7c15ull;
  const std::uint64_t hi = std::stoull(token.substr(0, 16), nullptr, 16);
  const std::uint64_t lo = std::stoull(token.substr(16, 16), nullptr, 16);
  char next[33];
  std::snprintf(next, sizeof next, "%016llx%016llx",
                static_cast<unsigned long long>(Mix(Unmix(hi) + kGamma)),
                static_cast<unsigned long long>(Mix(Unmix(lo) + kGamma)));
  return next;
}

TEST(SessionSecurity, TheInversionWorksOnSplitmix) {
  EXPECT_EQ(Unmix(Mix(0x0123456789abcdefull)), 0x0123456789abcdefull);
}

TEST(SessionSecurity, ATokenDoesNotRevealTheNextSessionsToken) {
  DaemonProcess daemon;
  RawConnection first(daemon.port());
  wire::Frame a = first.Hello("victim-before", wire::ROLE_APP);
  ASSERT_TRUE(a.has_welcome());
  const std::string mine = a.welcome().session_token();
  ASSERT_GE(mine.size(), 32u) << "at least 128 bits";
  EXPECT_EQ(mine.find_first_not_of("0123456789abcdef"), std::string::npos) << mine;

  RawConnection second(daemon.port());
  wire::Frame b = second.Hello("victim", wire::ROLE_APP);
  ASSERT_TRUE(b.has_welcome());
  EXPECT_NE(b.welcome().session_token(), PredictNext(mine))
      << "the next session's token was predicted from this one";
  EXPECT_NE(b.welcome().session_token(), mine);
}

TEST(SessionSecurity, ASecondAttachIsRefusedAndTheSessionIsTold) {
  DaemonProcess daemon;
  RawSession app(daemon.port(), "victim", wire::ROLE_APP);
  ASSERT_TRUE(app.ok);
  RawConnection intruder(daemon.port());
  wire::Frame f = intruder.Attach(app.welcome.session_token(), wire::CHANNEL_RECV);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::ALREADY_EXISTS);
  EXPECT_TRUE(intruder.WaitClosed());

  auto told = app.ctrl.ReadFrame(2000);
  ASSERT_TRUE(told.has_value() && told->has_error()) << "the session was not told";
  EXPECT_EQ(told->error().code(), wire::ALREADY_EXISTS);
  EXPECT_NE(told->error().text().find("a second Attach for this session's recv channel"),
            std::string::npos)
      << told->error().text();
  // The session carries on.
  EXPECT_EQ(app.ctrl.Stats().total().accepted(), 0u);
}

TEST(SessionSecurity, AttachPresentsTheAuthTokenWhenTheDaemonRequiresOne) {
  DaemonProcess daemon({"--auth-token", "s3cret"});
  RawConnection ctrl(daemon.port());
  wire::Frame w = ctrl.Hello("a", wire::ROLE_APP, "s3cret");
  ASSERT_TRUE(w.has_welcome());

  RawConnection without(daemon.port());
  wire::Frame f = without.Attach(w.welcome().session_token(), wire::CHANNEL_SEND);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::UNAUTHENTICATED);
  EXPECT_NE(f.error().text().find("Attach"), std::string::npos) << f.error().text();
  EXPECT_TRUE(without.WaitClosed());

  RawConnection wrong(daemon.port());
  f = wrong.Attach(w.welcome().session_token(), wire::CHANNEL_SEND, "guess");
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::UNAUTHENTICATED);

  RawConnection right(daemon.port());
  EXPECT_TRUE(right.Attach(w.welcome().session_token(), wire::CHANNEL_SEND, "s3cret")
                  .has_attached());
}

}  // namespace
}  // namespace trestle::testing
