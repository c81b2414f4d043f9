/* The layer-cost benchmark's program (bench/mpi/layer_cost.sh): ITERS
 * MPI_Allreduce calls of one double (MPI_SUM) on MPI_COMM_WORLD; rank 0
 * prints the wall time of the loop (CLOCK_MONOTONIC, never virtualised)
 * and MPI_Wtime's view of it. Usage: small_allreduce [ITERS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double WallSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int iters = argc > 1 ? atoi(argv[1]) : 10000;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = rank, sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double wall0 = WallSeconds(), t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double wall = WallSeconds() - wall0, modelled = MPI_Wtime() - t0;
  if (sum != size * (size - 1) / 2.0) {
    fprintf(stderr, "small_allreduce: rank %d: sum %g\n", rank, sum);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0) {
    printf("small_allreduce: ranks=%d iters=%d wall_s=%.3f per_call_us=%.1f mpi_wtime_s=%.6f\n",
           size, iters, wall, wall / iters * 1e6, modelled);
  }
  MPI_Finalize();
  return 0;
}
