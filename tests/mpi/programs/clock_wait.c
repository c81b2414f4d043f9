/* A loop that waits for the clock to move, as STREAM's checktick (HPCC)
 * does: under --compute none nothing else moves a rank's clock, so the
 * layer makes a third reading in a row at the same time cost --poll-ns.
 * Each rank: two readings in a row agree; then 20 times it waits for
 * MPI_Wtime to move 1 us, and for gettimeofday to move 1 us; it prints the
 * smallest step it saw and the virtual time the waits took; last, three
 * readings with an MPI call between each must agree.
 * Usage: clock_wait */
#include <mpi.h>
#include <stdio.h>
#include <sys/time.h>

static double Gettimeofday(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double t0 = MPI_Wtime(), t1 = MPI_Wtime();
  double step = 1, t = t1;
  for (int i = 0; i < 20; ++i) {
    const double from = MPI_Wtime();
    double now;
    while ((now = MPI_Wtime()) - from < 1e-6) {
      if (now > t && now - t < step) step = now - t;
      t = now;
    }
    t = now;
  }
  const double waited = MPI_Wtime() - t1;
  for (int i = 0; i < 20; ++i) {
    const double from = Gettimeofday();
    while (Gettimeofday() - from < 0.5e-6) {
    }
  }
  const double gtod = MPI_Wtime() - t1 - waited;
  MPI_Barrier(MPI_COMM_WORLD);
  /* Readings with other MPI calls between (here waits that take no time)
   * are not in a row. */
  MPI_Request none = MPI_REQUEST_NULL;
  const double a = MPI_Wtime();
  MPI_Wait(&none, MPI_STATUS_IGNORE);
  const double b = MPI_Wtime();
  MPI_Wait(&none, MPI_STATUS_IGNORE);
  const double c = MPI_Wtime();
  printf("clock_wait: rank %d: readings in a row %s, step %.0f ns, Wtime waits %.0f ns, "
         "gettimeofday waits %.0f ns, readings around calls %s\n",
         rank, t1 == t0 ? "agree" : "differ", step * 1e9, waited * 1e9, gtod * 1e9,
         a == b && b == c ? "agree" : "differ");
  MPI_Finalize();
  return 0;
}
