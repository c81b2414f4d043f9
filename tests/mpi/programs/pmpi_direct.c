/* A program whose MPI calls bypass any PMPI layer: it calls PMPI_Init,
 * PMPI_Barrier and PMPI_Finalize itself, as Open MPI's Fortran bindings
 * do, so libtrestle-mpi preloaded into it never starts and the rank never
 * joins the run. trestle mpirun must fail naming it (test_watch.py). It
 * prints "pmpi_direct: rank K of N ran" per rank. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  PMPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  PMPI_Barrier(MPI_COMM_WORLD);
  printf("pmpi_direct: rank %d of %d ran\n", rank, size);
  PMPI_Finalize();
  return 0;
}
