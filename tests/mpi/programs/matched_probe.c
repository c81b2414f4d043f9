/* Matched probes: rank k (1 .. N-1) sends rank 0 a message of k * BYTES
 * bytes, all at the same time, so they arrive in rank order, rank k's at
 * T(k * BYTES) after the send. Run with datagram ordering (each message
 * priced alone).
 *  1. MPI_Mprobe(MPI_ANY_SOURCE) finds them in that order, at those times,
 *     and MPI_Mrecv receives the one probed.
 *  2. MPI_Improbe polling finds rank 1's first, within one poll of its
 *     arrival; MPI_Imrecv and MPI_Wait receive it; then MPI_Mprobe of each
 *     other source and MPI_Imrecv.
 *  3. A message a matched probe took is no other receive's: rank 1 sends
 *     two; after MPI_Mprobe took the first, MPI_Recv gets the second, at
 *     its time; MPI_Mrecv then gets the first.
 * Ranks leave a barrier at different times: after the first, each message
 * carries its send time in its first 8 bytes (BYTES >= 8).
 * Usage: matched_probe LINK_NS BYTES_PER_NS BYTES POLL_NS */
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

/* Fill, with the sender's clock in the first 8 bytes. */
static void Stamp(char* data, int bytes, int seed) {
  Fill(data, bytes, seed);
  const double now = NowNs();
  memcpy(data, &now, sizeof now);
}

/* When a stamped message of `bytes` arrives; checks the rest of its data. */
static double Arrival(const char* data, int bytes, int seed, const char* what) {
  double sent;
  memcpy(&sent, data, sizeof sent);
  CheckData(data + sizeof sent, bytes - (int)sizeof sent, seed + (int)sizeof sent, what);
  return sent + T(bytes);
}

static int Count(const MPI_Status* st) {
  int count = -1;
  MPI_Get_count(st, MPI_CHAR, &count);
  return count;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  const int bytes = argc > 3 ? atoi(argv[3]) : 1000;
  const double poll_ns = argc > 4 ? atof(argv[4]) : 100;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* data = malloc((size_t)size * 2 * bytes);
  MPI_Message msg;
  MPI_Status st;

  /* 1. MPI_Mprobe from MPI_ANY_SOURCE, MPI_Mrecv. */
  const double t0 = NowNs();
  if (rank == 0) {
    for (int k = 1; k < size; ++k) {
      MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
      EXPECT(st.MPI_SOURCE == k && st.MPI_TAG == 40 + k && Count(&st) == k * bytes,
             "probe %d: source %d tag %d count %d", k, st.MPI_SOURCE, st.MPI_TAG, Count(&st));
      EXPECT(NowNs() == t0 + T(k * bytes), "probe %d at %.0f ns, not %.0f", k, NowNs(),
             t0 + T(k * bytes));
      MPI_Mrecv(data, Count(&st), MPI_CHAR, &msg, &st);
      EXPECT(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == k, "MPI_Mrecv %d", k);
      CheckData(data, k * bytes, k, "MPI_Mrecv");
      EXPECT(NowNs() == t0 + T(k * bytes), "MPI_Mrecv %d took time", k);
    }
  } else {
    Fill(data, rank * bytes, rank);
    MPI_Send(data, rank * bytes, MPI_CHAR, 0, 40 + rank, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 2. MPI_Improbe polling, MPI_Imrecv. */
  if (rank == 0) {
    int flag = 0, polls = 0;
    while (!flag) {
      MPI_Improbe(MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &flag, &msg, &st);
      ++polls;
    }
    const double found = NowNs();
    EXPECT(st.MPI_SOURCE == 1 && polls > 1, "first polled: source %d after %d polls",
           st.MPI_SOURCE, polls);
    for (int k = 1; k < size; ++k) {
      if (k > 1) MPI_Mprobe(k, 50, MPI_COMM_WORLD, &msg, &st);
      MPI_Request req;
      MPI_Imrecv(data, Count(&st), MPI_CHAR, &msg, &req);
      MPI_Wait(&req, &st);
      EXPECT(st.MPI_SOURCE == k && Count(&st) == k * bytes, "MPI_Imrecv %d: source %d count %d",
             k, st.MPI_SOURCE, Count(&st));
      const double arrival = Arrival(data, k * bytes, k + 50, "MPI_Imrecv");
      if (k == 1) {
        EXPECT(found >= arrival && found < arrival + poll_ns,
               "found at %.0f ns; it arrives at %.0f", found, arrival);
      }
    }
  } else {
    Stamp(data, rank * bytes, rank + 50);
    MPI_Send(data, rank * bytes, MPI_CHAR, 0, 50, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 3. What a matched probe took goes to its MPI_Mrecv only. */
  if (rank == 0) {
    MPI_Mprobe(1, 60, MPI_COMM_WORLD, &msg, &st);
    EXPECT(Count(&st) == bytes, "probed %d bytes, not the first message's %d", Count(&st), bytes);
    MPI_Recv(data + bytes, 2 * bytes, MPI_CHAR, 1, 60, MPI_COMM_WORLD, &st);
    EXPECT(Count(&st) == 2 * bytes, "MPI_Recv after the probe got %d bytes, not the second "
           "message's %d", Count(&st), 2 * bytes);
    const double second = Arrival(data + bytes, 2 * bytes, 61, "the second message");
    EXPECT(NowNs() == second, "the second message came at %.0f ns, not %.0f", NowNs(), second);
    MPI_Mrecv(data, bytes, MPI_CHAR, &msg, &st);
    Arrival(data, bytes, 60, "the probed message");
  } else if (rank == 1) {
    Stamp(data, bytes, 60);
    Stamp(data + bytes, 2 * bytes, 61);
    MPI_Send(data, bytes, MPI_CHAR, 0, 60, MPI_COMM_WORLD);
    MPI_Send(data + bytes, 2 * bytes, MPI_CHAR, 0, 60, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("matched_probe: %d ranks, ok\n", size);
  free(data);
  MPI_Finalize();
  return 0;
}
