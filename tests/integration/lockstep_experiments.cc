#include "lockstep_experiments.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/status.h"

namespace trestle::testing {

using std::chrono::seconds;

ClientOptions LockstepOptions(const std::string& daemon, const std::string& id) {
  ClientOptions o = TestClientOptions(daemon, id);
  o.lockstep = true;
  return o;
}

namespace {
// The part of a payload that names it ("r<round>-<app>-<n>", or a reply).
std::string Tail(const std::string& payload) {
  const std::size_t at = payload.find('r');
  return at == std::string::npos ? payload : payload.substr(at);
}
}  // namespace

// One app of the gossip experiment: `rounds` times, compute (Advance), send
// to a peer chosen by the seeded generator (and in one round of four a note
// to itself, which the simulators' self lookahead prices apart), then
// receive until a virtual deadline, answering some messages. Random wall-clock sleeps (not seeded)
// shuffle how the threads interleave.
History RunGossipApp(const std::string& daemon, int me, int apps, int rounds) {
  History h;
  AppClient app(LockstepOptions(daemon, absl::StrCat("app-", me)));
  if (absl::Status s = app.Connect(); !s.ok()) {
    h.end = s.ToString();
    return h;
  }
  std::mt19937_64 model(1000 + me);         // the experiment: seeded
  std::mt19937_64 jitter(std::random_device{}());  // the host: not
  auto sleep = [&] {
    std::this_thread::sleep_for(std::chrono::microseconds(jitter() % 3000));
  };
  int sent = 0;
  for (int round = 0; round < rounds; ++round) {
    sleep();
    app.Advance(100 + model() % 2000);
    const int peer = static_cast<int>((me + 1 + model() % (apps - 1)) % apps);
    SendOptions so;
    so.tclass = 0;
    const std::string payload = absl::StrCat("r", round, "-", me, "-", sent++);
    if (!app.Send(absl::StrCat("app-", peer), std::string(64 + model() % 8192, 'x') + payload, so)
             .ok()) {
      h.end = "send failed";
      return h;
    }
    if (model() % 4 == 0 &&
        !app.Send(absl::StrCat("app-", me), absl::StrCat("note-", payload), so).ok()) {
      h.end = "note failed";
      return h;
    }
    const std::uint64_t until = app.Now() + 5000 + model() % 5000;
    while (true) {
      absl::StatusOr<std::optional<Message>> m = app.ReceiveUntil(until, seconds(30));
      if (!m.ok()) {
        h.end = m.status().ToString();
        return h;
      }
      if (!m->has_value()) {
        h.events.push_back(absl::StrCat("wake@", app.Now()));
        break;
      }
      const Message& msg = **m;
      const std::string tail = Tail(msg.payload);
      h.events.push_back(absl::StrCat(msg.src, ":", tail, "@", msg.t_deliver, " now ", app.Now()));
      sleep();
      // Answer one message in three, after some compute.
      if (model() % 3 == 0) {
        app.Advance(model() % 500);
        if (!app.Send(msg.src, absl::StrCat("re-", tail)).ok()) {
          h.end = "reply failed";
          return h;
        }
      }
    }
  }
  // Drain what still comes, until the run is quiescent.
  while (true) {
    absl::StatusOr<Message> m = app.Receive(seconds(30));
    if (!m.ok()) {
      h.end = IsQuiescent(m.status()) ? absl::StrCat("quiescent at ", app.Now())
                                      : m.status().ToString();
      break;
    }
    h.events.push_back(absl::StrCat(m->src, ":", Tail(m->payload), "@", m->t_deliver, " now ",
                                    app.Now()));
  }
  app.Close(seconds(5)).IgnoreError();
  return h;
}

std::uint64_t ExpectEarlySendWaitsForTheRun(AppClient& a, AppClient& b) {
  EXPECT_TRUE(a.Send("b", "early").ok());  // at t = 0, before the run's time starts
  // Time has not started: b is expected; nothing is delivered, a stays blocked.
  absl::StatusOr<Message> nothing = a.Receive(std::chrono::milliseconds(300));
  EXPECT_EQ(nothing.status().code(), absl::StatusCode::kDeadlineExceeded) << nothing.status();
  if (absl::Status s = b.Connect(); !s.ok()) {
    ADD_FAILURE() << s;
    return 0;
  }
  EXPECT_EQ(b.Now(), 0u);
  absl::StatusOr<Message> m = b.Receive(seconds(10));
  if (!m.ok()) {
    ADD_FAILURE() << m.status();
    return 0;
  }
  EXPECT_EQ(m->payload, "early");
  EXPECT_GE(m->t_deliver, 1000u) << "at least one 1 us link";
  EXPECT_EQ(b.Now(), m->t_deliver);
  // b wakes at a virtual time when nothing comes before it.
  absl::StatusOr<std::optional<Message>> woke = b.ReceiveUntil(b.Now() + 50'000, seconds(10));
  if (!woke.ok()) {
    ADD_FAILURE() << woke.status();
    return 0;
  }
  EXPECT_FALSE(woke->has_value());
  EXPECT_EQ(b.Now(), m->t_deliver + 50'000);
  return m->t_deliver;
}

std::vector<std::string> SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace trestle::testing
