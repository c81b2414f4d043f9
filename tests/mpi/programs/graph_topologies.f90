! graph_topologies: communicator constructors from Fortran (`use mpi`):
! MPI_Graph_create (a ring, reorder .false.),
! MPI_Dist_graph_create_adjacent (a directed ring, MPI_UNWEIGHTED),
! MPI_Comm_dup and MPI_Comm_split, each checked by its queries and used: a
! message to the next rank on it (MPI_Sendrecv) and a sum of the ranks
! (MPI_Allreduce). Communicators the layer did not model would end the run
! at their first use.
program graph_topologies
  use mpi
  implicit none
  integer :: ierr, rank, nranks, left, right, k, ring, directed, count, sum, dup, half, hsize
  integer :: indegree, outdegree, source(1), destination(1), token
  logical :: weighted
  integer, allocatable :: index(:), edges(:), neighbours(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)

  allocate(index(nranks), edges(2 * nranks), neighbours(2))
  do k = 0, nranks - 1
    index(k + 1) = 2 * (k + 1)
    edges(2 * k + 1) = mod(k + nranks - 1, nranks)
    edges(2 * k + 2) = mod(k + 1, nranks)
  end do
  call MPI_Graph_create(MPI_COMM_WORLD, nranks, index, edges, .false., ring, ierr)
  call check(ierr, 'MPI_Graph_create')
  call MPI_Graph_neighbors_count(ring, rank, count, ierr)
  if (count /= 2) call fail('MPI_Graph_neighbors_count')
  call MPI_Graph_neighbors(ring, rank, 2, neighbours, ierr)
  if (neighbours(1) /= left .or. neighbours(2) /= right) call fail('MPI_Graph_neighbors')
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 3, token, 1, MPI_INTEGER, left, 3, ring, &
                    MPI_STATUS_IGNORE, ierr)
  if (token /= left) call fail('MPI_Sendrecv on the graph')
  call MPI_Allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, ring, ierr)
  if (sum /= nranks * (nranks - 1) / 2) call fail('MPI_Allreduce on the graph')

  source(1) = left
  destination(1) = right
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, source, MPI_UNWEIGHTED, 1, &
                                      destination, MPI_UNWEIGHTED, MPI_INFO_NULL, .false., &
                                      directed, ierr)
  call check(ierr, 'MPI_Dist_graph_create_adjacent')
  call MPI_Dist_graph_neighbors_count(directed, indegree, outdegree, weighted, ierr)
  if (indegree /= 1 .or. outdegree /= 1 .or. weighted) then
    call fail('MPI_Dist_graph_neighbors_count (MPI_UNWEIGHTED lost?)')
  end if
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 3, token, 1, MPI_INTEGER, left, 3, directed, &
                    MPI_STATUS_IGNORE, ierr)
  if (token /= left) call fail('MPI_Sendrecv on the distributed graph')
  call MPI_Allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, directed, ierr)
  if (sum /= nranks * (nranks - 1) / 2) call fail('MPI_Allreduce on the distributed graph')

  call MPI_Comm_dup(ring, dup, ierr)
  call check(ierr, 'MPI_Comm_dup')
  call MPI_Allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  if (sum /= nranks * (nranks - 1) / 2) call fail('MPI_Allreduce on the duplicate')
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call check(ierr, 'MPI_Comm_split')
  call MPI_Comm_size(half, hsize, ierr)
  if (hsize /= (nranks + 1 - mod(rank, 2)) / 2) call fail('MPI_Comm_size of the half')
  call MPI_Allreduce(1, sum, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  if (sum /= hsize) call fail('MPI_Allreduce on the half')

  call MPI_Comm_free(half, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free(directed, ierr)
  call MPI_Comm_free(ring, ierr)
  if (rank == 0) print '(a, i0, a)', 'graph_topologies (Fortran): ', nranks, ' ranks, ok'
  call MPI_Finalize(ierr)

contains

  subroutine check(code, what)
    integer, intent(in) :: code
    character(*), intent(in) :: what
    if (code /= MPI_SUCCESS) call fail(what)
  end subroutine check

  subroutine fail(what)
    character(*), intent(in) :: what
    integer :: e
    print '(a, i0, a, a)', 'rank ', rank, ': ', what
    call MPI_Abort(MPI_COMM_WORLD, 1, e)
  end subroutine fail
end program graph_topologies
