// ClockFrame: an app's lockstep Clock report (docs/protocol.md, "Lockstep
// time") from its fields, for tests of what the daemon makes of it.
#pragma once

#include <cstdint>
#include <optional>

#include "trestle.pb.h"

namespace trestle::daemon {

inline wire::Clock ClockFrame(std::uint64_t now_ns, bool blocked = false,
                              std::optional<std::uint64_t> wake_ns = std::nullopt,
                              std::uint64_t block = 0, std::uint64_t seen_delivery_seq = 0) {
  wire::Clock clock;
  clock.set_now_ns(now_ns);
  clock.set_blocked(blocked);
  if (wake_ns) clock.set_wake_ns(*wake_ns);
  clock.set_block(block);
  clock.set_seen_delivery_seq(seen_delivery_seq);
  return clock;
}

}  // namespace trestle::daemon
