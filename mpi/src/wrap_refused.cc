// The MPI calls libtrestle-mpi refuses: run for real, they would move data
// (or wait for other ranks) outside the model, and could hold the run's
// virtual time back while waiting for a rank that needs it to move. Each
// ends the run with an error naming it (RefuseCall). This file does not
// include mpi.h: the arguments are never read, so each is defined without
// its parameters.
#include "refused_calls.h"

#define TRESTLE_REFUSE(NAME, WHAT) \
  int NAME() { trestle::mpi::RefuseCall(#NAME, WHAT); }

extern "C" {

// Nonblocking collectives.
TRESTLE_REFUSE(MPI_Ibarrier, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ibcast, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ireduce, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iallreduce, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iallgather, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iallgatherv, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ialltoall, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ialltoallv, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ialltoallw, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Igather, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Igatherv, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iscatter, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iscatterv, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ireduce_scatter, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Ireduce_scatter_block, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iscan, "nonblocking collectives")
TRESTLE_REFUSE(MPI_Iexscan, "nonblocking collectives")
// Neighborhood collectives.
TRESTLE_REFUSE(MPI_Neighbor_allgather, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Neighbor_allgatherv, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Neighbor_alltoall, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Neighbor_alltoallv, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Neighbor_alltoallw, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Ineighbor_allgather, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Ineighbor_allgatherv, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Ineighbor_alltoall, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Ineighbor_alltoallv, "neighborhood collectives")
TRESTLE_REFUSE(MPI_Ineighbor_alltoallw, "neighborhood collectives")
// Communicators it cannot follow.
TRESTLE_REFUSE(MPI_Comm_idup, "a communicator constructor not modelled")
TRESTLE_REFUSE(MPI_Comm_create_group, "a communicator constructor not modelled")
TRESTLE_REFUSE(MPI_Intercomm_create, "intercommunicators")
TRESTLE_REFUSE(MPI_Intercomm_merge, "intercommunicators")
// Dynamic processes.
TRESTLE_REFUSE(MPI_Comm_spawn, "dynamic processes")
TRESTLE_REFUSE(MPI_Comm_spawn_multiple, "dynamic processes")
TRESTLE_REFUSE(MPI_Comm_connect, "dynamic processes")
TRESTLE_REFUSE(MPI_Comm_accept, "dynamic processes")
TRESTLE_REFUSE(MPI_Comm_join, "dynamic processes")
// One-sided communication.
TRESTLE_REFUSE(MPI_Win_create, "one-sided communication")
TRESTLE_REFUSE(MPI_Win_allocate, "one-sided communication")
TRESTLE_REFUSE(MPI_Win_allocate_shared, "one-sided communication")
TRESTLE_REFUSE(MPI_Win_create_dynamic, "one-sided communication")
// MPI-IO's split and nonblocking collectives (the rest runs for real:
// wrap_file_io.cc).
TRESTLE_REFUSE(MPI_File_read_all_begin, "split collective I/O")
TRESTLE_REFUSE(MPI_File_read_all_end, "split collective I/O")
TRESTLE_REFUSE(MPI_File_write_all_begin, "split collective I/O")
TRESTLE_REFUSE(MPI_File_write_all_end, "split collective I/O")
TRESTLE_REFUSE(MPI_File_read_at_all_begin, "split collective I/O")
TRESTLE_REFUSE(MPI_File_read_at_all_end, "split collective I/O")
TRESTLE_REFUSE(MPI_File_write_at_all_begin, "split collective I/O")
TRESTLE_REFUSE(MPI_File_write_at_all_end, "split collective I/O")
TRESTLE_REFUSE(MPI_File_read_ordered_begin, "split collective I/O")
TRESTLE_REFUSE(MPI_File_read_ordered_end, "split collective I/O")
TRESTLE_REFUSE(MPI_File_write_ordered_begin, "split collective I/O")
TRESTLE_REFUSE(MPI_File_write_ordered_end, "split collective I/O")
TRESTLE_REFUSE(MPI_File_iread_all, "nonblocking collective I/O")
TRESTLE_REFUSE(MPI_File_iwrite_all, "nonblocking collective I/O")
TRESTLE_REFUSE(MPI_File_iread_at_all, "nonblocking collective I/O")
TRESTLE_REFUSE(MPI_File_iwrite_at_all, "nonblocking collective I/O")

}  // extern "C"
