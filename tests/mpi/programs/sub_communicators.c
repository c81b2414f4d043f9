/* Communicators made by MPI_Comm_dup and MPI_Comm_split. The world is
 * split into even and odd ranks (key: the reverse of the world rank), each
 * half duplicated; each sub-communicator sums its members' world ranks
 * (MPI_Allreduce) and passes a token round itself with the same tag as a
 * token on MPI_COMM_WORLD, which must never meet it. The new communicators'
 * ranks, sizes and sums are checked, and the sub-communicators' messages
 * must take the model's time: a pass round the ring of a sub-communicator
 * of n ranks ends, at its first rank, n message times after it began (its
 * members start together after their allreduce: run it on 4 or 8 ranks,
 * whose halves are powers of two, so recursive doubling ends everywhere at
 * once). Usage: sub_communicators LINK_NS BYTES_PER_NS */
#include "model_time.h"

/* Rank 0 of `comm` sends a token round it (each rank adds one), the
 * token starting at `marker`; returns the virtual ns the round took at
 * rank 0 (0 elsewhere). */
static double TokenRound(MPI_Comm comm, int marker) {
  int rank, size, token = marker;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const double start = NowNs();
  if (rank == 0) {
    MPI_Send(&token, 1, MPI_INT, 1, 5, comm);
    MPI_Recv(&token, 1, MPI_INT, size - 1, 5, comm, MPI_STATUS_IGNORE);
    EXPECT(token == marker + size - 1, "token %d came back, not %d", token, marker + size - 1);
    return NowNs() - start;
  }
  MPI_Recv(&token, 1, MPI_INT, rank - 1, 5, comm, MPI_STATUS_IGNORE);
  EXPECT(token == marker + rank - 1, "token %d at rank %d of a communicator marked %d", token,
         rank, marker);
  token++;
  MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 5, comm);
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT(size >= 4, "at least 4 ranks, not %d", size);

  MPI_Comm half, half_dup, world_dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &world_dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  MPI_Comm_dup(half, &half_dup);
  int hrank, hsize;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  const int members = (size + 1 - rank % 2) / 2;
  EXPECT(hsize == members, "half of size %d, not %d", hsize, members);
  /* key size - rank: the highest world rank of the half is its rank 0 */
  const int highest = (size - 1) % 2 == rank % 2 ? size - 1 : size - 2;
  EXPECT(hrank == (highest - rank) / 2, "rank %d in its half, not %d", hrank, (highest - rank) / 2);

  int sum = 0, expect = 0;
  for (int r = rank % 2; r < size; r += 2) expect += r;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half_dup);
  EXPECT(sum == expect, "sum %d in the half, not %d", sum, expect);

  /* The same tag on the world duplicate and on a half at once: the halves
   * pass their tokens while the world's one goes round. */
  const double half_round = TokenRound(half, 1000 * (1 + rank % 2));
  const double world_round = TokenRound(world_dup, 0);
  if (hrank == 0) {
    EXPECT(half_round == hsize * T(sizeof(int)), "a round of the half took %.0f ns, not %.0f",
           half_round, hsize * T(sizeof(int)));
  }
  if (rank == 0) {
    EXPECT(world_round >= size * T(sizeof(int)), "a round of the world took %.0f ns", world_round);
    printf("sub_communicators: %d ranks, halves of %d and %d, ok\n", size, (size + 1) / 2,
           size / 2);
  }
  MPI_Comm_free(&half_dup);
  MPI_Comm_free(&half);
  MPI_Comm_free(&world_dup);
  MPI_Finalize();
  return 0;
}
