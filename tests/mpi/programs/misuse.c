/* Programs libtrestle-mpi must stop with a clear error, by the first
 * argument: "refused" calls MPI_Ibarrier (not modelled), "split-io" a
 * split collective write; "deadlock" has every rank receive first, from a
 * rank that never sends. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, x = 1, y = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "refused") == 0) {
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  } else if (argc > 1 && strcmp(argv[1], "split-io") == 0) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "/dev/null", MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_File_write_all_begin(fh, &x, 1, MPI_INT);
  } else {
    MPI_Recv(&y, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  }
  printf("misuse: rank %d was not stopped\n", rank);
  MPI_Finalize();
  return 0;
}
