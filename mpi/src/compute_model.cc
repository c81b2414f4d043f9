#include "compute_model.h"

#include <time.h>

#include <cmath>

namespace trestle::mpi {

std::uint64_t ComputeModel::ThreadCpuNanos() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t ComputeModel::CallStarts() {
  if (mode_ == LayerOptions::Compute::kNone || ended_at_ == 0) return 0;
  const double scaled = static_cast<double>(ThreadCpuNanos() - ended_at_) * scale_ + carry_;
  const double whole = std::floor(scaled);
  carry_ = scaled - whole;
  return static_cast<std::uint64_t>(whole);
}

void ComputeModel::CallEnds() {
  if (mode_ == LayerOptions::Compute::kMeasured) ended_at_ = ThreadCpuNanos();
}

}  // namespace trestle::mpi
