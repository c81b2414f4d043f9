// The Fortran point-to-point entry points (fortran_names.h): sends,
// receives, MPI_Sendrecv(_replace), probes and matched probes, the handles
// converted; each calls its C entry point (wrap_point_to_point.cc), which
// models it.
#include <mpi.h>

#include "fortran_handles.h"
#include "fortran_names.h"

using trestle::mpi::fortran::Buffer;
using trestle::mpi::fortran::SetError;
using trestle::mpi::fortran::SetLogical;
using trestle::mpi::fortran::StatusOut;

extern "C" {

#define TRESTLE_FORTRAN_SEND(stem, STEM, CALL)                                                \
  void trestle_fortran_##stem(const void* buf, const MPI_Fint* count, const MPI_Fint* type,    \
                              const MPI_Fint* dest, const MPI_Fint* tag, const MPI_Fint* comm, \
                              MPI_Fint* ierr) {                                                \
    SetError(ierr, CALL(Buffer(buf), *count, MPI_Type_f2c(*type), *dest, *tag,                 \
                        MPI_Comm_f2c(*comm)));                                                 \
  }                                                                                            \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_SEND(send, SEND, MPI_Send)
TRESTLE_FORTRAN_SEND(ssend, SSEND, MPI_Ssend)
TRESTLE_FORTRAN_SEND(rsend, RSEND, MPI_Rsend)
TRESTLE_FORTRAN_SEND(bsend, BSEND, MPI_Bsend)
#undef TRESTLE_FORTRAN_SEND

#define TRESTLE_FORTRAN_ISEND(stem, STEM, CALL)                                               \
  void trestle_fortran_##stem(const void* buf, const MPI_Fint* count, const MPI_Fint* type,    \
                              const MPI_Fint* dest, const MPI_Fint* tag, const MPI_Fint* comm, \
                              MPI_Fint* request, MPI_Fint* ierr) {                             \
    MPI_Request c_request = MPI_REQUEST_NULL;                                                  \
    const int rc = CALL(Buffer(buf), *count, MPI_Type_f2c(*type), *dest, *tag,                 \
                        MPI_Comm_f2c(*comm), &c_request);                                      \
    if (rc == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);                              \
    SetError(ierr, rc);                                                                        \
  }                                                                                            \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_ISEND(isend, ISEND, MPI_Isend)
TRESTLE_FORTRAN_ISEND(issend, ISSEND, MPI_Issend)
TRESTLE_FORTRAN_ISEND(irsend, IRSEND, MPI_Irsend)
TRESTLE_FORTRAN_ISEND(ibsend, IBSEND, MPI_Ibsend)
#undef TRESTLE_FORTRAN_ISEND

void trestle_fortran_recv(void* buf, const MPI_Fint* count, const MPI_Fint* type,
                          const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm,
                          MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  const int rc = MPI_Recv(Buffer(buf), *count, MPI_Type_f2c(*type), *source, *tag,
                          MPI_Comm_f2c(*comm), s.c());
  if (rc == MPI_SUCCESS) s.Store();
  SetError(ierr, rc);
}

void trestle_fortran_irecv(void* buf, const MPI_Fint* count, const MPI_Fint* type,
                           const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm,
                           MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int rc = MPI_Irecv(Buffer(buf), *count, MPI_Type_f2c(*type), *source, *tag,
                           MPI_Comm_f2c(*comm), &c_request);
  if (rc == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);
  SetError(ierr, rc);
}

void trestle_fortran_sendrecv(const void* sendbuf, const MPI_Fint* sendcount,
                              const MPI_Fint* sendtype, const MPI_Fint* dest,
                              const MPI_Fint* sendtag, void* recvbuf, const MPI_Fint* recvcount,
                              const MPI_Fint* recvtype, const MPI_Fint* source,
                              const MPI_Fint* recvtag, const MPI_Fint* comm, MPI_Fint* status,
                              MPI_Fint* ierr) {
  StatusOut s(status);
  const int rc = MPI_Sendrecv(Buffer(sendbuf), *sendcount, MPI_Type_f2c(*sendtype), *dest,
                              *sendtag, Buffer(recvbuf), *recvcount, MPI_Type_f2c(*recvtype),
                              *source, *recvtag, MPI_Comm_f2c(*comm), s.c());
  if (rc == MPI_SUCCESS) s.Store();
  SetError(ierr, rc);
}

void trestle_fortran_sendrecv_replace(void* buf, const MPI_Fint* count, const MPI_Fint* type,
                                      const MPI_Fint* dest, const MPI_Fint* sendtag,
                                      const MPI_Fint* source, const MPI_Fint* recvtag,
                                      const MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  const int rc = MPI_Sendrecv_replace(Buffer(buf), *count, MPI_Type_f2c(*type), *dest, *sendtag,
                                      *source, *recvtag, MPI_Comm_f2c(*comm), s.c());
  if (rc == MPI_SUCCESS) s.Store();
  SetError(ierr, rc);
}

void trestle_fortran_probe(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm,
                           MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  const int rc = MPI_Probe(*source, *tag, MPI_Comm_f2c(*comm), s.c());
  if (rc == MPI_SUCCESS) s.Store();
  SetError(ierr, rc);
}

void trestle_fortran_iprobe(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm,
                            MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  int c_flag = 0;
  const int rc = MPI_Iprobe(*source, *tag, MPI_Comm_f2c(*comm), &c_flag, s.c());
  if (rc == MPI_SUCCESS) {
    SetLogical(flag, c_flag);
    if (c_flag != 0) s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_mprobe(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm,
                            MPI_Fint* message, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  MPI_Message c_message = MPI_MESSAGE_NULL;
  const int rc = MPI_Mprobe(*source, *tag, MPI_Comm_f2c(*comm), &c_message, s.c());
  if (rc == MPI_SUCCESS) {
    *message = MPI_Message_c2f(c_message);
    s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_improbe(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm,
                             MPI_Fint* flag, MPI_Fint* message, MPI_Fint* status,
                             MPI_Fint* ierr) {
  StatusOut s(status);
  MPI_Message c_message = MPI_MESSAGE_NULL;
  int c_flag = 0;
  const int rc = MPI_Improbe(*source, *tag, MPI_Comm_f2c(*comm), &c_flag, &c_message, s.c());
  if (rc == MPI_SUCCESS) {
    SetLogical(flag, c_flag);
    if (c_flag != 0) {
      *message = MPI_Message_c2f(c_message);
      s.Store();
    }
  }
  SetError(ierr, rc);
}

void trestle_fortran_mrecv(void* buf, const MPI_Fint* count, const MPI_Fint* type,
                           MPI_Fint* message, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  MPI_Message c_message = MPI_Message_f2c(*message);
  const int rc = MPI_Mrecv(Buffer(buf), *count, MPI_Type_f2c(*type), &c_message, s.c());
  if (rc == MPI_SUCCESS) {
    *message = MPI_Message_c2f(c_message);
    s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_imrecv(void* buf, const MPI_Fint* count, const MPI_Fint* type,
                            MPI_Fint* message, MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Message c_message = MPI_Message_f2c(*message);
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int rc = MPI_Imrecv(Buffer(buf), *count, MPI_Type_f2c(*type), &c_message, &c_request);
  if (rc == MPI_SUCCESS) {
    *message = MPI_Message_c2f(c_message);
    *request = MPI_Request_c2f(c_request);
  }
  SetError(ierr, rc);
}

}  // extern "C"

TRESTLE_FORTRAN(recv, RECV, trestle_fortran_recv)
TRESTLE_FORTRAN(irecv, IRECV, trestle_fortran_irecv)
TRESTLE_FORTRAN(sendrecv, SENDRECV, trestle_fortran_sendrecv)
TRESTLE_FORTRAN(sendrecv_replace, SENDRECV_REPLACE, trestle_fortran_sendrecv_replace)
TRESTLE_FORTRAN(probe, PROBE, trestle_fortran_probe)
TRESTLE_FORTRAN(iprobe, IPROBE, trestle_fortran_iprobe)
TRESTLE_FORTRAN(mprobe, MPROBE, trestle_fortran_mprobe)
TRESTLE_FORTRAN(improbe, IMPROBE, trestle_fortran_improbe)
TRESTLE_FORTRAN(mrecv, MRECV, trestle_fortran_mrecv)
TRESTLE_FORTRAN(imrecv, IMRECV, trestle_fortran_imrecv)
