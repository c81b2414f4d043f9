"""Our C programs (programs/) through `trestle mpirun` on a switch of
400 Gbit/s, 500 ns links: halo exchange with MPI_Isend/MPI_Irecv,
MPI_ANY_SOURCE and probes, sub-communicators, graph topologies, and every modelled
collective under each of its algorithms. Each program checks its data and
its modelled times itself (exit status); the misuse cases must stop with
an error that names the problem."""
import os
import re
import subprocess

import pytest

from conftest import (BYTES_PER_NS, LINK_NS, SWITCH_LINKS, binary, mpirun, program,
                      trestle_mpirun)

LINK = [str(LINK_NS), str(BYTES_PER_NS)]

# Both ways of mirroring a collective (docs/mpi.md, "Mirroring
# collectives") must give every rank the pattern's times.
MIRRORS = pytest.mark.parametrize("mirror", ["steps", "collectives"])


def run_ok(np, name, *args, options=()):
    r = trestle_mpirun(["--topology", f"switch:{np}", *SWITCH_LINKS, *options],
                       [*mpirun(np), program(name), *LINK, *args])
    assert r.returncode == 0, r.stdout
    return r.stdout


def test_halo_exchange_takes_one_message_time_per_iteration():
    out = run_ok(4, "halo_exchange", "20", "4096")
    assert f"{20 * (2 * LINK_NS + round(4096 / BYTES_PER_NS))} ns, ok" in out, out


def test_any_source_receives_in_virtual_order_and_probes_find_them():
    assert "any_source: 4 ranks, ok" in run_ok(4, "any_source", "1000")


@MIRRORS
def test_sub_communicators_keep_apart_and_take_the_models_time(mirror):
    assert "sub_communicators: 4 ranks, halves of 2 and 2, ok" in run_ok(
        4, "sub_communicators", options=["--mirror", mirror])


@MIRRORS
def test_graph_topologies_are_communicators_like_any_other(mirror):
    assert "graph_topologies: 4 ranks, ok" in run_ok(
        4, "graph_topologies", options=["--mirror", mirror])


# collectives.c prices every message alone (its oracle knows no connection
# queues): the simulator runs with datagram ordering for it.
DATAGRAMS = ["--ordering", "message"]


@MIRRORS
def test_collectives_by_the_first_algorithms(mirror):
    coll = ("barrier=recursive-doubling,bcast=binomial,reduce=binomial,"
            "allreduce=recursive-doubling,allgather=ring,alltoall=pairwise")
    assert f"collectives: 4 ranks, {coll}: ok" in run_ok(
        4, "collectives", options=["--coll", coll, "--mirror", mirror, *DATAGRAMS])


@MIRRORS
def test_collectives_by_the_second_algorithms(mirror):
    coll = ("barrier=dissemination,bcast=linear,reduce=linear,allreduce=ring,"
            "allgather=recursive-doubling,alltoall=linear")
    assert f"collectives: 4 ranks, {coll}: ok" in run_ok(
        4, "collectives", options=["--coll", coll, "--mirror", mirror, *DATAGRAMS])


@pytest.mark.parametrize("mirror,alltoall", [("steps", "pairwise"), ("collectives", "linear")])
def test_scans_reduce_scatters_and_alltoallw_move_the_right_data_in_the_models_time(
        mirror, alltoall):
    assert "scans_and_scatters: 4 ranks: ok" in run_ok(
        4, "scans_and_scatters",
        options=["--coll", f"alltoall={alltoall}", "--mirror", mirror, *DATAGRAMS])


@MIRRORS
def test_collectives_chosen_automatically_move_the_right_data(mirror):
    assert "collectives: 8 ranks, automatic: ok" in run_ok(
        8, "collectives", options=["--mirror", mirror, *DATAGRAMS])


def compute_ns(*options):
    r = trestle_mpirun(["--topology", "switch:2", *SWITCH_LINKS, *options],
                       [*mpirun(2), program("compute"), "20"])
    assert r.returncode == 0, r.stdout
    m = re.search(r"compute: 20 ms of CPU took (\d+) virtual ns", r.stdout)
    assert m, r.stdout
    return int(m.group(1))


def test_compute_takes_no_virtual_time_unless_measured():
    assert compute_ns() == 0
    assert compute_ns("--compute", "none") == 0
    # 20 ms of the thread's CPU time, halved; plus what MPI_Wtime's own call costs.
    assert 10_000_000 <= compute_ns("--compute", "measured:0.5") < 20_000_000


def test_mpi_io_runs_for_real_each_collective_file_call_a_barrier(tmp_path):
    """Each collective file call ends where a communicator's creation from
    the same times would (the program's dup mode makes one in its place),
    the data is right, and the notice comes once."""
    data = tmp_path / "blocks"
    out = run_ok(4, "file_io", "file", str(data), options=["--compute", "none"])
    assert out.count("libtrestle-mpi: MPI-IO runs for real") == 1, out
    assert data.stat().st_size == 4 * 1000 * 4
    dup = run_ok(4, "file_io", "dup", str(tmp_path / "unused"), options=["--compute", "none"])
    ends = sorted(line for line in out.splitlines() if line.startswith("file_io: rank"))
    assert len(ends) == 4, out
    assert ends == sorted(line for line in dup.splitlines()
                          if line.startswith("file_io: rank")), (out, dup)
    assert not (tmp_path / "unused").exists()


def test_split_collective_io_is_refused_naming_it():
    r = trestle_mpirun(["--topology", "switch:2", *SWITCH_LINKS],
                       [*mpirun(2), program("misuse"), "split-io"])
    assert r.returncode != 0
    assert ("MPI_File_write_all_begin is not modelled by libtrestle-mpi (split collective I/O)"
            in r.stdout), r.stdout


def clock_wait_oracle(poll_ns):
    """What clock_wait.c prints under --compute none, by docs/mpi.md's rule
    (a third reading in a row at the same time costs poll_ns first; the
    program makes no other MPI call between its readings), with the
    program's own arithmetic in seconds."""
    state = {"clock": 0, "last": 0, "same": 0}

    def read():  # MpiLayer::ReadClock
        if state["clock"] != state["last"]:
            state["same"] = 1
        else:
            state["same"] += 1
            if state["same"] > 2:
                state["clock"] += poll_ns
                state["same"] = 1
        state["last"] = state["clock"]
        return state["clock"]

    def wtime():
        return read() * 1e-9

    def gettimeofday():
        ns = read()
        return ns // 10**9 + (ns % 10**9 // 1000) * 1e-6

    t0, t1 = wtime(), wtime()
    step, t = 1.0, t1
    for _ in range(20):
        start = wtime()
        while True:
            now = wtime()
            if now - start >= 1e-6:
                break
            if now > t and now - t < step:
                step = now - t
            t = now
        t = now
    waited = wtime() - t1
    for _ in range(20):
        start = gettimeofday()
        while gettimeofday() - start < 0.5e-6:
            pass
    gtod = wtime() - t1 - waited
    return (f"readings in a row {'agree' if t1 == t0 else 'differ'}, step {step * 1e9:.0f} ns, "
            f"Wtime waits {waited * 1e9:.0f} ns, gettimeofday waits {gtod * 1e9:.0f} ns, "
            "readings around calls agree")


@pytest.mark.parametrize("poll_ns", [100, 7])
def test_a_loop_waiting_for_the_clock_to_move_ends_under_compute_none(poll_ns):
    expected = clock_wait_oracle(poll_ns)
    if poll_ns == 100:
        assert expected == ("readings in a row agree, step 100 ns, Wtime waits 21000 ns, "
                            "gettimeofday waits 20000 ns, readings around calls agree")
    r = trestle_mpirun(["--quiet", "--topology", "switch:2", *SWITCH_LINKS, "--compute", "none",
                        "--poll-ns", str(poll_ns)], [*mpirun(2), program("clock_wait")])
    assert r.returncode == 0, r.stdout
    for rank in range(2):
        assert f"clock_wait: rank {rank}: {expected}" in r.stdout, (expected, r.stdout)


def test_a_call_that_is_not_modelled_stops_the_run_naming_it():
    r = trestle_mpirun(["--topology", "switch:2", *SWITCH_LINKS],
                       [*mpirun(2), program("misuse"), "refused"])
    assert r.returncode != 0
    assert "MPI_Ibarrier is not modelled by libtrestle-mpi (nonblocking collectives)" in r.stdout
    assert "was not stopped" not in r.stdout


def test_a_deadlock_is_reported_instead_of_hanging():
    r = trestle_mpirun(["--topology", "switch:2", *SWITCH_LINKS],
                       [*mpirun(2), program("misuse"), "deadlock"], timeout=120)
    assert r.returncode != 0
    assert ("MPI_Recv waits for a message at 0 ns, but every rank of the run waits and none is "
            "in flight: the program deadlocks") in r.stdout, r.stdout


def test_a_program_preloaded_without_trestle_mpirun_says_how_to_run_it():
    lib = os.path.join(os.path.dirname(os.path.dirname(binary("TRESTLE_CLI"))), "..", "mpi",
                       "libtrestle-mpi.so")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRESTLE_MPI_")}
    r = subprocess.run([*mpirun(1), "-x", f"LD_PRELOAD={os.path.abspath(lib)}",
                        program("misuse"), "refused"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60,
                       env=env)
    assert r.returncode != 0
    assert "TRESTLE_MPI_DAEMON is not set: run the program through `trestle mpirun`" in r.stdout


def test_bad_settings_are_refused_before_anything_starts():
    r = trestle_mpirun(["--topology", "switch:2", "--coll", "allreduce=bruck"],
                       [*mpirun(2), program("misuse")])
    assert r.returncode == 2
    assert ("trestle mpirun: TRESTLE_MPI_COLL='allreduce=bruck': 'allreduce=bruck': allreduce "
            "has no algorithm 'bruck' (one of ring, recursive-doubling)") in r.stdout
    r = trestle_mpirun(["--topology", "switch:2"], ["srun", "-n", "2", program("misuse")])
    assert "the command after -- must be Open MPI's mpirun" in r.stdout


def test_persistent_requests_round_a_ring_take_one_message_time_per_iteration():
    # 12 iterations by turns of MPI_Send_init, MPI_Ssend_init, MPI_Bsend_init.
    out = run_ok(4, "persistent_ring", "12", "4096", "100")
    assert f"12 iterations of 4096 bytes: {12 * (2 * LINK_NS + round(4096 / BYTES_PER_NS))} ns, ok" \
        in out, out


def test_cancelled_and_freed_receives_leave_their_messages_to_the_right_receives():
    # The program's oracle prices each message alone: datagram ordering.
    assert "cancel_free: ok" in run_ok(3, "cancel_free", "1000", options=DATAGRAMS)


def test_matched_probes_take_their_messages_in_virtual_order():
    assert "matched_probe: 4 ranks, ok" in run_ok(4, "matched_probe", "1000", "100",
                                                   options=DATAGRAMS)
