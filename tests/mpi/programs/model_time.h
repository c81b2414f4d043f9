/* What the test programs expect of the network they run on: a switch
 * (trestle-sim fabric, congestion-unaware) whose links take LINK_NS and
 * carry BYTES_PER_NS, so a message of b bytes between two ranks takes
 * 2 * LINK_NS + round(b / BYTES_PER_NS) ns, and the check every program
 * ends a failed expectation with. The programs take the link's numbers as
 * their first two arguments: PROGRAM LINK_NS BYTES_PER_NS ... */
#ifndef TRESTLE_TESTS_MPI_MODEL_TIME_H_
#define TRESTLE_TESTS_MPI_MODEL_TIME_H_

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double link_ns = 500;
static double bytes_per_ns = 50;

static void ReadLink(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s LINK_NS BYTES_PER_NS ...\n", argv[0]);
    exit(2);
  }
  link_ns = atof(argv[1]);
  bytes_per_ns = atof(argv[2]);
}

/* Modelled ns of one message of `bytes` bytes between two ranks. */
static double T(double bytes) { return 2 * link_ns + llround(bytes / bytes_per_ns); }

/* The rank's virtual time in ns (MPI_Wtime is virtual under trestle mpirun). */
static double NowNs(void) { return llround(MPI_Wtime() * 1e9); }

#define EXPECT(cond, ...)                                              \
  do {                                                                 \
    if (!(cond)) {                                                     \
      int r_;                                                          \
      MPI_Comm_rank(MPI_COMM_WORLD, &r_);                              \
      fprintf(stderr, "rank %d: %s:%d: expected %s: ", r_, __FILE__, \
              __LINE__, #cond);                                        \
      fprintf(stderr, __VA_ARGS__);                                    \
      fprintf(stderr, "\n");                                           \
      MPI_Abort(MPI_COMM_WORLD, 1);                                    \
    }                                                                  \
  } while (0)

#endif
