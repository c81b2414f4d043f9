"""An mpi4py program (examples/mpi/allreduce.py: plain mpi4py, nothing of
Trestle in it) through `trestle mpirun`: 16 ranks all-reduce 1 MiB by the
ring on a dragonfly. The times the program prints itself, from MPI.Wtime, must be
exactly the live SDK ring all-reduce's (trestle-ring-allreduce: the same
messages and dependencies through the same model) and, within 0.1 %, the
offline sweep's (dataflow timing); its data must be right, and a second run
must print the same, whether the collectives are mirrored whole (the
default with the unaware model) or step by step."""
import os
import re
import subprocess
import tempfile

from conftest import binary, mpirun, trestle_mpirun

TOPOLOGY = "dragonfly:p=4,a=4,h=2,g=5"
LINKS = ["--link-bw", "400Gbps", "--link-latency", "500ns"]
SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "mpi", "allreduce.py")


def mpi4py_allreduce(*options):
    r = trestle_mpirun(["--topology", TOPOLOGY, *LINKS, "--coll", "allreduce=ring", *options],
                       [*mpirun(16), "/usr/bin/python3", SCRIPT, str(1 << 20)])
    assert r.returncode == 0, r.stdout
    m = re.search(r"allreduce: 16 ranks, 1048576 bytes: max_t_ns=(\d+) min_t_ns=(\d+) data=(\w+)",
                  r.stdout)
    assert m, r.stdout
    assert m.group(3) == "ok", r.stdout
    return int(m.group(1)), int(m.group(2))


def sdk_ring_allreduce():
    """trestle-ring-allreduce on its own lockstep trestled and fabric simulator."""
    work = tempfile.mkdtemp(prefix="trestle-mpi-ring-")
    port_file = os.path.join(work, "port")
    map_file = os.path.join(work, "map.yaml")
    with open(map_file, "w") as f:
        f.writelines(f"rank-{k}: {k}\n" for k in range(16))
    daemon = subprocess.Popen([binary("TRESTLED"), "--listen", "127.0.0.1:0", "--admin-listen", "",
                               "--port-file", port_file, "--log-level", "warn", "--time-mode",
                               "lockstep", "--lockstep-apps", "16"])
    sim = None
    try:
        for _ in range(200):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            subprocess.run(["sleep", "0.05"])
        address = "127.0.0.1:" + open(port_file).read().split()[0]
        sim = subprocess.Popen([binary("TRESTLE_SIM"), "fabric", "--daemon", address, "--topology",
                                TOPOLOGY, "--map", map_file, *LINKS],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert "connected" in sim.stdout.readline()
        out = subprocess.run([binary("TRESTLE_RING_ALLREDUCE"), "--daemon", address, "--ranks",
                              "16", "--size", "1MiB", "--quiet"], stdout=subprocess.PIPE,
                             text=True, timeout=120).stdout
        m = re.search(r"min_t_ns=(\d+) max_t_ns=(\d+)", out)
        assert m, out
        return int(m.group(2)), int(m.group(1))
    finally:
        for p in (sim, daemon):
            if p is not None:
                p.terminate()
                p.wait(10)


def offline_sweep_ns():
    """trestle-sim sweep's price of the same all-reduce (dataflow timing: the
    live ranks' dependencies)."""
    csv = os.path.join(tempfile.mkdtemp(prefix="trestle-mpi-sweep-"), "sweep.csv")
    subprocess.run([binary("TRESTLE_SIM"), "sweep", "--backend", "fabric", "--topology", TOPOLOGY,
                    "--collective", "allreduce", "--algorithm", "ring", "--sizes", "1MiB",
                    "--ranks", "16", *LINKS, "--timing", "dataflow", "--csv", csv],
                   stdout=subprocess.DEVNULL, check=True, timeout=120)
    return float(open(csv).read().splitlines()[-1].rsplit(",", 1)[1])


def test_an_mpi4py_ring_allreduce_prints_the_live_sdk_rings_times_every_run():
    first = mpi4py_allreduce()
    assert first == sdk_ring_allreduce()
    assert abs(first[0] - offline_sweep_ns()) <= 0.001 * first[0]
    assert mpi4py_allreduce() == first, "a second run printed other times"
    assert mpi4py_allreduce("--mirror", "steps") == first, "step by step printed other times"


def clock_on_one_rank_ns(*options):
    r = trestle_mpirun(["--topology", "switch:4", *LINKS, "--compute", "none", *options],
                       [*mpirun(4), "/usr/bin/python3",
                        os.path.join(os.path.dirname(__file__), "programs", "clock_on_one_rank.py"),
                        "200"], timeout=120)
    assert r.returncode == 0, r.stdout
    m = re.search(r"clock_on_one_rank: (\d+) ns", r.stdout)
    assert m, r.stdout
    return int(m.group(1))


def test_one_rank_reading_the_clock_after_each_allreduce_ends_with_the_steps_time():
    # Once a deadlock: the other ranks, in the next real all-reduce, never
    # took the delivery that ended their batch (a receive of 0 ms read
    # nothing), so their stale clocks held virtual time back.
    whole = clock_on_one_rank_ns()
    assert whole == clock_on_one_rank_ns("--mirror", "steps")
    # 200 recursive-doubling all-reduces of 8 KiB on 4 ranks: 2 steps each.
    assert whole == 200 * 2 * (2 * 500 + round(8192 / 50)), whole
