/* Compute between MPI calls: rank 0 spins for MS milliseconds of its own
 * CPU time (CLOCK_THREAD_CPUTIME_ID: however the host schedules it)
 * between two MPI_Wtime calls, and prints how much virtual time passed.
 * Under --compute none that is 0; under measured:SCALE, about SCALE x MS.
 * Usage: compute MS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double CpuSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double ms = argc > 1 ? atof(argv[1]) : 10;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    const double t0 = MPI_Wtime();
    const double cpu0 = CpuSeconds();
    volatile double x = 0;
    while (CpuSeconds() - cpu0 < ms * 1e-3) x += 1;
    const double t1 = MPI_Wtime();
    printf("compute: %.0f ms of CPU took %.0f virtual ns\n", ms, (t1 - t0) * 1e9);
  }
  MPI_Finalize();
  return 0;
}
