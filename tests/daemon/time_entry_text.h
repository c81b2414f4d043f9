// TimeEntryText: a lockstep report (lockstep/time_entry.h) in one line, every
// field of it, for tests to compare whole reports:
//   "c from 2 app 'a' now 40 blocked 1 wake 60 block 7 taken 5"
// (wake "none" when unset).
#pragma once

#include <string>

#include "absl/strings/str_cat.h"
#include "lockstep/time_entry.h"

namespace trestle::daemon {

inline std::string TimeEntryText(const TimeEntry& e) {
  return absl::StrCat(std::string(1, static_cast<char>(e.kind)), " from ", e.from, " app '", e.app,
                      "' now ", e.now, " blocked ", e.blocked ? 1 : 0, " wake ",
                      e.wake ? absl::StrCat(*e.wake) : std::string("none"), " block ", e.block,
                      " taken ", e.taken);
}

}  // namespace trestle::daemon
