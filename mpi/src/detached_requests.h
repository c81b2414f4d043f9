// DetachedRequests: real MPI requests the program no longer waits for but
// that must still finish: a send whose data the layer copied (the program's
// send completed at once), the real reduction of a non-root rank. Each keeps
// what it reads alive until it completes. Progress() tests them (which also
// drives the real MPI's progress for the ranks waiting on them); WaitAll()
// finishes them at MPI_Finalize, once the rank has left the Trestle run.
// Single-threaded (the rank's main thread).
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

namespace trestle::mpi {

class DetachedRequests {
 public:
  void Add(MPI_Request request, std::shared_ptr<const void> keep_alive);
  // Tests them all; frees what completed. True while some remain.
  bool Progress();
  void WaitAll();
  std::size_t size() const { return requests_.size(); }

 private:
  std::vector<MPI_Request> requests_;
  std::vector<std::shared_ptr<const void>> keep_;
  std::vector<int> done_;  // scratch for Testsome
};

}  // namespace trestle::mpi
