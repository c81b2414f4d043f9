// MPI-IO entry points (FileIo): MPI_File_open and MPI_File_close, and the
// collective file calls, each run for real as a barrier over the file's
// communicator. The file calls that are not collective (read, write,
// read_at, iread, seek, get_size, ...) are not wrapped: they run for real,
// in the program's own time. Split and nonblocking collective I/O are
// refused (wrap_refused.cc).
#include <mpi.h>

#include "file_io.h"
#include "mpi_layer.h"

using trestle::mpi::CallScope;

// The collective calls on an open file: `NAME(fh, ARGS...)` as a barrier.
#define TRESTLE_FILE_COLLECTIVE(NAME, PARAMS, ARGS)                       \
  int MPI_##NAME PARAMS {                                                 \
    CallScope scope("MPI_" #NAME);                                        \
    if (scope.layer() == nullptr) return PMPI_##NAME ARGS;                \
    return scope.layer()->files().Collective(fh, [&] { return PMPI_##NAME ARGS; }); \
  }

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  CallScope scope("MPI_File_open");
  if (scope.layer() == nullptr) return PMPI_File_open(comm, filename, amode, info, fh);
  return scope.layer()->files().Open(comm, filename, amode, info, fh);
}

int MPI_File_close(MPI_File* fh) {
  CallScope scope("MPI_File_close");
  if (scope.layer() == nullptr) return PMPI_File_close(fh);
  return scope.layer()->files().Close(fh);
}

TRESTLE_FILE_COLLECTIVE(File_set_view,
                        (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                         const char* datarep, MPI_Info info),
                        (fh, disp, etype, filetype, datarep, info))
TRESTLE_FILE_COLLECTIVE(File_set_size, (MPI_File fh, MPI_Offset size), (fh, size))
TRESTLE_FILE_COLLECTIVE(File_preallocate, (MPI_File fh, MPI_Offset size), (fh, size))
TRESTLE_FILE_COLLECTIVE(File_set_atomicity, (MPI_File fh, int flag), (fh, flag))
TRESTLE_FILE_COLLECTIVE(File_set_info, (MPI_File fh, MPI_Info info), (fh, info))
TRESTLE_FILE_COLLECTIVE(File_sync, (MPI_File fh), (fh))
TRESTLE_FILE_COLLECTIVE(File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence),
                        (fh, offset, whence))
TRESTLE_FILE_COLLECTIVE(File_read_all,
                        (MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status),
                        (fh, buf, count, type, status))
TRESTLE_FILE_COLLECTIVE(File_write_all,
                        (MPI_File fh, const void* buf, int count, MPI_Datatype type,
                         MPI_Status* status),
                        (fh, buf, count, type, status))
TRESTLE_FILE_COLLECTIVE(File_read_at_all,
                        (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                         MPI_Status* status),
                        (fh, offset, buf, count, type, status))
TRESTLE_FILE_COLLECTIVE(File_write_at_all,
                        (MPI_File fh, MPI_Offset offset, const void* buf, int count,
                         MPI_Datatype type, MPI_Status* status),
                        (fh, offset, buf, count, type, status))
TRESTLE_FILE_COLLECTIVE(File_read_ordered,
                        (MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status),
                        (fh, buf, count, type, status))
TRESTLE_FILE_COLLECTIVE(File_write_ordered,
                        (MPI_File fh, const void* buf, int count, MPI_Datatype type,
                         MPI_Status* status),
                        (fh, buf, count, type, status))

}  // extern "C"
