/* The collectives real applications reach beyond the classic ones (LAMMPS:
 * MPI_Scan, MPI_Reduce_scatter), checked for their data and their modelled
 * times on the switch (a message of b bytes takes T(b), each priced alone:
 * run with trestle mpirun --ordering message):
 *  - MPI_Scan and MPI_Exscan, linear: rank r ends once the prefix from
 *    r-1 arrived; also with an operation that does not commute (2x2 matrix
 *    products), whose answer depends on MPI's order;
 *  - MPI_Reduce_scatter and MPI_Reduce_scatter_block, ring: block r has
 *    (r + 1) * 100 ints;
 *  - MPI_Alltoallw: s sends d (s + d + 1) * 10 elements, ints to an even
 *    rank and doubles to an odd one, pairwise if TRESTLE_MPI_COLL says
 *    alltoall=pairwise, else linear (the automatic choice for its sizes).
 * Usage: scans_and_scatters LINK_NS BYTES_PER_NS */
#include <string.h>

#include "collective_times.h"

/* The chain: rank r ends when the prefix from r-1 arrives. */
static void Chain(double msg) {
  want[0] = start[0];
  for (int r = 1; r < N; ++r) want[r] = Max(start[r], want[r - 1] + msg);
}

/* Alltoallw: s sends r (s + r + 1) * 10 elements of r's type. */
static double AlltoallwMessage(int s, int r) { return T((s + r + 1) * 10 * (r % 2 == 0 ? 4 : 8)); }

/* 2x2 matrices mod 10007, row-major; MPI's user function computes
 * inout = in * inout, `in` coming from the lower ranks. */
enum { kMod = 10007 };
static void Product(const int* a, const int* b, int* out) {
  int p[4];
  p[0] = (a[0] * b[0] + a[1] * b[2]) % kMod;
  p[1] = (a[0] * b[1] + a[1] * b[3]) % kMod;
  p[2] = (a[2] * b[0] + a[3] * b[2]) % kMod;
  p[3] = (a[2] * b[1] + a[3] * b[3]) % kMod;
  memcpy(out, p, sizeof p);
}
static void MatrixProduct(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) Product((int*)in + 4 * i, (int*)inout + 4 * i, (int*)inout + 4 * i);
}
static void MatrixOf(int r, int* m) {
  m[0] = r + 1, m[1] = 1, m[2] = 1, m[3] = 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &R);
  MPI_Comm_size(MPI_COMM_WORLD, &N);
  EXPECT(N <= MAXR, "at most %d ranks, not %d", MAXR, N);
  const int count = 1000; /* ints */
  int* buf = malloc(sizeof(int) * count * N);
  int* out = malloc(sizeof(int) * count * N);
  double t0;

  /* Scan and exscan of MPI_SUM: rank r gets the sum over ranks 0..r (0..r-1). */
  for (int exclusive = 0; exclusive < 2; ++exclusive) {
    for (int i = 0; i < count; ++i) buf[i] = R + i, out[i] = -1;
    t0 = NowNs();
    if (exclusive) {
      MPI_Exscan(buf, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else {
      MPI_Scan(buf, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    const int upto = exclusive ? R - 1 : R; /* the last rank summed */
    if (upto >= 0) {
      for (int i = 0; i < count; ++i) {
        EXPECT(out[i] == upto * (upto + 1) / 2 + (upto + 1) * i, "%s word %d: %d",
               exclusive ? "exscan" : "scan", i, out[i]);
      }
    }
    GatherTimes(t0);
    Chain(T(count * sizeof(int)));
    ExpectEnds(exclusive ? "exscan" : "scan");
  }
  /* In place. */
  for (int i = 0; i < count; ++i) out[i] = 2 * R + i;
  MPI_Scan(MPI_IN_PLACE, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i) {
    EXPECT(out[i] == R * (R + 1) + (R + 1) * i, "scan in place word %d: %d", i, out[i]);
  }
  for (int i = 0; i < count; ++i) out[i] = 2 * R + i;
  MPI_Exscan(MPI_IN_PLACE, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (R > 0) {
    for (int i = 0; i < count; ++i) {
      EXPECT(out[i] == (R - 1) * R + R * i, "exscan in place word %d: %d", i, out[i]);
    }
  }

  /* An operation that does not commute: the products M_0 ... M_r. */
  {
    MPI_Datatype matrix;
    MPI_Type_contiguous(4, MPI_INT, &matrix);
    MPI_Type_commit(&matrix);
    MPI_Op product;
    MPI_Op_create(MatrixProduct, /*commute=*/0, &product);
    int mine[4], got[4], exgot[4], expect[4] = {1, 0, 0, 1}, m[4];
    MatrixOf(R, mine);
    MPI_Scan(mine, got, 1, matrix, product, MPI_COMM_WORLD);
    MPI_Exscan(mine, exgot, 1, matrix, product, MPI_COMM_WORLD);
    for (int r = 0; r < R; ++r) {
      MatrixOf(r, m);
      Product(expect, m, expect);
    }
    if (R > 0) {
      EXPECT(memcmp(exgot, expect, sizeof expect) == 0, "exscan of matrices: %d %d %d %d",
             exgot[0], exgot[1], exgot[2], exgot[3]);
    }
    Product(expect, mine, expect);
    EXPECT(memcmp(got, expect, sizeof expect) == 0, "scan of matrices: %d %d %d %d", got[0],
           got[1], got[2], got[3]);
    MPI_Op_free(&product);
    MPI_Type_free(&matrix);
  }

  /* Reduce_scatter: block r of (r + 1) * 100 ints; the ring. */
  int counts[MAXR], displs[MAXR];
  int total = 0;
  for (int r = 0; r < N; ++r) counts[r] = (r + 1) * 100, displs[r] = total, total += counts[r];
  int* big = malloc(sizeof(int) * (total > count * N ? total : count * N));
  for (int block = 0; block < 2; ++block) {
    const int* c = block ? NULL : counts;
    const int n = block ? count * N : total;
    for (int i = 0; i < n; ++i) big[i] = R * 3 + i;
    t0 = NowNs();
    if (block) {
      MPI_Reduce_scatter_block(big, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else {
      MPI_Reduce_scatter(big, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    const int first = block ? R * count : displs[R];
    const int mine = block ? count : counts[R];
    for (int i = 0; i < mine; ++i) {
      EXPECT(out[i] == 3 * N * (N - 1) / 2 + N * (first + i), "%s word %d: %d",
             block ? "reduce_scatter_block" : "reduce_scatter", i, out[i]);
    }
    GatherTimes(t0);
    double next[MAXR];
    memcpy(want, start, sizeof(double) * N);
    for (int s = 0; s < N - 1; ++s) {  /* step s: r-1 passes block r-2-s */
      for (int r = 0; r < N; ++r) {
        const int from = (r - 1 + N) % N;
        const int b = ((from - 1 - s) % N + N) % N;
        next[r] = Max(want[r], want[from] + T((c ? c[b] : count) * sizeof(int)));
      }
      memcpy(want, next, sizeof(double) * N);
    }
    ExpectEnds(block ? "reduce_scatter_block" : "reduce_scatter");
  }
  free(big);

  /* Alltoallw: s sends d (s + d + 1) * 10 elements of d's type. */
  {
    const char* coll = getenv("TRESTLE_MPI_COLL");
    const int linear = coll == NULL || strstr(coll, "alltoall=pairwise") == NULL;
    int scounts[MAXR], sdispls[MAXR], rcounts[MAXR], rdispls[MAXR];
    MPI_Datatype stypes[MAXR], rtypes[MAXR];
    int sat = 0, rat = 0;
    for (int d = 0; d < N; ++d) {
      stypes[d] = d % 2 == 0 ? MPI_INT : MPI_DOUBLE;
      rtypes[d] = R % 2 == 0 ? MPI_INT : MPI_DOUBLE;
      scounts[d] = (R + d + 1) * 10;
      rcounts[d] = (d + R + 1) * 10;
      sdispls[d] = sat, rdispls[d] = rat; /* bytes */
      sat += scounts[d] * (d % 2 == 0 ? 4 : 8);
      rat += rcounts[d] * (R % 2 == 0 ? 4 : 8);
    }
    char* sbuf = malloc(sat);
    char* rbuf = malloc(rat);
    for (int d = 0; d < N; ++d) {
      for (int i = 0; i < scounts[d]; ++i) {
        const int v = R * 1000 + d * 10 + i % 10;
        if (d % 2 == 0) ((int*)(sbuf + sdispls[d]))[i] = v;
        else ((double*)(sbuf + sdispls[d]))[i] = v;
      }
    }
    t0 = NowNs();
    MPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, MPI_COMM_WORLD);
    for (int s2 = 0; s2 < N; ++s2) {
      for (int i = 0; i < rcounts[s2]; ++i) {
        const double v = R % 2 == 0 ? ((int*)(rbuf + rdispls[s2]))[i]
                                    : ((double*)(rbuf + rdispls[s2]))[i];
        EXPECT(v == s2 * 1000 + R * 10 + i % 10, "alltoallw from %d word %d: %.0f", s2, i, v);
      }
    }
    GatherTimes(t0);
    AlltoallEnds(linear, AlltoallwMessage);
    ExpectEnds(linear ? "alltoallw (linear)" : "alltoallw (pairwise)");
    free(sbuf);
    free(rbuf);
  }
  free(buf);
  free(out);
  if (R == 0) printf("scans_and_scatters: %d ranks: ok\n", N);
  MPI_Finalize();
  return 0;
}
