// Abuse, routinely: what a hostile or careless client can throw at trestled
// while other clients work. Each case checks that the bystanders are still
// served, exactly once, and that the counters balance. (Other abuse cases
// have suites of their own: slow readers in slow_app_test, oversized names
// and batches in frame_limits_test, a Redis restart in redis_store_test, a
// daemon killed under load in dead_daemon_test, predicted tokens in
// session_security_test, strangers' frames in handshake_limits_test.)
#include <gtest/gtest.h>
#include <dirent.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;

// Open file descriptors of `pid`.
int OpenFiles(pid_t pid) {
  int n = 0;
  if (DIR* d = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str())) {
    while (readdir(d) != nullptr) ++n;
    closedir(d);
  }
  return n - 2;  // . and ..
}

// Two apps and a simulator that exchange `count` messages while the abuse
// goes on; Check() says whether every one arrived once and the counts balance.
class Bystanders {
 public:
  explicit Bystanders(std::uint16_t port)
      : sim_(port, "bystander-sim", wire::ROLE_SIM),
        a_(port, "bystander-a", wire::ROLE_APP),
        b_(port, "bystander-b", wire::ROLE_APP) {}
  bool ok() const { return sim_.ok && a_.ok && b_.ok; }

  void Exchange(int count) {
    for (int i = 0; i < count; ++i) {
      wire::Frame f;
      f.mutable_send()->set_dst("bystander-b");
      f.mutable_send()->set_payload(absl::StrCat("m", sent_++));
      a_.send.WriteFrame(f);
    }
    EXPECT_EQ(AnswerTransits(sim_, count), count) << "the simulator was not served";
    int got = 0;
    while (got < count) {
      auto batch = b_.recv.ReadFrame(3000);
      ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << got << " of " << count;
      for (const auto& d : batch->deliveries().deliveries()) {
        EXPECT_TRUE(payloads_.insert(d.payload()).second) << "duplicate " << d.payload();
        ++got;
      }
    }
  }

  void Check() {
    EXPECT_EQ(payloads_.size(), static_cast<std::size_t>(sent_));
    const wire::StatsReply s = a_.ctrl.Stats();
    ExpectBalanced(s);
    for (const auto& c : s.clients()) {
      if (c.client_id() == "bystander-a") {
        EXPECT_EQ(c.counters().delivered(), static_cast<std::uint64_t>(sent_));
      }
    }
  }

 private:
  RawSession sim_;
  RawSession a_;
  RawSession b_;
  int sent_ = 0;
  std::set<std::string> payloads_;
};

TEST(Abuse, AThousandSilentConnectionsAreClosedAndOthersAreServed) {
  DaemonProcess daemon({"--handshake-timeout-ms", "1500"});
  Bystanders others(daemon.port());
  ASSERT_TRUE(others.ok());
  const int before = OpenFiles(daemon.pid());
  std::vector<std::unique_ptr<RawConnection>> silent;
  for (int i = 0; i < 1000; ++i) silent.push_back(std::make_unique<RawConnection>(daemon.port()));
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_GE(OpenFiles(daemon.pid()), before + 1000);
  others.Exchange(200);  // served while they hang on
  for (auto& c : silent) EXPECT_TRUE(c->WaitClosed(5000)) << "a silent connection stayed open";
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_LE(OpenFiles(daemon.pid()), before + 5);
  others.Exchange(200);
  others.Check();
}

TEST(Abuse, AFloodOfHellosIsBoundedByMaxClientsAndOthersAreServed) {
  DaemonProcess daemon({"--max-clients", "100"});
  Bystanders others(daemon.port());
  ASSERT_TRUE(others.ok());
  int welcomed = 0;
  int refused = 0;
  std::vector<std::unique_ptr<RawConnection>> flood;
  for (int i = 0; i < 300; ++i) {
    flood.push_back(std::make_unique<RawConnection>(daemon.port()));
    wire::Frame f = flood.back()->Hello(absl::StrCat("flood-", i), wire::ROLE_APP);
    if (f.has_welcome()) {
      ++welcomed;
    } else if (f.has_error()) {
      EXPECT_EQ(f.error().code(), wire::RESOURCE_EXHAUSTED);
      EXPECT_NE(f.error().text().find("max_clients"), std::string::npos) << f.error().text();
      ++refused;
    }
    if (i % 50 == 0) others.Exchange(20);
  }
  EXPECT_EQ(welcomed, 100 - 3) << "the bystanders hold three sessions";
  EXPECT_EQ(refused, 300 - welcomed);
  others.Exchange(100);
  others.Check();
}

TEST(Abuse, AGiantBatchOfBogusOutcomesGetsAFewErrorsAndOthersAreServed) {
  DaemonProcess daemon;
  Bystanders others(daemon.port());
  ASSERT_TRUE(others.ok());
  // PULL, so that it is not pushed (and does not hold) the bystanders' transits.
  RawSession rogue(daemon.port(), "rogue-sim", wire::ROLE_SIM, wire::PULL);
  ASSERT_TRUE(rogue.ok);
  wire::Frame batch;
  for (std::uint64_t id = 1; id <= 300'000; ++id) {
    wire::Outcome* o = batch.mutable_outcomes()->add_outcomes();
    o->set_id(id << 20);
    o->set_status(wire::DELIVERED);
  }
  ASSERT_LT(batch.ByteSizeLong(), 16u << 20) << "a valid frame";
  rogue.send.WriteFrame(batch);
  int errors = 0;
  std::string last;
  while (auto e = rogue.send.ReadFrame(1000)) {
    ASSERT_TRUE(e->has_error());
    ++errors;
    last = e->error().text();
  }
  EXPECT_EQ(errors, 11) << "ten named, one summary";
  EXPECT_NE(last.find("299990 more outcomes of this batch were refused"), std::string::npos)
      << last;
  others.Exchange(200);
  others.Check();
}

}  // namespace
}  // namespace trestle::testing
