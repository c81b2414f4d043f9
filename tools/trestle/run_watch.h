// RunWatch: `trestle mpirun`'s view of the run it started, through the
// daemon's admin service (proto/admin.proto): the progress line, the stall
// report naming who holds virtual time, the warning for ranks that have
// not joined, and the end-of-run check that every rank joined (docs/mpi.md,
// "Running"). Driven from the run's wait loop; messages go to stderr.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "admin_client.h"
#include "never_joined.h"
#include "run_progress.h"
#include "stall_report.h"

namespace trestle {

class RunWatch {
 public:
  struct Options {
    bool quiet = false;  // no progress line
    RunProgress::Options progress;
    std::chrono::milliseconds stall_after{5'000};
    std::chrono::milliseconds join_after{10'000};
  };

  // `admin` is the daemon's admin address; `np` the run's ranks.
  RunWatch(const std::string& admin, int np, Options options);

  // Polls the daemon when due (at most once a second, or the progress
  // period if shorter) and says what there is to say.
  void Tick();
  // Once mpirun has exited, before the daemon stops: OK when every rank
  // joined; FailedPrecondition naming those that never did; the admin
  // call's error if the daemon cannot say.
  absl::Status CheckEveryRankJoined();
  // Prints `message` as trestle mpirun's, after ending the progress line.
  void Say(const std::string& message);

 private:
  AdminClient client_;
  const int np_;
  const Options options_;
  const std::chrono::milliseconds poll_every_;
  const std::chrono::steady_clock::time_point start_;
  std::optional<std::chrono::steady_clock::time_point> last_poll_;
  RunProgress progress_;
  StallReport stall_;
  JoinWatch joins_;
};

}  // namespace trestle
