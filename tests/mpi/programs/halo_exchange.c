/* A 1-D halo exchange: every rank of a periodic line sends its edges to
 * both neighbours with MPI_Isend and takes theirs with MPI_Irecv, then
 * MPI_Waitall, ITERS times. Each halo is checked (it carries the
 * neighbour's rank and the iteration), and each iteration takes, in
 * virtual time, exactly one message's time: both halos leave together.
 * Usage: halo_exchange LINK_NS BYTES_PER_NS ITERS HALO_BYTES */
#include <string.h>

#include "model_time.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  const int iters = argc > 3 ? atoi(argv[3]) : 10;
  const int bytes = argc > 4 ? atoi(argv[4]) : 4096;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  const int n = bytes / (int)sizeof(int);
  int* out_l = malloc(bytes);
  int* out_r = malloc(bytes);
  int* in_l = malloc(bytes);
  int* in_r = malloc(bytes);
  const double start = NowNs();
  for (int it = 0; it < iters; ++it) {
    for (int i = 0; i < n; ++i) {
      out_l[i] = rank * 1000000 + it * 1000 + i % 1000;
      out_r[i] = -(rank * 1000000 + it * 1000 + i % 1000);
    }
    MPI_Request req[4];
    MPI_Irecv(in_l, n, MPI_INT, left, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in_r, n, MPI_INT, right, 8, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(out_l, n, MPI_INT, left, 8, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(out_r, n, MPI_INT, right, 7, MPI_COMM_WORLD, &req[3]);
    /* The sends' buffers are the program's again once Waitall returns;
     * overwrite them at once to catch a send that still read them. */
    MPI_Status st[4];
    MPI_Waitall(4, req, st);
    memset(out_l, 0xff, bytes);
    memset(out_r, 0xff, bytes);
    EXPECT(st[0].MPI_SOURCE == left && st[1].MPI_SOURCE == right, "sources %d %d",
           st[0].MPI_SOURCE, st[1].MPI_SOURCE);
    for (int i = 0; i < n; ++i) {
      EXPECT(in_l[i] == -(left * 1000000 + it * 1000 + i % 1000), "left halo word %d: %d", i,
             in_l[i]);
      EXPECT(in_r[i] == right * 1000000 + it * 1000 + i % 1000, "right halo word %d: %d", i,
             in_r[i]);
    }
    const double expect = start + (it + 1) * T(bytes);
    EXPECT(NowNs() == expect, "after iteration %d at %.0f ns, not %.0f", it, NowNs(), expect);
  }
  if (rank == 0) printf("halo_exchange: %d ranks x %d iterations of %d bytes: %.0f ns, ok\n", size,
                        iters, bytes, NowNs() - start);
  free(out_l);
  free(out_r);
  free(in_l);
  free(in_r);
  MPI_Finalize();
  return 0;
}
