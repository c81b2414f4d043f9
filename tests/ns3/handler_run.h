// Test helpers for Ns3TransitHandler: an OutcomeSink that records every
// outcome and report in the order they were posted; a handler with its own
// loop and sink (HandlerRun); transits to hand it.
#ifndef TRESTLE_TESTS_NS3_HANDLER_RUN_H_
#define TRESTLE_TESTS_NS3_HANDLER_RUN_H_

#include <gtest/gtest.h>
#include <uv.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <vector>

#include "trestle/adapter/transit_handler.h"
#include "trestle/event_loop.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_transit_handler.h"
#include "trestle/transit.h"

namespace trestle::ns3_adapter {

class RecordingSink final : public adapter::OutcomeSink {
 public:
  struct Posted {
    enum class Kind { kDelivered, kDropped, kReached } kind;
    std::uint64_t id;  // 0 for kReached
    std::uint64_t t_ns;
    std::uint64_t wall_ns = 0;  // when it was posted (uv_hrtime); not compared
    bool operator==(const Posted& other) const {
      return kind == other.kind && id == other.id && t_ns == other.t_ns;
    }
  };

  void Deliver(std::uint64_t id, std::uint64_t t_ns) override {
    Record(Posted{Posted::Kind::kDelivered, id, t_ns, uv_hrtime()});
  }
  void Drop(std::uint64_t id, std::uint64_t t_ns) override {
    Record(Posted{Posted::Kind::kDropped, id, t_ns, uv_hrtime()});
  }
  void ReportReached(std::uint64_t t_ns) override {
    log_.push_back(Posted{Posted::Kind::kReached, 0, t_ns, uv_hrtime()});
  }

  // Outcomes by id; an id posted twice is a test failure.
  const std::map<std::uint64_t, Posted>& outcomes() const { return outcomes_; }
  // Everything, in posting order.
  const std::vector<Posted>& log() const { return log_; }
  std::size_t delivered() const { return Count(Posted::Kind::kDelivered); }
  std::size_t dropped() const { return Count(Posted::Kind::kDropped); }

 private:
  void Record(const Posted& posted) {
    EXPECT_TRUE(outcomes_.emplace(posted.id, posted).second) << "id " << posted.id << " twice";
    log_.push_back(posted);
  }
  std::size_t Count(Posted::Kind kind) const {
    std::size_t n = 0;
    for (const auto& [id, posted] : outcomes_) n += posted.kind == kind;
    return n;
  }

  std::map<std::uint64_t, Posted> outcomes_;
  std::vector<Posted> log_;
};

// A handler on a loop of its own, posting into `sink`, begun in `mode`.
struct HandlerRun {
  HandlerRun(Ns3Network& network, wire::TimeMode mode, Ns3HandlerOptions options = {})
      : handler(loop, network, options) {
    handler.Begin(mode, sink);
  }

  // Runs the loop until the handler has nothing to simulate (bounded).
  bool RunUntilIdle(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    return loop.RunUntil([&] { return handler.idle(); }, timeout);
  }

  EventLoop loop;
  RecordingSink sink;
  Ns3TransitHandler handler;  // last: it posts into the sink, on the loop
};

// A transit of `size` bytes sent at `t_send` (its endpoints are given apart).
inline Transit MakeTransit(std::uint64_t id, std::uint64_t size, std::uint64_t t_send) {
  Transit transit;
  transit.id = id;
  transit.src = "a";
  transit.dst = "b";
  transit.size = size;
  transit.t_send = t_send;
  return transit;
}

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_TESTS_NS3_HANDLER_RUN_H_
