/* ring_sendrecv: the C twin of ring_sendrecv.f90 (and of its mpif.h and
 * mpi_f08 builds): 1 MiB of doubles around the ring by
 * MPI_Sendrecv_replace, 1 KiB by MPI_Irecv/MPI_Isend/MPI_Waitall, an
 * MPI_Allreduce in place, an MPI_Barrier. It checks the data and prints
 * each step's MPI_Wtime delta in ns, in the Fortran programs' words, for
 * test_fortran.py to compare. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRing = 131072, kSmall = 128 }; /* 1 MiB and 1 KiB of doubles */

static int rank;

static void Fail(const char* what) {
  fprintf(stderr, "rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void Check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) Fail(call);
}

static long long Ns(double seconds) { return llround(seconds * 1e9); }

int main(int argc, char** argv) {
  Check(MPI_Init(&argc, &argv), "MPI_Init");
  int nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const int right = (rank + 1) % nranks;
  const int left = (rank + nranks - 1) % nranks;
  double* ring = malloc(kRing * sizeof(double));
  for (int i = 0; i < kRing; ++i) ring[i] = rank * 1e6 + (i + 1);
  double t[5];

  t[0] = MPI_Wtime();
  Check(MPI_Sendrecv_replace(ring, kRing, MPI_DOUBLE, right, 1, left, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE),
        "MPI_Sendrecv_replace");
  t[1] = MPI_Wtime();
  for (int i = 0; i < kRing; ++i) {
    if (ring[i] != left * 1e6 + (i + 1)) Fail("MPI_Sendrecv_replace: wrong data");
  }

  double out[kSmall], in[kSmall];
  for (int i = 0; i < kSmall; ++i) out[i] = rank;
  MPI_Request requests[2];
  MPI_Status statuses[2];
  Check(MPI_Irecv(in, kSmall, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[0]), "MPI_Irecv");
  Check(MPI_Isend(out, kSmall, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]), "MPI_Isend");
  Check(MPI_Waitall(2, requests, statuses), "MPI_Waitall");
  t[2] = MPI_Wtime();
  for (int i = 0; i < kSmall; ++i) {
    if (in[i] != left) Fail("MPI_Irecv: wrong data");
  }
  if (statuses[0].MPI_SOURCE != left || statuses[0].MPI_TAG != 2) Fail("MPI_Waitall: wrong status");
  if (requests[0] != MPI_REQUEST_NULL || requests[1] != MPI_REQUEST_NULL) {
    Fail("MPI_Waitall: requests not MPI_REQUEST_NULL");
  }

  double total = rank;
  Check(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  t[3] = MPI_Wtime();
  if (total != nranks * (nranks - 1) / 2) Fail("MPI_Allreduce: wrong sum");

  Check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  t[4] = MPI_Wtime();

  printf("ring_sendrecv: rank %d: sendrecv_replace %lld ns, waitall %lld ns, allreduce %lld ns, "
         "barrier %lld ns, ok\n",
         rank, Ns(t[1] - t[0]), Ns(t[2] - t[1]), Ns(t[3] - t[2]), Ns(t[4] - t[3]));
  free(ring);
  Check(MPI_Finalize(), "MPI_Finalize");
  return 0;
}
