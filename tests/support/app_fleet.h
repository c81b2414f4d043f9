// Helpers for SDK-based integration tests: many apps on one EventLoop, and
// the daemon's counters once they have settled.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {

// Connects `n` apps named `id_prefix`0 .. `id_prefix`n-1 to `daemon`, all at
// once on `loop`; adds a test failure for any that does not connect.
inline std::vector<std::unique_ptr<AppClient>> ConnectApps(
    EventLoop& loop, const std::string& daemon, int n, DeliveryMode mode = DeliveryMode::kPush,
    bool shared_connection = false, const std::string& id_prefix = "app-") {
  std::vector<std::unique_ptr<AppClient>> apps;
  int ready = 0;
  int failed = 0;
  for (int i = 0; i < n; ++i) {
    ClientOptions options;
    options.daemon = daemon;
    options.client_id = absl::StrCat(id_prefix, i);
    options.mode = mode;
    options.shared_connection = shared_connection;
    apps.push_back(std::make_unique<AppClient>(loop, options));
    absl::Status s = apps.back()->ConnectAsync([&](absl::Status st) {
      (st.ok() ? ready : failed)++;
      EXPECT_TRUE(st.ok()) << st;
    });
    EXPECT_TRUE(s.ok()) << s;
  }
  EXPECT_TRUE(loop.RunUntil([&] { return ready + failed == n; }, std::chrono::seconds(20)));
  EXPECT_EQ(ready, n);
  return apps;
}

// The daemon's counters (through `app`) once `settled` holds for them, or
// the last ones read when `timeout` passes. Counters settle a little after
// the apps have their messages: a delivery counts at the app's Ack, which
// travels on another connection than the StatsRequest.
inline wire::StatsReply StatsWhen(AppClient& app,
                                  const std::function<bool(const wire::StatsReply&)>& settled,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  wire::StatsReply last;
  while (true) {
    absl::StatusOr<wire::StatsReply> stats = app.Stats(std::chrono::seconds(5));
    EXPECT_TRUE(stats.ok()) << stats.status();
    if (!stats.ok()) return last;
    last = *std::move(stats);
    if (settled(last) || std::chrono::steady_clock::now() >= deadline) return last;
    app.loop().RunFor(std::chrono::milliseconds(20));
  }
}

// Once nothing is in flight.
inline wire::StatsReply SettledStats(AppClient& app) {
  return StatsWhen(app, [](const wire::StatsReply& s) { return s.total().in_flight() == 0; });
}

}  // namespace trestle::testing
