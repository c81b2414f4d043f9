// Issue 9, defect 5: the client registry never shrank. Every id that said
// Hello, and every destination a Send named, kept an entry (and its memory)
// for the daemon's life. Now an entry that no session and no message refers
// to is freed; and one app may name only max_absent_destinations
// destinations that are not connected.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "trestle/wire/frame_encoder.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;

// Registry entries (apps and simulators) the daemon reports, seen from `c`.
int Entries(RawConnection& c) {
  wire::StatsReply s = c.Stats();
  EXPECT_EQ(s.next_client(), 0u) << "more than one page";
  return s.clients_size();
}

// gcc names ASan with a macro, clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define TRESTLE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TRESTLE_UNDER_ASAN 1
#endif
#endif
#if defined(TRESTLE_UNDER_ASAN)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif

// The daemon's resident memory in kB.
long RssKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

template <typename Done>
bool Eventually(Done done, milliseconds timeout = milliseconds(10'000)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return true;
}

TEST(Registry, ClientsThatComeAndGoLeaveNoEntriesBehind) {
  DaemonProcess daemon({"--session-linger-ms", "0"});
  RawSession observer(daemon.port(), "observer", wire::ROLE_APP);
  ASSERT_TRUE(observer.ok);
  for (int i = 0; i < 2000; ++i) {
    RawConnection c(daemon.port());
    ASSERT_TRUE(c.Hello(absl::StrCat("passer-", i), i % 2 ? wire::ROLE_APP : wire::ROLE_SIM)
                    .has_welcome());
  }  // each closes without Bye
  EXPECT_TRUE(Eventually([&] { return Entries(observer.ctrl) == 1; }))
      << Entries(observer.ctrl) << " entries left after 2,000 clients came and went";
}

TEST(Registry, EntriesOfAbsentDestinationsGoWhenTheirMessagesExpire) {
  constexpr int kNames = 20'000;
  DaemonProcess daemon({"--delivery-ttl-ms", "500", "--max-absent-destinations", "100000"});
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession app(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && app.ok);
  const long rss_before = RssKb(daemon.pid());
  std::string bytes;
  for (int i = 0; i < kNames; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst(absl::StrCat("nobody-", i, std::string(100, 'x')));
    f.mutable_send()->set_payload(std::string(64, 'p'));
    wire::AppendFrame(f, &bytes);
  }
  app.send.WriteBytes(bytes);
  ASSERT_EQ(AnswerTransits(sim, kNames), kNames);
  const long rss_peak = RssKb(daemon.pid());
  ASSERT_TRUE(Eventually([&] { return app.ctrl.Stats().total().expired() == kNames; }))
      << app.ctrl.Stats().total().DebugString();
  EXPECT_TRUE(Eventually([&] { return Entries(app.ctrl) == 2; }))
      << Entries(app.ctrl) << " entries left after every message to an absent name expired";
  // ASan's allocator keeps freed memory in quarantine and ignores
  // malloc_trim: the daemon's RSS says nothing about what it gave back.
  if (kUnderAsan) return;
  // The daemon gives the room back on its next housekeeping pass.
  long rss_after = RssKb(daemon.pid());
  Eventually([&] {
    rss_after = RssKb(daemon.pid());
    return rss_after - rss_before < (rss_peak - rss_before) / 2;
  });
  EXPECT_LT(rss_after - rss_before, (rss_peak - rss_before) / 2)
      << "kB: " << rss_before << " before, " << rss_peak << " at the peak, " << rss_after
      << " after every message expired";
}

TEST(Registry, AnAppMayNameOnlySoManyAbsentDestinations) {
  DaemonProcess daemon({"--max-absent-destinations", "5", "--delivery-ttl-ms", "300"});
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession app(daemon.port(), "a", wire::ROLE_APP);
  RawSession present(daemon.port(), "b", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && app.ok && present.ok);
  auto send = [&](const std::string& dst) {
    wire::Frame f;
    f.mutable_send()->set_dst(dst);
    f.mutable_send()->set_payload("x");
    app.send.WriteFrame(f);
  };
  for (int i = 0; i < 5; ++i) send(absl::StrCat("absent-", i));
  send("absent-0");  // the same name again costs nothing more
  send("absent-5");
  auto error = app.send.ReadFrame(2000);
  ASSERT_TRUE(error.has_value() && error->has_error()) << "the sixth absent name was accepted";
  EXPECT_EQ(error->error().code(), wire::RESOURCE_EXHAUSTED);
  EXPECT_NE(error->error().text().find("max_absent_destinations"), std::string::npos)
      << error->error().text();
  EXPECT_NE(error->error().text().find("'absent-5'"), std::string::npos) << error->error().text();
  send("b");  // a connected app is always fine
  EXPECT_FALSE(app.send.ReadFrame(300).has_value());
  EXPECT_EQ(AnswerTransits(sim, 7), 7);
  // Once what waited for them expired, the app may name new ones.
  ASSERT_TRUE(Eventually([&] { return app.ctrl.Stats().total().expired() == 6; }));
  send("absent-6");
  EXPECT_FALSE(app.send.ReadFrame(300).has_value()) << "still refused after the others expired";
  const wire::Counters t = app.ctrl.Stats().total();
  EXPECT_EQ(t.accepted(), 8u);
  EXPECT_EQ(t.rejected(), 1u);
}

}  // namespace
}  // namespace trestle::testing
