#include "stall_report.h"

#include "absl/strings/str_cat.h"
#include "rank_ids.h"
#include "virtual_time_text.h"

namespace trestle {

std::optional<std::string> StallReport::Check(const wire::LockstepStats& l) {
  if (!l.started() || l.bound_still_ms() < static_cast<std::uint64_t>(after_.count()) ||
      (l.holder().empty() && l.holder_state().empty())) {
    reported_.reset();
    return std::nullopt;
  }
  const std::string holder = absl::StrCat(l.holder_role(), ":", l.holder());
  if (reported_ == holder) return std::nullopt;
  reported_ = holder;
  std::string who;
  if (l.holder().empty()) {
    who = l.holder_state();
  } else if (l.holder_role() == wire::ROLE_SIM) {
    who = absl::StrCat("simulator '", l.holder(), "' (", l.holder_state(),
                       "): the blocked ranks wait for its answer");
  } else {
    const std::optional<int> rank = RankOfClientId(l.holder());
    who = absl::StrCat(rank ? absl::StrCat("rank ", *rank) : absl::StrCat("app '", l.holder(), "'"),
                       " (", l.holder_state(), ")");
    if (l.holder_state().starts_with("running")) {
      absl::StrAppend(&who, ": it computes, or waits, outside MPI, and every other rank's time "
                            "waits for its clock");
    }
  }
  return absl::StrCat("virtual time has stayed at ", VirtualTimeText(l.bound_ns()), " for ",
                      SecondsText(std::chrono::milliseconds(l.bound_still_ms())), " (",
                      l.apps_running(), " of ", l.apps(), " ranks running); held back by ", who);
}

}  // namespace trestle
