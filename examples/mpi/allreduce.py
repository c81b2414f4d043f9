"""An mpi4py program: MPI_Allreduce (MPI.SUM) of SIZE bytes of doubles, every
rank timing it with MPI.Wtime and checking the sum; rank 0 prints the
slowest rank's time, the fastest's, and whether every rank's data is right.
Usage: python3 allreduce.py [SIZE_BYTES]"""
import sys
from array import array

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
n = (int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20) // 8
send = array("d", (float(i % 1000 + rank) for i in range(n)))
recv = array("d", bytes(8 * n))
t0 = MPI.Wtime()
comm.Allreduce([send, MPI.DOUBLE], [recv, MPI.DOUBLE], op=MPI.SUM)
t1 = MPI.Wtime()
right = all(recv[i] == size * (i % 1000) + size * (size - 1) / 2 for i in range(n))
times = comm.gather(t1 - t0, root=0)
oks = comm.gather(right, root=0)
if rank == 0:
    print(f"allreduce: {size} ranks, {n * 8} bytes: max_t_ns={round(max(times) * 1e9)} "
          f"min_t_ns={round(min(times) * 1e9)} data={'ok' if all(oks) else 'WRONG'}")
