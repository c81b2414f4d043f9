/* Persistent requests round a ring: every rank makes, once, a receive
 * from its left neighbour (MPI_Recv_init) and a send to its right one in
 * each of MPI_Send_init, MPI_Ssend_init and MPI_Bsend_init, then ITERS
 * times starts the receive and one of the sends (MPI_Startall, by turns)
 * and waits for both (MPI_Waitall). Each iteration takes exactly one
 * message's time; the data carries the sender and the iteration; after
 * every wait the handles are still valid, inactive: a wait or test on them
 * returns at once, with an empty status. A last round polls instead,
 * which completes within one poll of the message's
 * arrival (MPI_Request_get_status polls the receive, then MPI_Testall
 * completes both). Then MPI_Request_free frees them all.
 * Usage: persistent_ring LINK_NS BYTES_PER_NS ITERS BYTES POLL_NS */
#include <string.h>

#include "model_time.h"

static void ExpectEmpty(const MPI_Status* st, const char* what) {
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  EXPECT(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0,
         "%s: status of an inactive request: source %d tag %d count %d", what, st->MPI_SOURCE,
         st->MPI_TAG, count);
}

static void Fill(int* data, int n, int rank, int it) {
  for (int i = 0; i < n; ++i) data[i] = rank * 1000000 + it * 1000 + i % 1000;
}

static void Check(const int* data, int n, int from, int it, const MPI_Status* st) {
  int count = -1;
  MPI_Get_count(st, MPI_INT, &count);
  EXPECT(st->MPI_SOURCE == from && st->MPI_TAG == 3 && count == n,
         "iteration %d: source %d tag %d count %d", it, st->MPI_SOURCE, st->MPI_TAG, count);
  for (int i = 0; i < n; ++i) {
    EXPECT(data[i] == from * 1000000 + it * 1000 + i % 1000, "iteration %d word %d: %d", it, i,
           data[i]);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  const int iters = argc > 3 ? atoi(argv[3]) : 6;
  const int bytes = argc > 4 ? atoi(argv[4]) : 4096;
  const double poll_ns = argc > 5 ? atof(argv[5]) : 100;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  const int n = bytes / (int)sizeof(int);
  int* out = malloc(bytes);
  int* in = malloc(bytes);
  const int attached = bytes + MPI_BSEND_OVERHEAD;
  void* bsend_buffer = malloc(attached);
  MPI_Buffer_attach(bsend_buffer, attached);

  enum { kRecv, kSend, kSsend, kBsend, kHandles };
  MPI_Request req[kHandles];
  MPI_Recv_init(in, n, MPI_INT, left, 3, MPI_COMM_WORLD, &req[kRecv]);
  MPI_Send_init(out, n, MPI_INT, right, 3, MPI_COMM_WORLD, &req[kSend]);
  MPI_Ssend_init(out, n, MPI_INT, right, 3, MPI_COMM_WORLD, &req[kSsend]);
  MPI_Bsend_init(out, n, MPI_INT, right, 3, MPI_COMM_WORLD, &req[kBsend]);

  /* Inactive: complete at once, with an empty status, and still valid. */
  const double start = NowNs();
  MPI_Status st[2];
  int flag = 0, index = -2;
  MPI_Test(&req[kRecv], &flag, &st[0]);
  EXPECT(flag == 1 && req[kRecv] != MPI_REQUEST_NULL, "MPI_Test of an inactive request");
  ExpectEmpty(&st[0], "MPI_Test");
  MPI_Wait(&req[kSend], &st[0]);
  EXPECT(req[kSend] != MPI_REQUEST_NULL, "MPI_Wait freed an inactive persistent request");
  ExpectEmpty(&st[0], "MPI_Wait");
  MPI_Waitany(kHandles, req, &index, &st[0]);
  EXPECT(index == MPI_UNDEFINED, "MPI_Waitany over inactive requests gave index %d", index);
  EXPECT(NowNs() == start, "waits on inactive requests took %.0f ns", NowNs() - start);

  for (int it = 0; it < iters; ++it) {
    Fill(out, n, rank, it);
    MPI_Request pair[2] = {req[kRecv], req[kSend + it % 3]};
    MPI_Startall(2, pair);
    MPI_Waitall(2, pair, st);
    EXPECT(pair[0] == req[kRecv] && pair[1] == req[kSend + it % 3],
           "MPI_Waitall changed a persistent request's handle");
    memset(out, 0xff, bytes); /* the send is complete: its buffer is the program's */
    Check(in, n, left, it, &st[0]);
    const double expect = start + (it + 1) * T(bytes);
    EXPECT(NowNs() == expect, "after iteration %d at %.0f ns, not %.0f", it, NowNs(), expect);
    MPI_Wait(&pair[0], &st[0]); /* inactive again */
    ExpectEmpty(&st[0], "MPI_Wait after completion");
    EXPECT(NowNs() == expect, "a wait on a completed persistent request took time");
  }

  /* Polled: done within one poll of the arrival. */
  const double before = NowNs();
  Fill(out, n, rank, iters);
  MPI_Start(&req[kRecv]);
  MPI_Start(&req[kSend]);
  MPI_Request pair[2] = {req[kRecv], req[kSend]};
  int polls = 0;
  for (flag = 0; !flag; ++polls) MPI_Request_get_status(req[kRecv], &flag, &st[0]);
  EXPECT(st[0].MPI_SOURCE == left, "MPI_Request_get_status: source %d", st[0].MPI_SOURCE);
  MPI_Testall(2, pair, &flag, st);
  EXPECT(flag == 1, "MPI_Testall after MPI_Request_get_status found it complete");
  Check(in, n, left, iters, &st[0]);
  MPI_Request_get_status(req[kRecv], &flag, &st[0]);
  EXPECT(flag == 1, "MPI_Request_get_status of an inactive request");
  ExpectEmpty(&st[0], "MPI_Request_get_status");
  const double arrival = before + T(bytes);
  EXPECT(polls > 1 && NowNs() >= arrival && NowNs() < arrival + poll_ns,
         "polled round done at %.0f ns after %d polls; the message arrives at %.0f", NowNs(),
         polls, arrival);

  for (int h = 0; h < kHandles; ++h) {
    MPI_Request_free(&req[h]);
    EXPECT(req[h] == MPI_REQUEST_NULL, "MPI_Request_free left handle %d", h);
  }
  void* detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);
  if (rank == 0) {
    printf("persistent_ring: %d ranks x %d iterations of %d bytes: %.0f ns, ok\n", size, iters,
           bytes, before - start);
  }
  free(out);
  free(in);
  free(bsend_buffer);
  MPI_Finalize();
  return 0;
}
