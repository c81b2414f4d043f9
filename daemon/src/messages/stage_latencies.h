// StageLatencies: where delivered messages spent their time, as four
// histograms (see admin.proto StatsReply): queue (accepted -> handed to the
// simulator), simulator (handed -> the simulator posted the outcome),
// delivery (posted -> delivered), and resident (queue + delivery, the
// daemon's own share, as wire::ResidentNanos defines it).
#pragma once

#include <cstdint>

#include "admin.pb.h"
#include "messages/latency_histogram.h"
#include "messages/message_table.h"

namespace trestle::daemon {

class StageLatencies {
 public:
  // `r` was delivered at daemon clock `now_ns`.
  void Record(const MessageRecord& r, std::uint64_t now_ns);
  void CopyTo(admin::StatsReply* reply) const;
  const LatencyHistogram& resident() const { return resident_; }

 private:
  LatencyHistogram queue_;
  LatencyHistogram simulator_;
  LatencyHistogram delivery_;
  LatencyHistogram resident_;
};

}  // namespace trestle::daemon
