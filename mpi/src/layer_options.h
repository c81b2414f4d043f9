// LayerOptions: how libtrestle-mpi runs, read from the environment that
// `trestle mpirun` sets for every rank (docs/mpi.md, "Settings"):
//
//   TRESTLE_MPI_DAEMON      trestled's address, HOST:PORT or unix:PATH (required)
//   TRESTLE_MPI_ID_PREFIX   client id prefix: world rank K is PREFIX + K
//                           (default "rank-", the fabric map's names)
//   TRESTLE_MPI_COMPUTE     none (default: compute between MPI calls takes no
//                           virtual time) | measured | measured:SCALE (the
//                           thread's CPU time between calls, times SCALE > 0)
//   TRESTLE_MPI_COLL        forced collective algorithms, "allreduce=ring,..."
//                           (AlgorithmChoice; default: all automatic)
//   TRESTLE_MPI_REDUCE_BW   reduction throughput in bytes per second: a
//                           reduction step charges its bytes at it (default
//                           0: reductions are free, as sweep's default)
//   TRESTLE_MPI_POLL_NS     virtual ns a test (MPI_Test*, MPI_Iprobe) that
//                           finds nothing costs (default 100, at least 1)
//   TRESTLE_MPI_GETTIMEOFDAY
//                           virtual (default: gettimeofday called by the
//                           program's own code returns its virtual time) |
//                           real
//   TRESTLE_MPI_MIRROR      steps (default: each message of a collective's
//                           plan is mirrored, one lockstep step at a time) |
//                           collectives (each rank's part of a collective
//                           goes whole, in batches, for the simulator to
//                           replay: CollectiveBatch; needs simulators that
//                           declare they replay them) | auto (collectives
//                           when the run's simulators declare it, else
//                           steps: ChooseMirror, at join)
//   TRESTLE_MPI_CONNECT_TIMEOUT_MS
//                           wall ms to connect to trestled (default 30000)
//   TRESTLE_MPI_TIMELINE    a directory: rank K writes its timeline of MPI
//                           calls to DIR/rank-K.json (Timeline; default
//                           unset: none)
// The auth token, if the daemon has one, is TRESTLE_TOKEN (the SDK's).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "algorithm_choice.h"

namespace trestle::mpi {

struct LayerOptions {
  enum class Compute : std::uint8_t { kNone, kMeasured };
  enum class Mirror : std::uint8_t { kSteps, kCollectives, kAuto };

  std::string daemon;
  std::string id_prefix = "rank-";
  Compute compute = Compute::kNone;
  double compute_scale = 1.0;
  AlgorithmChoice algorithms;
  double reduce_bytes_per_second = 0;
  std::uint64_t poll_ns = 100;
  bool virtual_gettimeofday = true;
  Mirror mirror = Mirror::kSteps;
  std::chrono::milliseconds connect_timeout{30000};
  std::string timeline_dir;  // empty: no timeline

  // Reads the variables through `getenv` (null: unset). InvalidArgument
  // naming the variable and its value when one is malformed, or when
  // TRESTLE_MPI_DAEMON is unset (the program was not started through
  // `trestle mpirun`).
  static absl::StatusOr<LayerOptions> FromEnvironment(
      const std::function<const char*(const char*)>& getenv);
};

}  // namespace trestle::mpi
