/* Receives from MPI_ANY_SOURCE (and MPI_ANY_TAG), probes and
 * MPI_Sendrecv. A token goes round ranks 1 .. N-1 (rank k passes it to
 * k+1 once it has it); each rank sends rank 0 a message (tag = its rank)
 * as the token reaches it, so rank k's message arrives at 0 at
 * k * T(token) + T(data). Rank 0 takes them with MPI_ANY_SOURCE: it must
 * get them in that order, at those times, with their data; then the same
 * again with MPI_Iprobe polling (MPI_ANY_SOURCE, MPI_ANY_TAG) and
 * MPI_Probe before each MPI_Recv. Last, every rank exchanges with its
 * neighbours by MPI_Sendrecv, in one message time.
 * Usage: any_source LINK_NS BYTES_PER_NS DATA_BYTES */
#include "model_time.h"

static void PassToken(int rank, int size, int data_bytes, int round) {
  int token = round;
  char* data = calloc(data_bytes, 1);
  if (rank > 1) MPI_Recv(&token, 1, MPI_INT, rank - 1, 100 + round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < data_bytes; ++i) data[i] = (char)(rank + round + i);
  MPI_Send(data, data_bytes, MPI_CHAR, 0, rank, MPI_COMM_WORLD);
  if (rank + 1 < size) MPI_Send(&token, 1, MPI_INT, rank + 1, 100 + round, MPI_COMM_WORLD);
  free(data);
}

static void CheckData(const char* data, int bytes, int from, int round) {
  for (int i = 0; i < bytes; ++i) {
    EXPECT(data[i] == (char)(from + round + i), "byte %d from rank %d", i, from);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  const int data_bytes = argc > 3 ? atoi(argv[3]) : 1000;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* data = malloc(data_bytes);
  const double token = T(sizeof(int));

  /* Round 0: MPI_Recv from MPI_ANY_SOURCE. */
  if (rank == 0) {
    for (int k = 1; k < size; ++k) {
      MPI_Status st;
      MPI_Recv(data, data_bytes, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      int count;
      MPI_Get_count(&st, MPI_CHAR, &count);
      EXPECT(st.MPI_SOURCE == k && st.MPI_TAG == k && count == data_bytes,
             "receive %d: source %d tag %d count %d", k, st.MPI_SOURCE, st.MPI_TAG, count);
      CheckData(data, data_bytes, k, 0);
      const double expect = (k - 1) * token + T(data_bytes);
      EXPECT(NowNs() == expect, "receive %d at %.0f ns, not %.0f", k, NowNs(), expect);
    }
  } else {
    PassToken(rank, size, data_bytes, 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* Round 1: MPI_Iprobe polling, then MPI_Probe, then MPI_Recv. */
  if (rank == 0) {
    int flag = 0, polls = 0;
    MPI_Status st;
    while (!flag) {
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      ++polls;
    }
    EXPECT(st.MPI_SOURCE == 1 && st.MPI_TAG == 1, "first probed: source %d tag %d", st.MPI_SOURCE,
           st.MPI_TAG);
    EXPECT(polls > 1, "the first MPI_Iprobe found a message no rank had sent by then");
    for (int k = 1; k < size; ++k) {
      MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      EXPECT(st.MPI_SOURCE == k, "probe %d: source %d", k, st.MPI_SOURCE);
      int count;
      MPI_Get_count(&st, MPI_CHAR, &count);
      EXPECT(count == data_bytes, "probe %d: count %d", k, count);
      MPI_Recv(data, count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CheckData(data, data_bytes, k, 1);
    }
  } else {
    PassToken(rank, size, data_bytes, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* MPI_Sendrecv round the ring, each rank's start time as the data: it
   * ends when the left neighbour's message arrives, or at once if later. */
  double mine[2] = {NowNs(), rank}, theirs[2] = {-1, -1};
  MPI_Sendrecv(mine, 2, MPI_DOUBLE, (rank + 1) % size, 9, theirs, 2, MPI_DOUBLE,
               (rank - 1 + size) % size, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  EXPECT(theirs[1] == (rank - 1 + size) % size, "sendrecv got rank %.0f", theirs[1]);
  const double arrival = theirs[0] + T(2 * sizeof(double));
  const double expect = arrival > mine[0] ? arrival : mine[0];
  EXPECT(NowNs() == expect, "sendrecv ended at %.0f ns, not %.0f", NowNs(), expect);
  if (rank == 0) printf("any_source: %d ranks, ok\n", size);
  free(data);
  MPI_Finalize();
  return 0;
}
