// ComputeModel: how much virtual time the program's own computing between
// MPI calls takes. kNone: none (the run is deterministic). kMeasured: the
// calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) since the last MPI
// call returned, times a scale; the layer's own time inside MPI calls is
// never counted. Single-threaded.
#pragma once

#include <cstdint>

#include "layer_options.h"

namespace trestle::mpi {

class ComputeModel {
 public:
  ComputeModel(LayerOptions::Compute mode, double scale) : mode_(mode), scale_(scale) {}

  // At an MPI call's start: virtual ns computed since the last call ended.
  std::uint64_t CallStarts();
  // At an MPI call's end.
  void CallEnds();

 private:
  static std::uint64_t ThreadCpuNanos();

  LayerOptions::Compute mode_;
  double scale_;
  std::uint64_t ended_at_ = 0;  // ThreadCpuNanos when the last call ended; 0: none yet
  double carry_ = 0;            // fractions of a ns not charged yet
};

}  // namespace trestle::mpi
