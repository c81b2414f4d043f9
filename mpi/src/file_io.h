// FileIo: MPI-IO, run for real. Reading and writing take the virtual time
// the compute setting gives the rank's own code (none: no time; measured:
// the thread's CPU time, which waiting for the disk is not), and their
// data never crosses the modelled network. A collective file call (open,
// close, set_view, the _all and _ordered calls, sync, ...) waits for the
// other members in real time, so it runs as a barrier over the file's
// communicator (RunAsBarrier): no rank holds virtual time back meanwhile.
// The first open prints one notice (from rank 0 of its communicator).
//
// Main thread only.
#pragma once

#include <mpi.h>

#include <functional>

#include "absl/container/flat_hash_map.h"

namespace trestle::mpi {

class MpiLayer;

class FileIo {
 public:
  explicit FileIo(MpiLayer& layer) : layer_(layer) {}

  // MPI_File_open: the real open, and a duplicate of `comm` for the file's
  // collective calls, in one barrier over `comm`.
  int Open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh);
  // A collective call on `fh`: `real` as a barrier over its communicator.
  int Collective(MPI_File fh, const std::function<int()>& real);
  // MPI_File_close: the real close as a barrier; the duplicate freed.
  int Close(MPI_File* fh);

 private:
  // The communicator of a file this layer opened, or Fatal naming the call.
  MPI_Comm CommOf(MPI_File fh) const;

  MpiLayer& layer_;
  absl::flat_hash_map<MPI_File, MPI_Comm> comms_;
  bool noticed_ = false;
};

}  // namespace trestle::mpi
