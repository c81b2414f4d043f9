// Ranks that never joined a `trestle mpirun` run: their MPI calls never
// reached libtrestle-mpi, so they ran in real time, outside the model.
// Never silent: the daemon names them (LockstepStats.never_joined, given
// the ranks' ids as --lockstep-apps), and these say so in words with the
// likely causes (docs/mpi.md, "Running").
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "trestle.pb.h"

namespace trestle {

// The end-of-run verdict, once mpirun has exited: nullopt when every rank
// joined, else the error naming those that never did.
std::optional<std::string> NeverJoinedError(const wire::LockstepStats& l, int np);

// While the run waits to start: a warning, once, when ranks have not joined
// `after` since mpirun started them (a rank joins in MPI_Init; until every
// one has, those that joined wait).
class JoinWatch {
 public:
  JoinWatch(std::chrono::milliseconds after, std::chrono::steady_clock::time_point start)
      : after_(after), start_(start) {}

  // `l` as of wall time `now`.
  std::optional<std::string> Check(const wire::LockstepStats& l, int np,
                                   std::chrono::steady_clock::time_point now);

 private:
  const std::chrono::milliseconds after_;
  const std::chrono::steady_clock::time_point start_;
  bool warned_ = false;
};

}  // namespace trestle
