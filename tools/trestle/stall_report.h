// StallReport: says, on `trestle mpirun`'s own output, who holds virtual
// time when it has not moved for a while: the rank whose clock is the bound
// (running: it computes, or waits, outside MPI), or the simulator the
// blocked ranks wait for (the daemon's LockstepStats.holder; docs/mpi.md,
// "Running"). Once per stall, and again when the holder changes.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "trestle.pb.h"

namespace trestle {

class StallReport {
 public:
  // Reports once virtual time has stayed put for `after`.
  explicit StallReport(std::chrono::milliseconds after) : after_(after) {}

  std::optional<std::string> Check(const wire::LockstepStats& l);

 private:
  const std::chrono::milliseconds after_;
  std::optional<std::string> reported_;  // the holder this stall was reported for
};

}  // namespace trestle
