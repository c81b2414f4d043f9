"""Fixtures of the Python SDK's tests: real trestled, trestle-sim and
redis-server processes on free loopback ports, started and stopped per test.

The binaries come from the environment ctest sets (tests/python/
CMakeLists.txt): TRESTLED, TRESTLE_SIM, TRESTLE_RING_ALLREDUCE, TRESTLE_CLI;
a missing one fails the test that needs it, naming the variable.
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(REPO, "examples", "python")
PYTHON = "/usr/bin/python3"


def binary(var: str) -> str:
    path = os.environ.get(var, "")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"${var} must name an executable (ctest sets it; got '{path}')")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """A child process with its output in a file; stopped by stop()."""

    def __init__(self, args, name, env=None):
        self.name = name
        self.out = tempfile.NamedTemporaryFile(prefix=f"trestle-{name}-", suffix=".out", delete=False)
        self.proc = subprocess.Popen(args, stdout=self.out, stderr=subprocess.STDOUT, env=env)

    def output(self) -> str:
        with open(self.out.name, errors="replace") as f:
            return f.read()

    def wait_for_output(self, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{self.name} did not print '{text}':\n{self.output()}")
            time.sleep(0.02)

    def wait(self, timeout: float = 60.0) -> int:
        return self.proc.wait(timeout)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if os.path.exists(self.out.name):
            os.unlink(self.out.name)
        return self.proc.returncode


class Daemon(Process):
    """trestled on a free loopback port (its port file tells which); with
    admin=True its gRPC admin service too, on another (status())."""

    def __init__(self, *args, admin=False):
        self.dir = tempfile.mkdtemp(prefix="trestle-pytest-")
        port_file = os.path.join(self.dir, "port")
        admin_listen = "127.0.0.1:0" if admin else ""
        super().__init__([binary("TRESTLED"), "--listen", "127.0.0.1:0", "--admin-listen",
                          admin_listen, "--port-file", port_file, "--log-level", "warn", *args],
                         "trestled")
        deadline = time.monotonic() + 10
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"trestled did not start:\n{self.output()}")
            time.sleep(0.02)
        time.sleep(0.01)
        ports = open(port_file).read().split()  # listen, admin, metrics
        self.port = int(ports[0])
        self.address = f"127.0.0.1:{self.port}"
        self.admin_address = f"127.0.0.1:{ports[1]}" if admin else ""

    def status(self) -> dict:
        """`trestle status` of this daemon (started with admin=True): its
        numeric fields by name ("sessions", "connections", ...)."""
        out = subprocess.run([binary("TRESTLE_CLI"), "status", "--admin", self.admin_address],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, f"trestle status: {out.stderr}"
        fields = {}
        for line in out.stdout.splitlines()[1:]:
            name, _, value = line.rstrip().rpartition(" ")
            if value.isdigit():
                fields[name.strip()] = int(value)
        return fields


def python_env():
    env = dict(os.environ)
    return env


def start_python_sim(daemon, latency_ns=1000, lockstep=False):
    """examples/python/constant_latency_sim.py, connected."""
    args = [PYTHON, os.path.join(EXAMPLES, "constant_latency_sim.py"), "--daemon", daemon.address,
            "--latency-ns", str(latency_ns)] + (["--lockstep"] if lockstep else [])
    sim = Process(args, "python-sim", python_env())
    sim.wait_for_output("connected")
    return sim


@pytest.fixture
def processes():
    """Processes to stop at the end of the test, last first."""
    started = []
    yield started
    for p in reversed(started):
        p.stop()


@pytest.fixture
def daemon_with_sim(processes):
    """A wallclock trestled with the Python constant-latency simulator (1000 ns)."""
    daemon = Daemon()
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000))
    return daemon


class Redis(Process):
    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="trestle-redis-")
        super().__init__(["/usr/bin/redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                          "--save", "", "--appendonly", "no", "--dir", self.dir], "redis-server")
        self.wait_for_output("Ready to accept connections")
        self.url = f"redis://127.0.0.1:{self.port}"


def options(daemon, client_id, **kw):
    import trestle
    return trestle.ClientOptions(daemon=daemon.address, client_id=client_id, **kw)


sys.path.insert(0, os.path.dirname(__file__))


async def stats_when(client, holds, timeout=5.0):
    """The daemon's StatsReply once holds(reply) (acks travel on recv, stats on
    ctrl: the daemon may answer before it has read the last Ack)."""
    import asyncio
    deadline = time.monotonic() + timeout
    while True:
        reply = await client.stats()
        if holds(reply) or time.monotonic() > deadline:
            return reply
        await asyncio.sleep(0.01)
