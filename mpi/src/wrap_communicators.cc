// Communicator entry points: the creations libtrestle-mpi models
// (CommCreation: dup, dup_with_info, split, split_type, create,
// cart_create, cart_sub, graph_create, dist_graph_create(_adjacent)) and
// MPI_Comm_free.
#include <mpi.h>

#include "comm_creation.h"
#include "mpi_layer.h"

using trestle::mpi::CallScope;

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  CallScope scope("MPI_Comm_dup");
  if (scope.layer() == nullptr) return PMPI_Comm_dup(comm, newcomm);
  return scope.layer()->creation().Create(comm, newcomm,
                                          [&] { return PMPI_Comm_dup(comm, newcomm); });
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  CallScope scope("MPI_Comm_dup_with_info");
  if (scope.layer() == nullptr) return PMPI_Comm_dup_with_info(comm, info, newcomm);
  return scope.layer()->creation().Create(
      comm, newcomm, [&] { return PMPI_Comm_dup_with_info(comm, info, newcomm); });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  CallScope scope("MPI_Comm_split");
  if (scope.layer() == nullptr) return PMPI_Comm_split(comm, color, key, newcomm);
  return scope.layer()->creation().Create(
      comm, newcomm, [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm* newcomm) {
  CallScope scope("MPI_Comm_split_type");
  if (scope.layer() == nullptr) return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  return scope.layer()->creation().Create(comm, newcomm, [&] {
    return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  CallScope scope("MPI_Comm_create");
  if (scope.layer() == nullptr) return PMPI_Comm_create(comm, group, newcomm);
  return scope.layer()->creation().Create(comm, newcomm,
                                          [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* comm_cart) {
  CallScope scope("MPI_Cart_create");
  if (scope.layer() == nullptr) {
    return PMPI_Cart_create(comm, ndims, dims, periods, reorder, comm_cart);
  }
  return scope.layer()->creation().Create(comm, comm_cart, [&] {
    return PMPI_Cart_create(comm, ndims, dims, periods, reorder, comm_cart);
  });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  CallScope scope("MPI_Cart_sub");
  if (scope.layer() == nullptr) return PMPI_Cart_sub(comm, remain_dims, newcomm);
  return scope.layer()->creation().Create(
      comm, newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* comm_graph) {
  CallScope scope("MPI_Graph_create");
  if (scope.layer() == nullptr) {
    return PMPI_Graph_create(comm, nnodes, index, edges, reorder, comm_graph);
  }
  return scope.layer()->creation().Create(comm, comm_graph, [&] {
    return PMPI_Graph_create(comm, nnodes, index, edges, reorder, comm_graph);
  });
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm* comm_dist_graph) {
  CallScope scope("MPI_Dist_graph_create");
  auto real = [&] {
    return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder,
                                  comm_dist_graph);
  };
  if (scope.layer() == nullptr) return real();
  return scope.layer()->creation().Create(comm, comm_dist_graph, real);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  CallScope scope("MPI_Dist_graph_create_adjacent");
  auto real = [&] {
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                           destinations, destweights, info, reorder,
                                           comm_dist_graph);
  };
  if (scope.layer() == nullptr) return real();
  return scope.layer()->creation().Create(comm, comm_dist_graph, real);
}

int MPI_Comm_free(MPI_Comm* comm) {
  CallScope scope("MPI_Comm_free");
  if (scope.layer() == nullptr) return PMPI_Comm_free(comm);
  return scope.layer()->creation().Free(comm);
}

}  // extern "C"
