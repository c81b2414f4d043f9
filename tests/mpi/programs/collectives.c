/* Every modelled collective, checked for its data and for its modelled
 * times: MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Allgather,
 * MPI_Alltoall, each from several roots where it has one, then the vector
 * forms and gather and scatter (linear; allgatherv by ring). After each, the
 * ranks' start and end times are gathered, and every rank's end must be
 * what the algorithm named in TRESTLE_MPI_COLL (set by trestle mpirun
 * --coll) gives on the switch: a message of b bytes takes T(b) and a rank
 * sends a step's messages as soon as it has the step's inputs. A
 * collective TRESTLE_MPI_COLL does not name is checked for its data only.
 * Each message is priced alone: run it with the simulator's datagram
 * ordering (trestle mpirun --ordering message).
 * Needs a power-of-two number of ranks (recursive doubling).
 * Usage: collectives LINK_NS BYTES_PER_NS */
#include <string.h>

#include "collective_times.h"

static const char* Forced(const char* collective) {
  const char* coll = getenv("TRESTLE_MPI_COLL");
  if (coll == NULL) return NULL;
  const char* at = strstr(coll, collective);
  return at == NULL ? NULL : at + strlen(collective) + 1;  /* after "name=" */
}
static int Is(const char* forced, const char* algorithm) {
  return forced != NULL && strncmp(forced, algorithm, strlen(algorithm)) == 0;
}
/* Every rank's end must be want[r], if `forced` names the algorithm. */
static void ExpectForcedEnds(const char* what, const char* forced) {
  if (forced == NULL) return;
  char named[128];
  snprintf(named, sizeof named, "%s (%.20s)", what, forced);
  ExpectEnds(named);
}

/* Pairwise exchange rounds (recursive doubling / dissemination / ring
 * steps): in each, rank r waits for the message of rank from(r). */
static void Rounds(double* t, int rounds, double msg, int (*from)(int r, int k)) {
  double next[MAXR];
  for (int k = 0; k < rounds; ++k) {
    for (int r = 0; r < N; ++r) next[r] = Max(t[r], t[from(r, k)] + msg);
    memcpy(t, next, sizeof(double) * N);
  }
}
static int Xor(int r, int k) { return r ^ (1 << k); }
static int Dissemination(int r, int k) { return ((r - (1 << k)) % N + N) % N; }
static int Previous(int r, int k) { (void)k; return (r - 1 + N) % N; }
static int Pairwise(int r, int k) { return ((r - (k + 1)) % N + N) % N; }
/* Alltoallv: s sends r (s + r + 1) * 10 ints. */
static double AlltoallvMessage(int s, int r) { return T((s + r + 1) * 10 * sizeof(int)); }
static int Log2(int n) { int k = 0; while ((1 << k) < n) ++k; return k; }

static int BinomialParent(int r, int root) {
  const int v = (r - root + N) % N;
  return v == 0 ? -1 : ((v - (v & -v)) + root) % N;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &R);
  MPI_Comm_size(MPI_COMM_WORLD, &N);
  EXPECT(N <= MAXR && (N & (N - 1)) == 0, "a power of two up to %d ranks, not %d", MAXR, N);
  const int count = 1000; /* ints: 4000 bytes */
  const double msg = T(count * sizeof(int));
  int* buf = malloc(sizeof(int) * count * N);
  int* out = malloc(sizeof(int) * count * N);
  double t0;

  /* Barrier */
  const char* forced = Forced("barrier");
  t0 = NowNs();
  MPI_Barrier(MPI_COMM_WORLD);
  GatherTimes(t0);
  memcpy(want, start, sizeof(double) * N);
  Rounds(want, Log2(N), T(0), Is(forced, "dissemination") ? Dissemination : Xor);
  ExpectForcedEnds("barrier", forced);

  /* Bcast from each root */
  forced = Forced("bcast");
  for (int root = 0; root < N; ++root) {
    for (int i = 0; i < count; ++i) buf[i] = R == root ? root * 7 + i : -1;
    t0 = NowNs();
    MPI_Bcast(buf, count, MPI_INT, root, MPI_COMM_WORLD);
    for (int i = 0; i < count; ++i) EXPECT(buf[i] == root * 7 + i, "bcast word %d: %d", i, buf[i]);
    GatherTimes(t0);
    for (int v = 0; v < N; ++v) {  /* parents before children */
      const int r = (v + root) % N;
      const int parent = Is(forced, "linear") ? (r == root ? -1 : root) : BinomialParent(r, root);
      want[r] = parent < 0 ? start[r] : Max(start[r], (Is(forced, "linear") ? start[root] : want[parent]) + msg);
    }
    ExpectForcedEnds("bcast", forced);
  }

  /* Reduce to each root */
  forced = Forced("reduce");
  for (int root = 0; root < N; ++root) {
    for (int i = 0; i < count; ++i) buf[i] = R + i;
    t0 = NowNs();
    MPI_Reduce(buf, out, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (R == root) {
      for (int i = 0; i < count; ++i) {
        EXPECT(out[i] == N * (N - 1) / 2 + N * i, "reduce word %d: %d", i, out[i]);
      }
    }
    GatherTimes(t0);
    if (Is(forced, "linear")) {
      for (int r = 0; r < N; ++r) want[r] = start[r];
      for (int r = 0; r < N; ++r) if (r != root) want[root] = Max(want[root], start[r] + msg);
    } else {
      for (int v = N - 1; v >= 0; --v) {  /* children before parents */
        const int r = (v + root) % N;
        want[r] = start[r];
        for (int c = 0; c < N; ++c) {
          if (c != r && BinomialParent(c, root) == r) want[r] = Max(want[r], want[c] + msg);
        }
      }
    }
    ExpectForcedEnds("reduce", forced);
  }

  /* Allreduce */
  forced = Forced("allreduce");
  for (int i = 0; i < count; ++i) buf[i] = R * 3 + i;
  t0 = NowNs();
  MPI_Allreduce(buf, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i) {
    EXPECT(out[i] == 3 * N * (N - 1) / 2 + N * i, "allreduce word %d: %d", i, out[i]);
  }
  GatherTimes(t0);
  memcpy(want, start, sizeof(double) * N);
  if (Is(forced, "ring")) {
    Rounds(want, 2 * (N - 1), T(count * sizeof(int) / N), Previous);
  } else {
    Rounds(want, Log2(N), msg, Xor);
  }
  ExpectForcedEnds("allreduce", forced);

  /* Allgather */
  forced = Forced("allgather");
  for (int i = 0; i < count; ++i) buf[i] = R * 100000 + i;
  t0 = NowNs();
  MPI_Allgather(buf, count, MPI_INT, out, count, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < N; ++r) {
    for (int i = 0; i < count; ++i) {
      EXPECT(out[r * count + i] == r * 100000 + i, "allgather block %d word %d", r, i);
    }
  }
  GatherTimes(t0);
  memcpy(want, start, sizeof(double) * N);
  if (Is(forced, "recursive-doubling")) {
    double next[MAXR];
    for (int k = 0; k < Log2(N); ++k) {
      for (int r = 0; r < N; ++r) {
        next[r] = Max(want[r], want[r ^ (1 << k)] + T((1 << k) * count * sizeof(int)));
      }
      memcpy(want, next, sizeof(double) * N);
    }
  } else {
    Rounds(want, N - 1, msg, Previous);
  }
  ExpectForcedEnds("allgather", forced);

  /* Alltoall */
  forced = Forced("alltoall");
  for (int r = 0; r < N; ++r) {
    for (int i = 0; i < count; ++i) buf[r * count + i] = R * 1000 + r * 10 + i % 10;
  }
  t0 = NowNs();
  MPI_Alltoall(buf, count, MPI_INT, out, count, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < N; ++r) {
    for (int i = 0; i < count; ++i) {
      EXPECT(out[r * count + i] == r * 1000 + R * 10 + i % 10, "alltoall block from %d word %d", r,
             i);
    }
  }
  GatherTimes(t0);
  if (Is(forced, "linear")) {
    for (int r = 0; r < N; ++r) {
      want[r] = start[r];
      for (int s = 0; s < N; ++s) if (s != r) want[r] = Max(want[r], start[s] + msg);
    }
  } else {
    memcpy(want, start, sizeof(double) * N);
    Rounds(want, N - 1, msg, Pairwise);
  }
  ExpectForcedEnds("alltoall", forced);

  /* The vector forms, gather and scatter: rank r's block has (r + 1) * 100
   * ints (alltoallv: s sends d (s + d + 1) * 10). */
  int counts[MAXR], displs[MAXR], scounts[MAXR], sdispls[MAXR];
  for (int r = 0, at = 0; r < N; at += counts[r], ++r) {
    counts[r] = (r + 1) * 100;
    displs[r] = at;
  }
  int* big = malloc(sizeof(int) * (count * N + 100 * N * (N + 1)));
  for (int root = 0; root < N; root += N - 1) {
    /* Gatherv, then Scatterv of what was gathered. */
    for (int i = 0; i < counts[R]; ++i) buf[i] = R * 10000 + i;
    t0 = NowNs();
    MPI_Gatherv(buf, counts[R], MPI_INT, big, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    if (R == root) {
      for (int r = 0; r < N; ++r) {
        for (int i = 0; i < counts[r]; ++i) {
          EXPECT(big[displs[r] + i] == r * 10000 + i, "gatherv block %d word %d", r, i);
        }
      }
    }
    GatherTimes(t0);
    for (int r = 0; r < N; ++r) want[r] = start[r];
    for (int r = 0; r < N; ++r) {
      if (r != root) want[root] = Max(want[root], start[r] + T(counts[r] * sizeof(int)));
    }
    ExpectEnds("gatherv (linear)");
    t0 = NowNs();
    MPI_Scatterv(big, counts, displs, MPI_INT, out, counts[R], MPI_INT, root, MPI_COMM_WORLD);
    for (int i = 0; i < counts[R]; ++i) EXPECT(out[i] == R * 10000 + i, "scatterv word %d", i);
    GatherTimes(t0);
    for (int r = 0; r < N; ++r) {
      want[r] = r == root ? start[r] : Max(start[r], start[root] + T(counts[r] * sizeof(int)));
    }
    ExpectEnds("scatterv (linear)");
    /* Gather and Scatter: count ints each. */
    for (int i = 0; i < count; ++i) buf[i] = R + 5 * i;
    t0 = NowNs();
    MPI_Gather(buf, count, MPI_INT, big, count, MPI_INT, root, MPI_COMM_WORLD);
    MPI_Scatter(big, count, MPI_INT, out, count, MPI_INT, root, MPI_COMM_WORLD);
    for (int i = 0; i < count; ++i) EXPECT(out[i] == R + 5 * i, "gather+scatter word %d", i);
  }

  /* Allgatherv: ring, block r of rank r's size. */
  for (int i = 0; i < counts[R]; ++i) buf[i] = R * 7 + i;
  t0 = NowNs();
  MPI_Allgatherv(buf, counts[R], MPI_INT, big, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < N; ++r) {
    for (int i = 0; i < counts[r]; ++i) {
      EXPECT(big[displs[r] + i] == r * 7 + i, "allgatherv block %d word %d", r, i);
    }
  }
  GatherTimes(t0);
  {
    double next[MAXR];
    memcpy(want, start, sizeof(double) * N);
    for (int s = 0; s < N - 1; ++s) {
      for (int r = 0; r < N; ++r) {
        const int from = (r - 1 + N) % N;
        next[r] = Max(want[r], want[from] + T(counts[(from - s + N) % N] * sizeof(int)));
      }
      memcpy(want, next, sizeof(double) * N);
    }
  }
  ExpectEnds("allgatherv (ring)");

  /* Alltoallv: s sends d (s + d + 1) * 10 ints, with alltoall's algorithm. */
  forced = Forced("alltoall");
  int rcounts[MAXR], rdispls[MAXR];
  for (int d = 0, at = 0, rat = 0; d < N; ++d) {
    scounts[d] = rcounts[d] = (R + d + 1) * 10;
    sdispls[d] = at;
    rdispls[d] = rat;
    at += scounts[d];
    rat += rcounts[d];
    for (int i = 0; i < scounts[d]; ++i) big[sdispls[d] + i] = R * 1000 + d * 10 + i % 10;
  }
  t0 = NowNs();
  MPI_Alltoallv(big, scounts, sdispls, MPI_INT, out, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
  for (int s2 = 0; s2 < N; ++s2) {
    for (int i = 0; i < rcounts[s2]; ++i) {
      EXPECT(out[rdispls[s2] + i] == s2 * 1000 + R * 10 + i % 10, "alltoallv from %d word %d", s2,
             i);
    }
  }
  GatherTimes(t0);
  AlltoallEnds(Is(forced, "linear"), AlltoallvMessage);
  ExpectForcedEnds("alltoallv", forced);
  free(big);

  if (R == 0) printf("collectives: %d ranks, %s: ok\n", N, getenv("TRESTLE_MPI_COLL") ? getenv("TRESTLE_MPI_COLL") : "automatic");
  free(buf);
  free(out);
  MPI_Finalize();
  return 0;
}
