#include "file_io.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "comm_creation.h"
#include "mpi_layer.h"
#include "real_collective_call.h"

namespace trestle::mpi {

int FileIo::Open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  if (!noticed_) {
    noticed_ = true;
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (rank == 0) {
      std::fprintf(stderr,
                   "libtrestle-mpi: MPI-IO runs for real: reading and writing files take the "
                   "time --compute gives the program's own code (none: no virtual time), and "
                   "each collective file call is modelled as a barrier (docs/mpi.md, "
                   "\"What is modelled\")\n");
    }
  }
  MPI_Comm file_comm = MPI_COMM_NULL;
  int opened = MPI_SUCCESS;
  const int made = layer_.creation().Create(comm, &file_comm, [&] {
    const int dup = PMPI_Comm_dup(comm, &file_comm);
    if (dup == MPI_SUCCESS) opened = PMPI_File_open(comm, filename, amode, info, fh);
    return dup;  // the duplicate is made either way; freed below if the open failed
  });
  if (made != MPI_SUCCESS) return made;
  if (opened != MPI_SUCCESS) {
    layer_.creation().Free(&file_comm);
    return opened;
  }
  comms_[*fh] = file_comm;
  return MPI_SUCCESS;
}

MPI_Comm FileIo::CommOf(MPI_File fh) const {
  auto it = comms_.find(fh);
  if (it == comms_.end()) {
    Fatal(absl::StrCat(layer_.current_call(), " on a file libtrestle-mpi did not see opened"));
  }
  return it->second;
}

int FileIo::Collective(MPI_File fh, const std::function<int()>& real) {
  return RunAsBarrier(layer_, layer_.Comm(CommOf(fh)), real);
}

int FileIo::Close(MPI_File* fh) {
  const MPI_File file = *fh;
  MPI_Comm file_comm = CommOf(file);
  const int rc = RunAsBarrier(layer_, layer_.Comm(file_comm), [&] { return PMPI_File_close(fh); });
  comms_.erase(file);
  layer_.creation().Free(&file_comm);
  return rc;
}

}  // namespace trestle::mpi
