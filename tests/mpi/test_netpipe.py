"""Debian's NetPIPE (NPopenmpi, a program we did not write) through
`trestle mpirun` on a switch of two endpoints, 400 Gbit/s and 500 ns links:
every size it tries must print, in its own output, the latency and the
bandwidth of the model's two-endpoint time (2 x 500 ns + bytes / 50 B/ns),
within 1 % (NetPIPE times itself with gettimeofday, which libtrestle-mpi
makes virtual for the program; its microsecond resolution over 2 x 100
messages is well inside 1 %)."""
import re
import tempfile

from conftest import SWITCH_LINKS, model_ns, mpirun, trestle_mpirun

LINE = re.compile(r"^\s*\d+:\s+(\d+) bytes\s+\d+ times -->\s+([\d.]+) Mbps in\s+([\d.]+) usec",
                  re.M)


def netpipe(*args):
    # NetPIPE writes its table to np.out: into a temporary directory, not the
    # sources. It prints each row in two writes, before and after the
    # measurement: --quiet, or a progress line may land between them.
    with tempfile.TemporaryDirectory() as out:
        r = trestle_mpirun(["--quiet", "--topology", "switch:2", *SWITCH_LINKS],
                           [*mpirun(2), "NPopenmpi", "-n", "100", "-o", f"{out}/np.out", *args],
                           timeout=280)
    assert r.returncode == 0, r.stdout
    rows = [(int(b), float(mbps), float(usec)) for b, mbps, usec in LINE.findall(r.stdout)]
    assert rows, r.stdout
    for size, mbps, usec in rows:
        model_us = model_ns(size) / 1000
        model_mbps = size * 8 / (model_us * 1e-6) / 2**20  # NetPIPE's Mbps: 2^20 bits/s
        assert abs(usec - model_us) <= 0.01 * model_us, (size, usec, model_us)
        assert abs(mbps - model_mbps) <= 0.01 * model_mbps, (size, mbps, model_mbps)
    return rows


def test_ping_pong_prints_the_models_latency_and_bandwidth_at_every_size():
    rows = netpipe("-u", "1048576")
    sizes = [size for size, _, _ in rows]
    assert sizes[0] == 1 and sizes[-1] == 1048579, sizes
    assert len(rows) > 90, "NetPIPE's sizes with their perturbations up to 1 MiB"


def test_preposted_receives_from_any_source_print_the_same():
    rows = netpipe("-a", "-z", "-p", "0", "-u", "65536")
    assert [size for size, _, _ in rows][-1] == 65536
