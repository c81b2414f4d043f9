"""The Python examples against a real trestled: ping-pong prints the
modelled virtual times, and the constant-latency adapter (the simulator of
every other suite here) stays under 40 lines."""
import os
import subprocess

from conftest import EXAMPLES, PYTHON


def test_ping_pong_prints_each_round_trip_at_the_adapters_latency(daemon_with_sim):
    out = subprocess.run([PYTHON, os.path.join(EXAMPLES, "ping_pong.py"), "--daemon",
                          daemon_with_sim.address, "--count", "4", "--size", "1000"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"round {i}: sent at t={2000 * i} ns, pong received at t={2000 * i + 1000} ns, "
        f"back at t={2000 * i + 2000} ns (virtual round trip 2000 ns)" for i in range(4)
    ] + ["ping: 4 round trips, virtual clock at the end 8000 ns"]


def test_ping_pong_names_a_daemon_that_is_not_there():
    out = subprocess.run([PYTHON, os.path.join(EXAMPLES, "ping_pong.py"), "--daemon",
                          "127.0.0.1:1"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "Unavailable: cannot connect to the daemon at 127.0.0.1:1" in out.stderr


def test_the_constant_latency_adapter_is_under_40_lines():
    with open(os.path.join(EXAMPLES, "constant_latency_sim.py")) as f:
        assert len(f.read().splitlines()) < 40
