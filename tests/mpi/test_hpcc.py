"""HPC Challenge (Debian's hpcc, Open MPI build), a program we did not
write, under `trestle mpirun --compute none` on 4 ranks: its shipped input
(_hpccinf.txt) at a small size (HPL N = 200, so every section, RandomAccess
and FFT included, is small too). It must pass its own verifications
(Success=1, HPL's residual checks, RandomAccess's table) and its ping-pong
latency and bandwidth must be the model's two-endpoint times: its
RandomAccess cancels receives, and its STREAM waits for the clock to move
(docs/mpi.md, "Time")."""
import os
import re
import shutil

import pytest

from conftest import SWITCH_LINKS, model_ns, mpirun, trestle_mpirun

INPUT = "/usr/share/doc/hpcc/examples/_hpccinf.txt"
RANKS = 4
PING_PONG_BYTES = (8, 2_000_000)  # HPCC's latency and bandwidth messages


def small_input(path):
    """_hpccinf.txt with N = 200 and NB = 20 (its lines 6 and 8)."""
    with open(INPUT) as f:
        lines = f.read().splitlines()
    assert lines[5].split()[1] == "Ns" and lines[7].split()[1] == "NBs", lines[:8]
    lines[5] = "200          Ns"
    lines[7] = "20           NBs"
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def summary(out):
    """HPCC's summary section, as a dict of its NAME=VALUE lines."""
    section = out[out.index("Begin of Summary section."):]
    return dict(re.findall(r"^(\w+)=(\S+)$", section, re.M))


def test_hpcc_passes_its_checks_and_its_ping_pong_is_the_model(tmp_path):
    if shutil.which("hpcc") is None or not os.path.exists(INPUT):
        pytest.skip("HPCC is not installed (deploy/install-deps.sh: hpcc)")
    small_input(tmp_path / "hpccinf.txt")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = trestle_mpirun(["--quiet", "--topology", f"switch:{RANKS}", *SWITCH_LINKS,
                            "--compute", "none"], [*mpirun(RANKS), "hpcc"], timeout=240)
    finally:
        os.chdir(cwd)
    assert r.returncode == 0, r.stdout
    out = (tmp_path / "hpccoutf.txt").read_text()
    s = summary(out)
    assert s.get("Success") == "1", out
    assert "0 tests completed and failed residual checks." in out, out
    assert "Found 0 errors in 32768 locations (passed)." in out, out  # RandomAccess
    latency_us = model_ns(PING_PONG_BYTES[0]) / 1000
    bandwidth_gb = PING_PONG_BYTES[1] / model_ns(PING_PONG_BYTES[1])  # bytes/ns = GB/s
    assert (latency_us, round(bandwidth_gb, 4)) == (1.0, 48.7805)
    for stat in ("Min", "Avg", "Max"):
        assert float(s[f"{stat}PingPongLatency_usec"]) == pytest.approx(latency_us, rel=0.02), s
        assert float(s[f"{stat}PingPongBandwidth_GBytes"]) == pytest.approx(bandwidth_gb,
                                                                            rel=0.02), s
