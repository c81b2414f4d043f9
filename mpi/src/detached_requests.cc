#include "detached_requests.h"

namespace trestle::mpi {

void DetachedRequests::Add(MPI_Request request, std::shared_ptr<const void> keep_alive) {
  if (request == MPI_REQUEST_NULL) return;
  requests_.push_back(request);
  keep_.push_back(std::move(keep_alive));
}

bool DetachedRequests::Progress() {
  if (requests_.empty()) return false;
  done_.resize(requests_.size());
  int completed = 0;
  PMPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &completed, done_.data(),
                MPI_STATUSES_IGNORE);
  if (completed > 0 && completed != MPI_UNDEFINED) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      if (requests_[i] == MPI_REQUEST_NULL) continue;
      requests_[kept] = requests_[i];
      keep_[kept] = std::move(keep_[i]);
      ++kept;
    }
    requests_.resize(kept);
    keep_.resize(kept);
  }
  return !requests_.empty();
}

void DetachedRequests::WaitAll() {
  if (requests_.empty()) return;
  PMPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  keep_.clear();
}

}  // namespace trestle::mpi
