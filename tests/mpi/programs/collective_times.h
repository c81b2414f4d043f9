/* What the collective test programs record of each call they time: every
 * rank's start and end (gathered to all by GatherTimes) and the end the
 * algorithm's pattern gives it (want, filled by the program). */
#ifndef TRESTLE_TESTS_MPI_COLLECTIVE_TIMES_H_
#define TRESTLE_TESTS_MPI_COLLECTIVE_TIMES_H_

#include "model_time.h"

#define MAXR 64
static int N, R;
static double start[MAXR], end[MAXR], want[MAXR];

static double Max(double a, double b) { return a > b ? a : b; }

/* Gathers every rank's start and end of the call just timed. */
static void GatherTimes(double my_start) {
  double mine[2] = {my_start, NowNs()}, all[2 * MAXR];
  MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int r = 0; r < N; ++r) {
    start[r] = all[2 * r];
    end[r] = all[2 * r + 1];
  }
}

/* Every rank's end must be want[r]. */
static void ExpectEnds(const char* what) {
  for (int r = 0; r < N; ++r) {
    EXPECT(end[r] == want[r], "%s: rank %d ended at %.0f ns, not %.0f", what, r, end[r], want[r]);
  }
}

/* An alltoall's ends, `msg(s, r)` the ns of what s sends r: linear, every
 * message at the start; else pairwise, in step k rank r waits for r-k's. */
static void AlltoallEnds(int linear, double (*msg)(int s, int r)) {
  if (linear) {
    for (int r = 0; r < N; ++r) {
      want[r] = start[r];
      for (int s = 0; s < N; ++s) if (s != r) want[r] = Max(want[r], start[s] + msg(s, r));
    }
    return;
  }
  double next[MAXR];
  for (int r = 0; r < N; ++r) want[r] = start[r];
  for (int k = 1; k < N; ++k) {
    for (int r = 0; r < N; ++r) {
      const int from = (r - k + N) % N;
      next[r] = Max(want[r], want[from] + msg(from, r));
    }
    for (int r = 0; r < N; ++r) want[r] = next[r];
  }
}

#endif
