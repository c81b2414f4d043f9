"""Running MPI programs through `trestle mpirun` for the tests of this
directory: the binaries come from the environment ctest sets (TRESTLE_CLI,
MPI_PROGRAMS, ...); Open MPI's mpirun runs as root here too, oversubscribed."""
import os
import subprocess

import pytest

from bounded_run import run_bounded

LINK_NS = 500
BYTES_PER_NS = 50  # 400 Gbit/s
SWITCH_LINKS = ["--link-bw", "400Gbps", "--link-latency", f"{LINK_NS}ns"]


def binary(var: str) -> str:
    path = os.environ.get(var)
    if not path:
        pytest.skip(f"{var} is not set (run through ctest)")
    return path


def program(name: str) -> str:
    return os.path.join(binary("MPI_PROGRAMS"), f"mpi_{name}")


def mpirun(np: int):
    return ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(np)]


def trestle_mpirun(options, command, timeout=240, env=None):
    """`trestle mpirun OPTIONS -- COMMAND`; returns the CompletedProcess
    (stdout and stderr together in .stdout). Past `timeout` it is stopped
    with SIGTERM (it stops mpirun, the simulator and the daemon), the test
    fails, and whatever is left of its process group is killed."""
    args = [binary("TRESTLE_CLI"), "mpirun", *options, "--", *command]
    returncode, out = run_bounded(args, timeout, env)
    if returncode is None:
        pytest.fail(f"trestle mpirun did not end within {timeout} s:\n{out}")
    return subprocess.CompletedProcess(args, returncode, out, None)


def model_ns(size_bytes: int) -> int:
    """One message on the switch the tests use: two links and the bytes."""
    return 2 * LINK_NS + round(size_bytes / BYTES_PER_NS)
