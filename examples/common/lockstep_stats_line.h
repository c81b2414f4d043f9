// LockstepStatsLine: one line of the daemon's lockstep counters for the
// examples' --stats flags (and bench/lockstep/ parses it):
//
//   stats: delivered=112 grants=33 reached=33 clocks=120 wakes=0 quiescent=8
//          control_frames=186 per_message=1.661
//
// control_frames = grants + reached + clocks + wakes (the time-control
// frames; Quiescent ends a run and is not counted), per_message =
// control_frames / delivered. The counts are the daemon's since it started,
// over every app and simulator, so they describe one run only on a daemon
// started for it.
#pragma once

#include <string>

#include <cstdint>

#include "trestle.pb.h"

namespace trestle::examples {

std::string LockstepStatsLine(const wire::StatsReply& stats);

}  // namespace trestle::examples
