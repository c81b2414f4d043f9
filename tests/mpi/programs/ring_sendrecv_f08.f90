! ring_sendrecv_f08: ring_sendrecv.f90 through `use mpi_f08` (handles are
! types, ierror is optional): the same steps, checks and printed times, and
! the same `refused` argument.
program ring_sendrecv_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 131072, m = 128  ! 1 MiB and 1 KiB of doubles
  double precision, allocatable :: ring(:)
  double precision :: out(m), in(m), total(1), t(5)
  integer :: ierr, rank, nranks, left, right, i
  type(MPI_Request) :: requests(2)
  type(MPI_Status) :: statuses(2)
  type(MPI_Comm) :: joined
  character(16) :: arg

  call MPI_Init(ierr)
  call check(ierr, 'MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
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
  if (statuses(1)%MPI_SOURCE /= left .or. statuses(1)%MPI_TAG /= 2) then
    call fail('MPI_Waitall: wrong status')
  end if
  if (requests(1) /= MPI_REQUEST_NULL .or. requests(2) /= MPI_REQUEST_NULL) then
    call fail('MPI_Waitall: requests not MPI_REQUEST_NULL')
  end if

  include 'ring_sendrecv_end.inc'
