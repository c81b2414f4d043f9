// StageLatencies: where delivered messages spent their time, as four
// histograms (see admin.proto StatsReply): queue (accepted -> handed to the
// simulator), simulator (handed -> the simulator posted the outcome),
// delivery (posted -> delivered), and resident (queue + delivery, the
// daemon's own share, as wire::ResidentNanos defines it), each a
// platform::LatencyHistogram on its coarse (1-2-5) scale.
#pragma once

#include <cstdint>

#include "admin.pb.h"
#include "messages/message_table.h"
#include "trestle/platform/latency_histogram.h"

namespace trestle::daemon {

class StageLatencies {
 public:
  // `r` was delivered at daemon clock `now_ns`.
  void Record(const MessageRecord& r, std::uint64_t now_ns);
  void CopyTo(admin::StatsReply* reply) const;
  const platform::LatencyHistogram& resident() const { return resident_; }

 private:
  platform::LatencyHistogram queue_;
  platform::LatencyHistogram simulator_;
  platform::LatencyHistogram delivery_;
  platform::LatencyHistogram resident_;
};

}  // namespace trestle::daemon
