"""A command run for at most a bounded time, in its own process group, as
the tests of this directory run `trestle mpirun`."""
import os
import signal
import subprocess


def run_bounded(args, timeout, env=None):
    """(exit status, or None if it did not end within `timeout` s; its
    stdout and stderr together). Past `timeout` it gets SIGTERM (trestle
    mpirun then stops mpirun, the simulator and the daemon) and 15 s to end;
    whatever is left of its process group is killed."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        p.terminate()
        try:
            out, _ = p.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            out = ""
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return None, out
