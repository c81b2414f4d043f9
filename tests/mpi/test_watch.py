"""A run you can watch (docs/mpi.md, "Running"): trestle mpirun prints its
daemon's admin address and a progress line, names the rank that holds
virtual time in a stall, and fails, naming them, when ranks never join the
run (they ran in real time, outside the model)."""
import os
import re
import signal
import subprocess
import threading
import time

import pytest

from conftest import SWITCH_LINKS, binary, mpirun, program, trestle_mpirun

ADDRESS = re.compile(r"^trestle mpirun: trestled's admin service is on (127\.0\.0\.1:\d+) "
                     r"\(trestle status --admin \1\)$", re.M)
PROGRESS = re.compile(r"^trestle mpirun: virtual \S+ \S+, \d+ messages?, ranks \d+ running "
                      r"\d+ blocked.*, wall \d+\.\d s$", re.M)
WAIT_S = 120  # for a line the test waits for: far beyond what it needs


class Run:
    """`trestle mpirun` in the background, its output read line by line, so
    that a test can wait for a line, then act (let the program go on)."""

    def __init__(self, options, command):
        args = [binary("TRESTLE_CLI"), "mpirun", *options, "--", *command]
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, start_new_session=True)
        self.lines = []
        self.cv = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            with self.cv:
                self.lines.append(line.rstrip("\n"))
                self.cv.notify_all()
        with self.cv:
            self.lines.append(None)  # end of output
            self.cv.notify_all()

    def output(self):
        with self.cv:
            return "\n".join(l for l in self.lines if l is not None)

    def wait_for(self, pattern, what):
        """The first line matching `pattern`; fails, saying `what` it waited
        for, if the output ends or WAIT_S pass without one."""
        deadline = time.monotonic() + WAIT_S
        with self.cv:
            while True:
                for line in self.lines:
                    if line is not None and re.search(pattern, line):
                        return line
                if self.lines and self.lines[-1] is None:
                    self.stop()
                    pytest.fail(f"trestle mpirun ended without {what}:\n{self.output()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    self.stop()
                    pytest.fail(f"no {what} within {WAIT_S} s:\n{self.output()}")
                self.cv.wait(left)

    def finish(self, timeout=WAIT_S):
        try:
            rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            pytest.fail(f"trestle mpirun did not end within {timeout} s:\n{self.output()}")
        self.reader.join(timeout=10)
        return rc, self.output()

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=15)
        finally:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def spin_run(tmp_path, options, spinner=1):
    """mpi_spin on 2 ranks: rank `spinner` computes without calling MPI until
    the file `go` appears, the other waits in MPI_Barrier."""
    go = tmp_path / "go"
    run = Run(["--topology", "switch:2", *SWITCH_LINKS, *options],
              [*mpirun(2), program("spin"), str(spinner), str(go)])
    return run, go


def test_the_address_and_a_progress_line_appear_while_the_run_lasts(tmp_path):
    run, go = spin_run(tmp_path, ["--progress", "0.2"])
    run.wait_for(PROGRESS, "progress line")
    go.touch()
    rc, out = run.finish()
    assert rc == 0, out
    assert "spin: ok" in out, out
    m = ADDRESS.search(out)
    assert m, out
    # Once, at the start, before any progress line.
    assert out.count("trestled's admin service is on") == 1, out
    assert out.index(m.group(0)) < PROGRESS.search(out).start(), out
    # 1 rank spins (running), the other waits in its barrier (blocked).
    assert re.search(r"ranks 1 running 1 blocked", out), out


def test_a_rank_that_computes_without_calling_mpi_is_named_and_quiet_silences_progress(tmp_path):
    # --quiet: no address, no progress line; the stall report stays.
    run, go = spin_run(tmp_path, ["--quiet", "--progress", "0.2", "--stall-report", "1"])
    line = run.wait_for(r"held back by rank 1 ", "stall report naming rank 1")
    go.touch()
    rc, out = run.finish()
    assert rc == 0, out
    assert re.search(r"^trestle mpirun: virtual time has stayed at 0 ns for \d+\.\d s "
                     r"\(1 of 2 ranks running\); held back by rank 1 \(running at 0 ns; ",
                     line), out
    assert "it computes, or waits, outside MPI" in line, out
    assert not PROGRESS.search(out), out
    assert "admin service" not in out, out


def test_ranks_that_bypass_the_layer_make_the_run_fail_naming_them():
    # mpi_pmpi_direct calls PMPI_Init/PMPI_Barrier/PMPI_Finalize itself, so
    # the preloaded layer never starts in it, whatever bindings the layer
    # gains (a PMPI layer cannot wrap PMPI_*); mpirun itself ends well.
    r = trestle_mpirun(["--topology", "switch:2", *SWITCH_LINKS],
                       [*mpirun(2), program("pmpi_direct")], timeout=WAIT_S)
    assert r.returncode == 3, r.stdout
    assert "pmpi_direct: rank 0 of 2 ran" in r.stdout, r.stdout
    assert ("trestle mpirun: ranks 0 and 1 (2 of 2) never joined the run: what ran there ran in "
            "real time, outside the model") in r.stdout, r.stdout
    for cause in ("a program that calls PMPI_* itself", "statically linked",
                  "another MPI than the layer's"):
        assert cause in r.stdout, r.stdout


def test_a_run_whose_ranks_all_join_passes_the_check():
    # The same 2-rank size through the layer: every rank joins, exit 0.
    r = trestle_mpirun(["--topology", "switch:2", *SWITCH_LINKS, "--quiet"],
                       [*mpirun(2), program("spin"), "5", "/nonexistent"], timeout=WAIT_S)
    assert r.returncode == 0, r.stdout
    assert "never joined" not in r.stdout, r.stdout
    assert "spin: ok" in r.stdout, r.stdout
