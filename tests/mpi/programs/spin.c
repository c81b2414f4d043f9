/* spin RANK FILE: rank RANK computes without calling MPI (a busy loop, no
 * sleep) until FILE exists, or 120 s at most, while the other ranks wait
 * in MPI_Barrier; then all meet in a barrier and rank 0 prints "spin: ok".
 * trestle mpirun's stall report must name rank RANK while it spins
 * (test_watch.py). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double Seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: spin RANK FILE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == atoi(argv[1])) {
    const double start = Seconds();
    volatile unsigned long spins = 0;
    while (access(argv[2], F_OK) != 0 && Seconds() - start < 120) {
      for (int i = 0; i < 1000000; ++i) spins++;
    }
    if (access(argv[2], F_OK) != 0) {
      fprintf(stderr, "spin: rank %d gave up after 120 s: %s never appeared\n", rank, argv[2]);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("spin: ok\n");
  MPI_Finalize();
  return 0;
}
