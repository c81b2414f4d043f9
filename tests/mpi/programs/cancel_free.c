/* MPI_Cancel and MPI_Request_free of receives, between ranks 0 and 1
 * (others only take part in the barriers). Run with datagram ordering
 * (each message priced alone: T(bytes) after it is sent).
 *  1. A receive cancelled before its message came is cancelled
 *     (MPI_Test_cancelled), at once, its buffer untouched; the message,
 *     sent later, goes to the next receive of its source and tag, at its
 *     time. The same for an MPI_ANY_SOURCE receive, found by MPI_Test.
 *  2. A receive whose message has arrived by the cancel is not cancelled:
 *     its wait gives the data.
 *  3. A receive freed by MPI_Request_free still takes its message: of two
 *     sent, the next receive gets the second, at the second's time.
 *  4. A persistent receive cancelled, then started again, gets the next
 *     message; its handle stays valid throughout.
 * Usage: cancel_free LINK_NS BYTES_PER_NS BYTES */
#include <string.h>

#include "model_time.h"

static void Fill(char* data, int bytes, int seed) {
  for (int i = 0; i < bytes; ++i) data[i] = (char)(seed + i);
}

static void CheckData(const char* data, int bytes, int seed, const char* what) {
  for (int i = 0; i < bytes; ++i) {
    EXPECT(data[i] == (char)(seed + i), "%s: byte %d is %d", what, i, data[i]);
  }
}

static void ExpectCancelled(const MPI_Status* st, int want, const char* what) {
  int cancelled = -1;
  MPI_Test_cancelled(st, &cancelled);
  EXPECT(cancelled == want, "%s: MPI_Test_cancelled says %d", what, cancelled);
}

static void Go(int to, int tag) {
  int go = tag;
  MPI_Send(&go, 1, MPI_INT, to, tag, MPI_COMM_WORLD);
}

static void AwaitGo(int from, int tag) {
  int go = 0;
  MPI_Recv(&go, 1, MPI_INT, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  const int bytes = argc > 3 ? atoi(argv[3]) : 1000;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* a = malloc(2 * bytes);
  char* b = malloc(2 * bytes);
  char* c = malloc(2 * bytes);
  MPI_Request req;
  MPI_Status st;
  int count;

  /* 1. Cancelled before the message: it goes to the next receive. The
   * sender sends only once told to, after the cancel. */
  if (rank == 0) {
    const double t0 = NowNs();
    memset(a, 0x11, bytes);
    MPI_Irecv(a, bytes, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    EXPECT(req == MPI_REQUEST_NULL, "the cancelled receive's wait left its request");
    ExpectCancelled(&st, 1, "a receive with no message");
    for (int i = 0; i < bytes; ++i) EXPECT(a[i] == 0x11, "the cancelled receive wrote byte %d", i);
    MPI_Irecv(a, bytes, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    int flag = 0;
    MPI_Test(&req, &flag, &st);
    EXPECT(flag == 1, "MPI_Test of a cancelled receive is not complete");
    ExpectCancelled(&st, 1, "an MPI_ANY_SOURCE receive");
    EXPECT(NowNs() == t0, "cancelling took %.0f ns", NowNs() - t0);
    Go(1, 1);
    MPI_Recv(b, bytes, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_CHAR, &count);
    EXPECT(st.MPI_SOURCE == 1 && st.MPI_TAG == 5 && count == bytes, "source %d tag %d count %d",
           st.MPI_SOURCE, st.MPI_TAG, count);
    CheckData(b, bytes, 5, "the receive after the cancelled one");
    const double expect = t0 + T(sizeof(int)) + T(bytes);
    EXPECT(NowNs() == expect, "the message after the cancel came at %.0f ns, not %.0f", NowNs(),
           expect);
  } else if (rank == 1) {
    AwaitGo(0, 1);
    Fill(a, bytes, 5);
    MPI_Send(a, bytes, MPI_CHAR, 0, 5, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 2. The message is here by the cancel: the receive completes. */
  if (rank == 0) {
    MPI_Irecv(a, bytes, MPI_CHAR, 1, 6, MPI_COMM_WORLD, &req);
    /* Rank 1 sent tag 6, then tag 7: once 7 is here, so is 6. */
    MPI_Recv(b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double t = NowNs();
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    ExpectCancelled(&st, 0, "a receive whose message had arrived");
    MPI_Get_count(&st, MPI_CHAR, &count);
    EXPECT(st.MPI_SOURCE == 1 && st.MPI_TAG == 6 && count == bytes, "source %d tag %d count %d",
           st.MPI_SOURCE, st.MPI_TAG, count);
    CheckData(a, bytes, 6, "the receive cancelled too late");
    EXPECT(NowNs() == t, "its wait took %.0f ns", NowNs() - t);
  } else if (rank == 1) {
    Fill(a, bytes, 6);
    MPI_Send(a, bytes, MPI_CHAR, 0, 6, MPI_COMM_WORLD);
    MPI_Send(&rank, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 3. A freed receive takes the first of two messages. */
  if (rank == 0) {
    const double t0 = NowNs();
    memset(c, 0, 2 * bytes);
    MPI_Irecv(c, 2 * bytes, MPI_CHAR, 1, 8, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    EXPECT(req == MPI_REQUEST_NULL, "MPI_Request_free left the request");
    Go(1, 2);
    MPI_Recv(b, 2 * bytes, MPI_CHAR, 1, 8, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_CHAR, &count);
    EXPECT(count == 2 * bytes, "the receive after the freed one got %d bytes, not the second "
           "message's %d", count, 2 * bytes);
    CheckData(b, 2 * bytes, 9, "the second message");
    const double expect = t0 + T(sizeof(int)) + T(2 * bytes);
    EXPECT(NowNs() == expect, "the second message came at %.0f ns, not %.0f", NowNs(), expect);
    CheckData(c, bytes, 8, "the freed receive");
  } else if (rank == 1) {
    AwaitGo(0, 2);
    Fill(a, bytes, 8);
    Fill(b, 2 * bytes, 9);
    MPI_Send(a, bytes, MPI_CHAR, 0, 8, MPI_COMM_WORLD);
    MPI_Send(b, 2 * bytes, MPI_CHAR, 0, 8, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 4. A persistent receive, cancelled, then started again. */
  if (rank == 0) {
    MPI_Recv_init(a, bytes, MPI_CHAR, 1, 10, MPI_COMM_WORLD, &req);
    MPI_Start(&req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    EXPECT(req != MPI_REQUEST_NULL, "the wait freed a persistent request");
    ExpectCancelled(&st, 1, "a persistent receive");
    const double t0 = NowNs();
    MPI_Start(&req);
    Go(1, 3);
    MPI_Wait(&req, &st);
    ExpectCancelled(&st, 0, "the persistent receive started again");
    CheckData(a, bytes, 10, "the persistent receive started again");
    const double expect = t0 + T(sizeof(int)) + T(bytes);
    EXPECT(NowNs() == expect, "it completed at %.0f ns, not %.0f", NowNs(), expect);
    MPI_Request_free(&req);
  } else if (rank == 1) {
    AwaitGo(0, 3);
    Fill(a, bytes, 10);
    MPI_Send(a, bytes, MPI_CHAR, 0, 10, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("cancel_free: ok\n");
  free(a);
  free(b);
  free(c);
  MPI_Finalize();
  return 0;
}
