#include "lockstep_stats_line.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace trestle::examples {

std::string LockstepStatsLine(const wire::StatsReply& stats) {
  const wire::LockstepStats& ls = stats.lockstep();
  const std::uint64_t control = ls.grants() + ls.reached() + ls.clocks() + ls.wakes();
  const std::uint64_t delivered = stats.total().delivered();
  return absl::StrCat(
      "stats: delivered=", delivered, " grants=", ls.grants(), " reached=", ls.reached(),
      " clocks=", ls.clocks(), " wakes=", ls.wakes(), " quiescent=", ls.quiescent(),
      " control_frames=", control, " per_message=",
      absl::StrFormat("%.3f", delivered == 0 ? 0.0
                                             : static_cast<double>(control) /
                                                   static_cast<double>(delivered)));
}

}  // namespace trestle::examples
