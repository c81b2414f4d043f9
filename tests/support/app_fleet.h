// ConnectApps: many SDK apps on one EventLoop, for integration tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
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

}  // namespace trestle::testing
