"""LAMMPS (Debian's lmp, Open MPI build), a program we did not write, under
`trestle mpirun`: its 3d Lennard-Jones melt example on 4 ranks. LAMMPS
numbers its atoms with MPI_Scan and sums forces with MPI_Reduce_scatter,
so this is the first real application that needs them modelled. The run
must end, print the physics plain mpirun prints (the thermo table: the real
MPI moves the data), and, with --compute none, report the same modelled
loop time on every run."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import SWITCH_LINKS, mpirun, trestle_mpirun

MELT = "/usr/share/lammps/examples/melt/in.melt"
RANKS = 4


@pytest.fixture(scope="module")
def melt(tmp_path_factory):
    if shutil.which("lmp") is None or not os.path.exists(MELT):
        pytest.skip("LAMMPS is not installed (deploy/install-deps.sh: lammps lammps-examples)")
    directory = tmp_path_factory.mktemp("melt")
    shutil.copy(MELT, directory)
    return directory


def lammps(directory, under_trestle):
    """The melt's stdout; LAMMPS writes no log file (-log none)."""
    command = [*mpirun(RANKS), "lmp", "-in", "in.melt", "-log", "none"]
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        if under_trestle:
            r = trestle_mpirun(["--quiet", "--topology", f"switch:{RANKS}", *SWITCH_LINKS,
                                "--compute", "none"], command, timeout=180)
        else:
            r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=120)
    finally:
        os.chdir(cwd)
    assert r.returncode == 0, r.stdout
    assert "Total wall time" in r.stdout, r.stdout
    return r.stdout


def thermo(out):
    """The thermo table: the lines from the header to the loop time."""
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.split()[:2] == ["Step", "Temp"])
    last = next(i for i, line in enumerate(lines) if line.startswith("Loop time"))
    return lines[first:last]


def loop_time(out):
    m = re.search(r"Loop time of (\S+) on 4 procs for 250 steps with 4000 atoms", out)
    assert m, out
    return float(m.group(1))


def test_the_melt_runs_with_plain_mpiruns_physics_and_the_same_modelled_time_twice(melt):
    plain = lammps(melt, under_trestle=False)
    first = lammps(melt, under_trestle=True)
    second = lammps(melt, under_trestle=True)
    assert thermo(first) == thermo(plain), (first, plain)
    assert len(thermo(first)) == 7  # the header and steps 0, 50, ..., 250
    # Only messages move the clocks: the same program, the same time.
    assert loop_time(first) == loop_time(second) > 0, (first, second)
