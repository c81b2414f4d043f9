"""LAMMPS (Debian's lmp, Open MPI build), a program we did not write, under
`trestle mpirun` on 4 ranks: its 3d Lennard-Jones melt (LAMMPS numbers its
atoms with MPI_Scan) on the unaware and the flow model, and its peptide
example (long-range PPPM forces by parallel FFTs, SHAKE constraints; 100
of its 300 steps). Each
run must end and print the physics plain mpirun prints (the real MPI moves
the data); with --compute none the melt's modelled loop time is the same
on every run."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import SWITCH_LINKS, mpirun, trestle_mpirun

EXAMPLES = "/usr/share/lammps/examples"
RANKS = 4


def example(tmp_path, name, script):
    """A copy of the example's directory (LAMMPS reads its data files and
    writes there)."""
    if shutil.which("lmp") is None or not os.path.exists(os.path.join(EXAMPLES, name, script)):
        pytest.skip("LAMMPS is not installed (deploy/install-deps.sh: lammps lammps-examples)")
    directory = tmp_path / name
    shutil.copytree(os.path.join(EXAMPLES, name), directory)
    return directory


def lammps(directory, script, options=None):
    """The run's output: under `trestle mpirun OPTIONS`, or plain mpirun if
    `options` is None. LAMMPS writes no log file (-log none)."""
    command = [*mpirun(RANKS), "lmp", "-in", script, "-log", "none"]
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        if options is None:
            r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=180)
        else:
            r = trestle_mpirun(["--quiet", "--topology", f"switch:{RANKS}", *SWITCH_LINKS,
                                "--compute", "none", *options], command, timeout=240)
    finally:
        os.chdir(cwd)
    assert r.returncode == 0, r.stdout
    assert "Total wall time" in r.stdout, r.stdout
    return r.stdout


def physics(out):
    """What the run computed: every line from "Setting up" to the last loop
    time, but the lines that report a time (CPU, loop)."""
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Setting up"))
    last = max(i for i, line in enumerate(lines) if line.startswith("Loop time"))
    kept = [line for line in lines[first:last] if "CPU" not in line and "Loop time" not in line]
    assert len(kept) > 10, out
    return kept


def loop_time(out):
    m = re.search(r"Loop time of (\S+) on 4 procs for 250 steps with 4000 atoms", out)
    assert m, out
    return float(m.group(1))


def test_the_melt_prints_plain_mpiruns_physics_and_the_same_modelled_time_twice(tmp_path):
    melt = example(tmp_path, "melt", "in.melt")
    plain = lammps(melt, "in.melt")
    first = lammps(melt, "in.melt", [])
    second = lammps(melt, "in.melt", [])
    assert physics(first) == physics(plain), (first, plain)
    assert "     250    1.6645597   -4.7774327" in first, first  # the table's last row
    # Only messages move the clocks: the same program, the same time.
    assert loop_time(first) == loop_time(second) > 0, (first, second)


def test_the_melt_on_the_flow_model_prints_plain_mpiruns_physics(tmp_path):
    melt = example(tmp_path, "melt", "in.melt")
    flow = lammps(melt, "in.melt", ["--model", "flow"])
    assert physics(flow) == physics(lammps(melt, "in.melt")), flow
    assert loop_time(flow) > 0


def test_the_peptide_with_long_range_forces_prints_plain_mpiruns_physics(tmp_path):
    peptide = example(tmp_path, "peptide", "in.peptide")
    # 100 of its 300 steps: two thermo blocks and a SHAKE report, a third of the time.
    script = peptide / "in.peptide"
    text = script.read_text()
    assert "run\t\t300" in text, text
    script.write_text(text.replace("run\t\t300", "run\t\t100"))
    out = lammps(peptide, "in.peptide", [])
    assert physics(out) == physics(lammps(peptide, "in.peptide")), out
    assert "Loop time of" in out and "for 100 steps with 2004 atoms" in out, out
    assert "SHAKE stats" in out and "E_long" in out, out
