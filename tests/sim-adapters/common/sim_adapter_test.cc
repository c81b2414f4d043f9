// SimAdapter in this process against a real trestled: the time mode comes
// from the daemon's Welcome and a --time-mode that disagrees stops Start,
// naming both; the unmapped-id and loss policies drop what they must and the
// counters balance with what the apps and the daemon saw; the ghost never
// holds an outcome, even when the daemon runs in paced time.
#include "trestle/adapter/sim_adapter.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon_process.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/ghost/ghost_simulator.h"

namespace trestle::adapter {
namespace {

using std::chrono::seconds;
using testing::DaemonProcess;

// Delivers every transit 7 ns after it was sent, and remembers what it saw.
class EchoHandler final : public TransitHandler {
 public:
  void Begin(wire::TimeMode mode, OutcomeSink& outcomes) override {
    ++begun;
    mode_seen = mode;
    outcomes_ = &outcomes;
  }
  void HandleTransit(const Transit& transit, const EndpointPair& endpoints) override {
    seen.push_back({transit.src, transit.dst, endpoints.src, endpoints.dst});
    outcomes_->Deliver(transit.id, transit.t_send + 7);
  }

  struct Seen {
    std::string src, dst;
    EndpointId src_endpoint, dst_endpoint;
  };
  int begun = 0;
  std::optional<wire::TimeMode> mode_seen;
  std::vector<Seen> seen;

 private:
  OutcomeSink* outcomes_ = nullptr;
};

ClientOptions SimOptions(const DaemonProcess& daemon) {
  ClientOptions options;
  options.daemon = daemon.address();
  options.client_id = "sim";
  return options;
}

std::unique_ptr<AppClient> ConnectApp(EventLoop& loop, const DaemonProcess& daemon,
                                      const std::string& id) {
  ClientOptions options;
  options.daemon = daemon.address();
  options.client_id = id;
  auto app = std::make_unique<AppClient>(loop, options);
  absl::Status s = app->Connect();
  EXPECT_TRUE(s.ok()) << id << ": " << s;
  return app;
}

TEST(SimAdapter, ATimeModeFlagThatDisagreesWithTheDaemonStopsStartNamingBoth) {
  DaemonProcess daemon({"--time-mode", "virtual"});
  EventLoop loop;
  EchoHandler handler;
  SimAdapterOptions options;
  options.time_mode = wire::TIME_MODE_PACED;
  SimAdapter adapter(loop, SimOptions(daemon), options, handler, std::nullopt);
  absl::Status started = adapter.Start();
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(started.message(), "--time-mode paced disagrees with the daemon's time_mode virtual");
  EXPECT_EQ(handler.begun, 0) << "the handler never starts in the wrong mode";
  EXPECT_FALSE(adapter.link().connected()) << "the session is closed again";
}

TEST(SimAdapter, WithoutAFlagItRunsInTheDaemonsModeAndSaysSoToTheHandler) {
  for (const char* mode : {"virtual", "paced", "wallclock"}) {
    SCOPED_TRACE(mode);
    DaemonProcess daemon({"--time-mode", mode});
    EventLoop loop;
    EchoHandler handler;
    SimAdapter adapter(loop, SimOptions(daemon), SimAdapterOptions(), handler, std::nullopt);
    ASSERT_TRUE(adapter.Start().ok());
    EXPECT_EQ(wire::TimeModeName(adapter.time_mode()), mode);
    EXPECT_EQ(handler.begun, 1);
    ASSERT_TRUE(handler.mode_seen.has_value());
    EXPECT_EQ(*handler.mode_seen, adapter.time_mode());
    EXPECT_TRUE(adapter.Stop(std::chrono::milliseconds(2000)).ok());
  }
}

TEST(SimAdapter, UnmappedIdsAndLossAreDroppedAndTheCountersBalance) {
  DaemonProcess daemon;
  EventLoop loop;
  EchoHandler handler;
  SimAdapterOptions options;
  options.loss_rate = 0.3;
  options.seed = 5;
  SimAdapter adapter(loop, SimOptions(daemon), options, handler, EndpointMap(3));
  ASSERT_TRUE(adapter.Start().ok());
  std::vector<std::unique_ptr<AppClient>> apps;
  for (int i = 0; i < 4; ++i) apps.push_back(ConnectApp(loop, daemon, absl::StrCat("app-", i)));
  int received = 0;
  for (auto& app : apps) app->OnMessage([&](Message&& m) { received += m.dropped ? 0 : 1; });

  // Phases, so that ids appear in a known order: app-0, app-1, app-2 take
  // the three endpoints; app-3 comes last and has none.
  auto send = [&](int from, int to, int count) {
    const std::uint64_t before = adapter.counters().transits;
    for (int i = 0; i < count; ++i) {
      ASSERT_TRUE(apps[from]->Send(absl::StrCat("app-", to), "x").ok());
    }
    ASSERT_TRUE(
        loop.RunUntil([&] { return adapter.counters().transits == before + count; }, seconds(10)));
  };
  send(0, 1, 60);
  send(1, 2, 60);
  send(3, 0, 10);
  send(2, 3, 10);

  // The loss policy draws once per mapped transit, in order: the same seed
  // gives the same count here.
  LossPolicy reference(0.3, 5);
  std::uint64_t lost = 0;
  for (int i = 0; i < 120; ++i) lost += reference.Lose() ? 1 : 0;
  const AdapterCounters& c = adapter.counters();
  EXPECT_EQ(c.transits, 140u);
  EXPECT_EQ(c.dropped_unmapped, 20u);
  EXPECT_EQ(c.dropped_by_loss, lost);
  EXPECT_EQ(c.delivered, 120u - lost);
  EXPECT_EQ(c.dropped_by_model, 0u);
  EXPECT_EQ(c.transits, c.delivered + c.dropped_by_loss + c.dropped_unmapped);
  EXPECT_EQ(handler.seen.size(), c.delivered) << "the handler sees only admitted transits";
  for (const EchoHandler::Seen& s : handler.seen) {
    EXPECT_EQ(absl::StrCat("app-", s.src_endpoint), s.src);
    EXPECT_EQ(absl::StrCat("app-", s.dst_endpoint), s.dst);
  }

  ASSERT_TRUE(
      loop.RunUntil([&] { return received == static_cast<int>(c.delivered); }, seconds(10)));
  // The daemon counts an outcome when it arrives, on another connection than
  // the one Stats asks on: ask until nothing is in flight.
  absl::StatusOr<wire::StatsReply> stats;
  for (int i = 0; i < 500; ++i) {
    stats = apps[0]->Stats(seconds(5));
    ASSERT_TRUE(stats.ok()) << stats.status();
    if (stats->total().in_flight() == 0) break;
    loop.RunFor(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(stats->total().in_flight(), 0u);
  EXPECT_EQ(stats->total().accepted(), 140u);
  EXPECT_EQ(stats->total().delivered(), c.delivered);
  EXPECT_EQ(stats->total().dropped(), c.dropped_by_loss + c.dropped_unmapped);
  EXPECT_TRUE(adapter.Stop(std::chrono::milliseconds(2000)).ok());
}

TEST(SimAdapter, TheGhostAnswersAtOnceAndHoldsNothingEvenInPacedTime) {
  DaemonProcess daemon({"--time-mode", "paced"});
  EventLoop loop;
  ghost::GhostSimulator ghost(loop, SimOptions(daemon));
  ASSERT_TRUE(ghost.Start().ok());
  EXPECT_EQ(ghost.adapter().time_mode(), wire::TIME_MODE_PACED);
  auto a = ConnectApp(loop, daemon, "a");
  auto b = ConnectApp(loop, daemon, "b");
  SendOptions far_ahead;
  far_ahead.t_send = 3'600'000'000'000ull;  // an hour of virtual time: paced, it would wait
  ASSERT_TRUE(a->Send("b", "now", far_ahead).ok());
  absl::StatusOr<Message> m = b->Receive(seconds(10));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->t_deliver, *far_ahead.t_send);
  EXPECT_EQ(ghost.answered(), 1u);
  EXPECT_EQ(ghost.adapter().held(), 0u);
  EXPECT_TRUE(ghost.Stop(std::chrono::milliseconds(2000)).ok());
}

}  // namespace
}  // namespace trestle::adapter
