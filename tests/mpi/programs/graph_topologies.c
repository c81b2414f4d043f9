/* Communicators with a graph topology: MPI_Graph_create (a ring, and one
 * of all ranks but the last, which gets MPI_COMM_NULL),
 * MPI_Dist_graph_create_adjacent (a directed ring, unweighted) and
 * MPI_Dist_graph_create (the same ring, each rank giving its own edge,
 * weighted). Each checks its topology queries, passes messages to its
 * neighbours with the same tag as one on MPI_COMM_WORLD (which must never
 * meet them) and sums the ranks over itself (MPI_Allreduce); a message to
 * a neighbour takes one model message time, as on any communicator.
 * Usage: graph_topologies LINK_NS BYTES_PER_NS */
#include "model_time.h"

enum { kBytes = 4096, kTag = 9 };

static int rank, size;

/* Sends kBytes to `to` and receives them from `from` on `comm`
 * (MPI_Sendrecv); checks the data came from `from_world` and that the
 * receive ended one message time after its sender started (the sender's
 * start travels in the message), or at once if that time had passed. */
static void Exchange(MPI_Comm comm, int to, int from, int from_world, const char* what) {
  enum { kWords = kBytes / sizeof(double) };
  static double out[kWords], in[kWords];
  const double start = NowNs();
  out[0] = start;
  for (int i = 1; i < kWords; ++i) out[i] = rank * 1000 + i;
  MPI_Sendrecv(out, kWords, MPI_DOUBLE, to, kTag, in, kWords, MPI_DOUBLE, from, kTag, comm,
               MPI_STATUS_IGNORE);
  const double end = NowNs();
  for (int i = 1; i < kWords; ++i) {
    EXPECT(in[i] == from_world * 1000 + i, "%s: word %d is %.0f", what, i, in[i]);
  }
  const double due = fmax(start, in[0] + T(kBytes));
  EXPECT(end == due,
         "%s: the exchange ended at %.0f ns, not %.0f (started at %.0f, its sender at "
         "%.0f)",
         what, end, due, start, in[0]);
}

static void SumOver(MPI_Comm comm, int expect, const char* what) {
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
  EXPECT(sum == expect, "%s: sum %d, not %d", what, sum, expect);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT(size >= 3, "at least 3 ranks, not %d", size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const int all = size * (size - 1) / 2;

  /* A message on the world with the graphs' tag, received last. */
  int world_token = rank, world_in = -1;
  MPI_Request world_recv;
  MPI_Irecv(&world_in, 1, MPI_INT, left, kTag, MPI_COMM_WORLD, &world_recv);
  MPI_Send(&world_token, 1, MPI_INT, right, kTag, MPI_COMM_WORLD);

  /* The ring as a graph: node k's neighbours are k - 1 and k + 1. */
  int* index = malloc(size * sizeof(int));
  int* edges = malloc(2 * size * sizeof(int));
  for (int k = 0; k < size; ++k) {
    index[k] = 2 * (k + 1);
    edges[2 * k] = (k + size - 1) % size;
    edges[2 * k + 1] = (k + 1) % size;
  }
  MPI_Comm ring;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
  int topo = MPI_UNDEFINED, count = 0, neighbours[2];
  MPI_Topo_test(ring, &topo);
  EXPECT(topo == MPI_GRAPH, "MPI_Topo_test gave %d, not MPI_GRAPH", topo);
  MPI_Graph_neighbors_count(ring, rank, &count);
  EXPECT(count == 2, "%d neighbours, not 2", count);
  MPI_Graph_neighbors(ring, rank, 2, neighbours);
  EXPECT(neighbours[0] == left && neighbours[1] == right, "neighbours %d and %d", neighbours[0],
         neighbours[1]);
  Exchange(ring, right, left, left, "MPI_Graph_create");
  Exchange(ring, left, right, right, "MPI_Graph_create, back");
  SumOver(ring, all, "MPI_Graph_create");

  /* A graph of all ranks but the last: that one is left out of it. */
  MPI_Comm fewer;
  MPI_Graph_create(MPI_COMM_WORLD, size - 1, index, edges, 0, &fewer);
  if (rank == size - 1) {
    EXPECT(fewer == MPI_COMM_NULL, "the last rank is in a graph of %d nodes", size - 1);
  } else {
    SumOver(fewer, all - (size - 1), "MPI_Graph_create of size - 1 nodes");
    MPI_Comm_free(&fewer);
  }

  /* The directed ring, each rank giving its own neighbours. */
  MPI_Comm directed;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &directed);
  int in_degree = -1, out_degree = -1, weighted = -1, source = -1, destination = -1;
  MPI_Dist_graph_neighbors_count(directed, &in_degree, &out_degree, &weighted);
  EXPECT(in_degree == 1 && out_degree == 1 && !weighted, "degrees %d and %d, weighted %d",
         in_degree, out_degree, weighted);
  MPI_Dist_graph_neighbors(directed, 1, &source, MPI_UNWEIGHTED, 1, &destination, MPI_UNWEIGHTED);
  EXPECT(source == left && destination == right, "source %d, destination %d", source, destination);
  Exchange(directed, destination, source, left, "MPI_Dist_graph_create_adjacent");
  SumOver(directed, all, "MPI_Dist_graph_create_adjacent");

  /* The same ring, each rank giving one edge of it, weighted. */
  MPI_Comm edge_by_edge;
  const int one = 1, weight = 7;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, &right, &weight, MPI_INFO_NULL, 0,
                        &edge_by_edge);
  int source_weight = -1, destination_weight = -1;
  MPI_Dist_graph_neighbors_count(edge_by_edge, &in_degree, &out_degree, &weighted);
  EXPECT(in_degree == 1 && out_degree == 1 && weighted, "degrees %d and %d, weighted %d", in_degree,
         out_degree, weighted);
  MPI_Dist_graph_neighbors(edge_by_edge, 1, &source, &source_weight, 1, &destination,
                           &destination_weight);
  EXPECT(source == left && destination == right && source_weight == weight &&
             destination_weight == weight,
         "source %d (weight %d), destination %d (weight %d)", source, source_weight, destination,
         destination_weight);
  Exchange(edge_by_edge, destination, source, left, "MPI_Dist_graph_create");
  SumOver(edge_by_edge, all, "MPI_Dist_graph_create");

  MPI_Wait(&world_recv, MPI_STATUS_IGNORE);
  EXPECT(world_in == left, "the world's message is %d, not %d", world_in, left);
  MPI_Comm_free(&edge_by_edge);
  MPI_Comm_free(&directed);
  MPI_Comm_free(&ring);
  free(index);
  free(edges);
  if (rank == 0) printf("graph_topologies: %d ranks, ok\n", size);
  MPI_Finalize();
  return 0;
}
