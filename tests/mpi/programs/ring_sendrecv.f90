! ring_sendrecv: the Fortran twin of ring_sendrecv.c, through `use mpi`
! (or mpif.h, built with -DTRESTLE_MPIF_H; ring_sendrecv_f08.f90 is the
! mpi_f08 one). 1 MiB of doubles around the ring by MPI_Sendrecv_replace
! (MPI_STATUS_IGNORE), 1 KiB by MPI_Irecv/MPI_Isend/MPI_Waitall (statuses
! and requests read back), an MPI_Allreduce in place, an MPI_Barrier. It
! checks the data and prints each step's MPI_Wtime delta in ns, for
! test_fortran.py to compare with the C twin's and the model's. With the
! argument `refused` it calls MPI_Comm_join instead, which must be refused.
program ring_sendrecv
#ifdef TRESTLE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer, parameter :: n = 131072, m = 128  ! 1 MiB and 1 KiB of doubles
  double precision, allocatable :: ring(:)
  double precision :: out(m), in(m), total(1), t(5)
  integer :: ierr, rank, nranks, left, right, i, requests(2), joined
  character(16) :: arg
  integer :: statuses(MPI_STATUS_SIZE, 2)

  call MPI_Init(ierr)
  call check(ierr, 'MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  ! `refused`: a call libtrestle-mpi refuses (dynamic processes), which must
  ! end the run naming it, never run for real.
  call get_command_argument(1, arg)
  if (arg == 'refused') then
    call MPI_Comm_join(-1, joined, ierr)
    call fail('MPI_Comm_join returned')
  end if
  allocate(ring(n))
  do i = 1, n
    ring(i) = rank * 1.0d6 + i
  end do

  t(1) = MPI_Wtime()
  call MPI_Sendrecv_replace(ring, n, MPI_DOUBLE_PRECISION, right, 1, left, 1, MPI_COMM_WORLD, &
                            MPI_STATUS_IGNORE, ierr)
  call check(ierr, 'MPI_Sendrecv_replace')
  t(2) = MPI_Wtime()
  do i = 1, n
    if (ring(i) /= left * 1.0d6 + i) call fail('MPI_Sendrecv_replace: wrong data')
  end do

  out = rank
  call MPI_Irecv(in, m, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, requests(1), ierr)
  call check(ierr, 'MPI_Irecv')
  call MPI_Isend(out, m, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, requests(2), ierr)
  call check(ierr, 'MPI_Isend')
  call MPI_Waitall(2, requests, statuses, ierr)
  call check(ierr, 'MPI_Waitall')
  t(3) = MPI_Wtime()
  if (any(in /= left)) call fail('MPI_Irecv: wrong data')
  if (statuses(MPI_SOURCE, 1) /= left .or. statuses(MPI_TAG, 1) /= 2) then
    call fail('MPI_Waitall: wrong status')
  end if
  if (requests(1) /= MPI_REQUEST_NULL .or. requests(2) /= MPI_REQUEST_NULL) then
    call fail('MPI_Waitall: requests not MPI_REQUEST_NULL')
  end if

  include 'ring_sendrecv_end.inc'
