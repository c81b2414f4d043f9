// Request entry points: the waits and tests, MPI_Request_get_status,
// MPI_Request_free and MPI_Cancel, in virtual time (RequestWaits).
#include <mpi.h>

#include "mpi_layer.h"
#include "request_waits.h"

using trestle::mpi::CallScope;

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  CallScope scope("MPI_Wait");
  if (scope.layer() == nullptr) return PMPI_Wait(request, status);
  return scope.layer()->waits().Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  CallScope scope("MPI_Waitall");
  if (scope.layer() == nullptr) return PMPI_Waitall(count, requests, statuses);
  return scope.layer()->waits().Waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  CallScope scope("MPI_Waitany");
  if (scope.layer() == nullptr) return PMPI_Waitany(count, requests, index, status);
  return scope.layer()->waits().Waitany(count, requests, index, status);
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  CallScope scope("MPI_Waitsome");
  if (scope.layer() == nullptr) {
    return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  }
  return scope.layer()->waits().Waitsome(incount, requests, outcount, indices, statuses);
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  CallScope scope("MPI_Test");
  if (scope.layer() == nullptr) return PMPI_Test(request, flag, status);
  return scope.layer()->waits().Test(request, flag, status);
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  CallScope scope("MPI_Testall");
  if (scope.layer() == nullptr) return PMPI_Testall(count, requests, flag, statuses);
  return scope.layer()->waits().Testall(count, requests, flag, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  CallScope scope("MPI_Testany");
  if (scope.layer() == nullptr) return PMPI_Testany(count, requests, index, flag, status);
  return scope.layer()->waits().Testany(count, requests, index, flag, status);
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  CallScope scope("MPI_Testsome");
  if (scope.layer() == nullptr) {
    return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  }
  return scope.layer()->waits().Testsome(incount, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  CallScope scope("MPI_Request_get_status");
  if (scope.layer() == nullptr) return PMPI_Request_get_status(request, flag, status);
  return scope.layer()->waits().GetStatus(request, flag, status);
}

int MPI_Request_free(MPI_Request* request) {
  CallScope scope("MPI_Request_free");
  if (scope.layer() == nullptr) return PMPI_Request_free(request);
  return scope.layer()->waits().RequestFree(request);
}

int MPI_Cancel(MPI_Request* request) {
  CallScope scope("MPI_Cancel");
  if (scope.layer() == nullptr) return PMPI_Cancel(request);
  return scope.layer()->waits().Cancel(request);
}

}  // extern "C"
