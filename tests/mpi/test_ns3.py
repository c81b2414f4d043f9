"""`trestle mpirun --simulator ns3`: an unmodified MPI program over the
packet-level simulator (trestle-sim ns3: each mirror a TCP transfer through
ns-3's model of the same switch), in lockstep time. ring_sendrecv (1 MiB by
MPI_Sendrecv_replace, 1 KiB by Irecv/Isend/Waitall, an MPI_Allreduce, an
MPI_Barrier, mirrored step by step) must end with its data right, print
the same times on every run, and take at least the analytical model's
times (TCP/IP adds headers, windows and acknowledgements to the bytes);
the flags ns-3 cannot honour are refused before anything starts, and
collectives whole by what ns-3 declares when the ranks join."""
import re

from conftest import SWITCH_LINKS, model_ns, mpirun, program, trestle_mpirun

RANKS = 2
LINE = re.compile(r"ring_sendrecv: rank (\d+): sendrecv_replace (\d+) ns, waitall (\d+) ns, "
                  r"allreduce (\d+) ns, barrier (\d+) ns, ok")


def ns3(*options, command=None):
    return trestle_mpirun(["--quiet", "--simulator", "ns3", "--topology", f"switch:{RANKS}",
                           *SWITCH_LINKS, *options],
                          command or [*mpirun(RANKS), program("ring_sendrecv")], timeout=180)


def ring_times():
    r = ns3()
    assert r.returncode == 0, r.stdout
    times = {int(m.group(1)): tuple(int(g) for g in m.groups()[1:])
             for m in LINE.finditer(r.stdout)}
    assert sorted(times) == list(range(RANKS)), r.stdout
    return times


def test_a_ring_over_ns3_ends_with_the_same_times_every_run_and_no_less_than_the_model():
    first = ring_times()
    assert ring_times() == first
    # On 2 ranks the allreduce and the barrier are one exchange each.
    analytical = (model_ns(1 << 20), model_ns(1024), model_ns(8), model_ns(0))
    for rank, times in first.items():
        assert all(t >= a for t, a in zip(times, analytical)), (rank, times, analytical)
    assert first[0][0] > model_ns(1 << 20), first  # a MiB of TCP is slower than its bytes


def test_flags_ns3_cannot_honour_are_refused_before_anything_starts():
    for options, error in [
            (["--model", "flow"], "--model is the fabric's: trestle-sim ns3 is a packet-level"),
            (["--routing", "valiant"], "--routing is the fabric's")]:
        r = ns3(*options, command=[*mpirun(RANKS), "true"])
        assert r.returncode == 2, r.stdout
        assert error in r.stdout, r.stdout


def test_collectives_whole_are_refused_by_what_ns3_declares_not_by_its_name():
    # trestle-sim ns3's Hello does not declare replays_collectives: each rank
    # learns that at its Welcome and stops, naming the simulator.
    r = ns3("--mirror", "collectives")
    assert r.returncode != 0, r.stdout
    assert "simulator 'ns3' does not replay collectives" in r.stdout, r.stdout
    assert "--mirror steps or auto" in r.stdout, r.stdout
