// The Fortran communicator constructors libtrestle-mpi models, and
// MPI_Comm_free (fortran_names.h): each calls its C entry point
// (wrap_communicators.cc). LOGICAL arrays become C's int arrays; the
// weights sentinels C's (Weights).
#include <mpi.h>

#include <vector>

#include "fortran_handles.h"
#include "fortran_names.h"

using trestle::mpi::fortran::SetError;
using trestle::mpi::fortran::Weights;

using F = const MPI_Fint;

namespace {

std::vector<int> Logicals(F* fortran, int n) {
  std::vector<int> c(n > 0 ? static_cast<std::size_t>(n) : 0);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = fortran[i] != 0 ? 1 : 0;
  return c;
}

// Sets *newcomm (Fortran) from the call's C communicator, and *ierr.
// `c_newcomm` is a reference, read once the call (`rc`, an argument of the
// same call to Made, evaluated in no set order) has filled it.
void Made(int rc, const MPI_Comm& c_newcomm, MPI_Fint* newcomm, MPI_Fint* ierr) {
  if (rc == MPI_SUCCESS) *newcomm = MPI_Comm_c2f(c_newcomm);
  SetError(ierr, rc);
}

}  // namespace

extern "C" {

void trestle_fortran_comm_dup(F* comm, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Comm_dup(MPI_Comm_f2c(*comm), &c), c, newcomm, ierr);
}

void trestle_fortran_comm_dup_with_info(F* comm, F* info, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Comm_dup_with_info(MPI_Comm_f2c(*comm), MPI_Info_f2c(*info), &c), c, newcomm, ierr);
}

void trestle_fortran_comm_split(F* comm, F* color, F* key, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Comm_split(MPI_Comm_f2c(*comm), *color, *key, &c), c, newcomm, ierr);
}

void trestle_fortran_comm_split_type(F* comm, F* split_type, F* key, F* info, MPI_Fint* newcomm,
                                     MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Comm_split_type(MPI_Comm_f2c(*comm), *split_type, *key, MPI_Info_f2c(*info), &c), c,
       newcomm, ierr);
}

void trestle_fortran_comm_create(F* comm, F* group, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Comm_create(MPI_Comm_f2c(*comm), MPI_Group_f2c(*group), &c), c, newcomm, ierr);
}

void trestle_fortran_cart_create(F* comm, F* ndims, F* dims, F* periods, F* reorder,
                                 MPI_Fint* comm_cart, MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  const std::vector<int> c_periods = Logicals(periods, *ndims);
  Made(MPI_Cart_create(MPI_Comm_f2c(*comm), *ndims, dims, c_periods.data(), *reorder != 0, &c), c,
       comm_cart, ierr);
}

void trestle_fortran_cart_sub(F* comm, F* remain_dims, MPI_Fint* newcomm, MPI_Fint* ierr) {
  const MPI_Comm c_comm = MPI_Comm_f2c(*comm);
  int ndims = 0;
  if (const int rc = MPI_Cartdim_get(c_comm, &ndims); rc != MPI_SUCCESS) {
    SetError(ierr, rc);
    return;
  }
  MPI_Comm c = MPI_COMM_NULL;
  const std::vector<int> c_remain = Logicals(remain_dims, ndims);
  Made(MPI_Cart_sub(c_comm, c_remain.data(), &c), c, newcomm, ierr);
}

void trestle_fortran_graph_create(F* comm, F* nnodes, F* index, F* edges, F* reorder,
                                  MPI_Fint* comm_graph, MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Graph_create(MPI_Comm_f2c(*comm), *nnodes, index, edges, *reorder != 0, &c), c,
       comm_graph, ierr);
}

void trestle_fortran_dist_graph_create(F* comm, F* n, F* sources, F* degrees, F* destinations,
                                       F* weights, F* info, F* reorder, MPI_Fint* comm_dist_graph,
                                       MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Dist_graph_create(MPI_Comm_f2c(*comm), *n, sources, degrees, destinations,
                             Weights(weights), MPI_Info_f2c(*info), *reorder != 0, &c),
       c, comm_dist_graph, ierr);
}

void trestle_fortran_dist_graph_create_adjacent(F* comm, F* indegree, F* sources, F* sourceweights,
                                                F* outdegree, F* destinations, F* destweights,
                                                F* info, F* reorder, MPI_Fint* comm_dist_graph,
                                                MPI_Fint* ierr) {
  MPI_Comm c = MPI_COMM_NULL;
  Made(MPI_Dist_graph_create_adjacent(MPI_Comm_f2c(*comm), *indegree, sources,
                                      Weights(sourceweights), *outdegree, destinations,
                                      Weights(destweights), MPI_Info_f2c(*info), *reorder != 0, &c),
       c, comm_dist_graph, ierr);
}

void trestle_fortran_comm_free(MPI_Fint* comm, MPI_Fint* ierr) {
  MPI_Comm c = MPI_Comm_f2c(*comm);
  const int rc = MPI_Comm_free(&c);
  if (rc == MPI_SUCCESS) *comm = MPI_Comm_c2f(c);
  SetError(ierr, rc);
}

}  // extern "C"

TRESTLE_FORTRAN(comm_dup, COMM_DUP, trestle_fortran_comm_dup)
TRESTLE_FORTRAN(comm_dup_with_info, COMM_DUP_WITH_INFO, trestle_fortran_comm_dup_with_info)
TRESTLE_FORTRAN(comm_split, COMM_SPLIT, trestle_fortran_comm_split)
TRESTLE_FORTRAN(comm_split_type, COMM_SPLIT_TYPE, trestle_fortran_comm_split_type)
TRESTLE_FORTRAN(comm_create, COMM_CREATE, trestle_fortran_comm_create)
TRESTLE_FORTRAN(cart_create, CART_CREATE, trestle_fortran_cart_create)
TRESTLE_FORTRAN(cart_sub, CART_SUB, trestle_fortran_cart_sub)
TRESTLE_FORTRAN(graph_create, GRAPH_CREATE, trestle_fortran_graph_create)
TRESTLE_FORTRAN(dist_graph_create, DIST_GRAPH_CREATE, trestle_fortran_dist_graph_create)
TRESTLE_FORTRAN(dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT,
                trestle_fortran_dist_graph_create_adjacent)
TRESTLE_FORTRAN(comm_free, COMM_FREE, trestle_fortran_comm_free)
