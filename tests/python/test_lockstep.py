"""Lockstep time: virtual clocks, receive_until, quiescence, and a mixed
C++/Python ring all-reduce that gives the same modelled times, and the same
trace, as the all-C++ one, every run."""
import asyncio
import os
import re
import subprocess
import tempfile

import pytest

import trestle
from conftest import EXAMPLES, PYTHON, Daemon, Process, binary, options, start_python_sim


@pytest.fixture
def lockstep_daemon(processes):
    daemon = Daemon("--time-mode", "lockstep")
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000, lockstep=True))
    return daemon


def test_the_clock_moves_with_sends_advances_and_deliveries(lockstep_daemon):
    async def run():
        a = trestle.AsyncAppClient(options(lockstep_daemon, "a", lockstep=True))
        await a.connect()
        assert a.now == 0
        a.advance(300)
        await a.send("a", b"one")  # t_send = now = 300, arrives at 1300
        with pytest.raises(trestle.InvalidArgument, match="t_send 100 ns is before now, 300 ns"):
            await a.send("a", b"back", t_send=100)
        assert await a.receive_until(800) is None  # nothing by 800
        assert a.now == 800
        m = await a.receive_until(5000)
        assert (m.payload, m.t_send, m.t_deliver, a.now) == (b"one", 300, 1300, 1300)
        with pytest.raises(trestle.Quiescent, match="'a' at 1300 ns: the run is quiescent"):
            await a.receive(timeout=10.0)
        await a.close()

    asyncio.run(run())


def test_a_message_before_the_wake_time_is_returned_and_one_after_it_waits(lockstep_daemon):
    async def run():
        a = trestle.AsyncAppClient(options(lockstep_daemon, "a", lockstep=True))
        b = trestle.AsyncAppClient(options(lockstep_daemon, "b", lockstep=True))
        await a.connect()
        await b.connect()
        await a.send("b", b"x", t_send=2000)  # arrives at 3000
        # a runs at 2000: nothing of it can arrive before 3000, so b wakes at 2500.
        assert await b.receive_until(2500, timeout=10.0) is None and b.now == 2500
        # Once a waits too, the message at 3000 is final; b's clock then holds a's wake.
        m, woken = await asyncio.gather(b.receive_until(3000, timeout=10.0),
                                        a.receive_until(3500, timeout=10.0))
        assert (m.t_deliver, b.now, woken, a.now) == (3000, 3000, None, 3500)
        ends = await asyncio.gather(a.receive(timeout=10.0), b.receive(timeout=10.0),
                                    return_exceptions=True)
        assert [type(e) for e in ends] == [trestle.Quiescent, trestle.Quiescent], ends
        await a.close()
        await b.close()

    asyncio.run(run())


def test_the_ping_pong_example_prints_the_modelled_virtual_times(lockstep_daemon):
    out = subprocess.run([PYTHON, os.path.join(EXAMPLES, "ping_pong.py"), "--daemon",
                          lockstep_daemon.address, "--count", "3", "--lockstep"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"round {i}: sent at t={2000 * i} ns, pong received at t={2000 * i + 1000} ns, "
        f"back at t={2000 * i + 2000} ns (virtual round trip 2000 ns)" for i in range(3)
    ] + ["ping: 3 round trips, virtual clock at the end 6000 ns"]


# ---- the mixed ring all-reduce ----

RANK_LINE = re.compile(r"^rank-(\d+) t_ns=(\d+) steps=\d+ verified=(\w+)$", re.M)


def ring_run(ranks, size, reduce_bw, reduce_ns, topology, model, python_ranks):
    """One lockstep all-reduce: trestled (with a trace), trestle-sim fabric,
    ranks as processes (C++ trestle-ring-allreduce --rank K, or Python
    ring_rank.py for K in python_ranks). Returns ({rank: t_ns}, trace text)."""
    work = tempfile.mkdtemp(prefix="trestle-ring-py-")
    trace = os.path.join(work, "trace.csv")
    started = []
    try:
        daemon = Daemon("--time-mode", "lockstep", "--lockstep-apps", str(ranks), "--trace", trace)
        started.append(daemon)
        sim = Process([binary("TRESTLE_SIM"), "fabric", "--daemon", daemon.address, "--topology",
                       topology, "--model", model, "--link-bw", "400Gbps", "--link-latency", "500ns",
                       "--endpoint-delay", "10ns"], "trestle-sim")
        started.append(sim)
        sim.wait_for_output("connected")
        rank_procs = []
        for k in range(ranks):
            if k in python_ranks:
                args = [PYTHON, os.path.join(EXAMPLES, "ring_rank.py"), "--daemon", daemon.address,
                        "--ranks", str(ranks), "--rank", str(k), "--size", str(size),
                        "--reduce-ns", str(reduce_ns)]
            else:
                args = [binary("TRESTLE_RING_ALLREDUCE"), "--daemon", daemon.address, "--ranks",
                        str(ranks), "--rank", str(k), "--size", f"{size}B", "--reduce-bw", reduce_bw,
                        "--timeout-ms", "60000"]
            rank_procs.append(Process(args, f"rank-{k}"))
        started.extend(rank_procs)
        output = ""
        for p in rank_procs:
            code = p.wait(120)
            output += p.output()
            assert code == 0, f"{p.name} exited {code}:\n{p.output()}"
        times = {}
        for rank, t_ns, verified in RANK_LINE.findall(output):
            assert verified == "yes", output
            times[int(rank)] = int(t_ns)
        assert sorted(times) == list(range(ranks)), output
        sim.stop()
        daemon.stop()
        started.clear()
        with open(trace) as f:
            return times, f.read(), trace
    finally:
        for p in reversed(started):
            p.stop()


@pytest.mark.parametrize("ranks,size,topology,model,python_ranks", [
    (4, 65536, "switch:4", "unaware", {2}),
    (5, 1 << 20, "ring:5", "flow", {1, 4}),
], ids=["switch4-unaware", "ring5-flow"])
def test_a_mixed_ring_allreduce_gives_the_all_cxx_times_every_run(ranks, size, topology, model,
                                                                  python_ranks):
    # 100 GB/s over ceil(size/ranks) bytes, rounded as the C++ rank rounds it.
    chunk = -(-size // ranks)
    reduce_ns = round(chunk / 100.0)
    reference, reference_trace, reference_path = ring_run(ranks, size, "100GBps", reduce_ns,
                                                          topology, model, set())
    assert len(set(reference.values())) >= 1 and min(reference.values()) > 0
    for run in range(3):
        times, trace, path = ring_run(ranks, size, "100GBps", reduce_ns, topology, model,
                                      python_ranks)
        assert times == reference, f"run {run}: mixed {times} != all-C++ {reference}"
        diff = subprocess.run([binary("TRESTLE_CLI"), "trace", "diff", reference_path, path],
                              capture_output=True, text=True, timeout=30)
        assert diff.returncode == 0 and diff.stdout.startswith("identical"), diff.stdout + diff.stderr


def test_callback_apps_on_one_loop_pass_a_token_in_lockstep_until_quiescent(lockstep_daemon):
    """Four apps on one loop, on_message + await_next: a token goes round the
    ring three times, each holder computing 100 ns; then every app hears
    on_quiescent. Virtual times are exact: 12 hops of 1000 + 100 ns."""
    n, laps = 4, 3

    async def run():
        apps = [trestle.AsyncAppClient(options(lockstep_daemon, f"r{i}", lockstep=True))
                for i in range(n)]
        await asyncio.gather(*(a.connect() for a in apps))
        arrivals, quiescent = [], []
        loop = asyncio.get_running_loop()

        def forward(i):
            async def go(m):
                arrivals.append((i, m.t_deliver))
                apps[i].advance(100)
                hops = int(m.payload)
                if hops < n * laps:
                    await apps[i].send(f"r{(i + 1) % n}", str(hops + 1).encode())
                apps[i].await_next()
            return lambda m: loop.create_task(go(m))

        for i, a in enumerate(apps):
            a.on_message(forward(i))
            a.on_quiescent(lambda i=i: quiescent.append(i))
        await apps[0].send("r1", b"1")
        for a in apps:
            a.await_next()
        deadline = loop.time() + 20
        while len(quiescent) < n and loop.time() < deadline:
            await asyncio.sleep(0.01)
        assert sorted(quiescent) == list(range(n))
        assert arrivals == [((k + 1) % n, 1000 * (k + 1) + 100 * k) for k in range(n * laps)]
        await asyncio.gather(*(a.close() for a in apps))

    asyncio.run(run())


def test_await_next_with_a_wake_time_ends_in_on_wake_there(lockstep_daemon):
    async def run():
        a = trestle.AsyncAppClient(options(lockstep_daemon, "a", lockstep=True))
        await a.connect()
        woken = asyncio.get_running_loop().create_future()
        a.on_message(lambda m: None)
        a.on_wake(woken.set_result)
        a.advance(200)
        a.await_next(5000)
        assert await asyncio.wait_for(woken, 10) == 5000 and a.now == 5000
        with pytest.raises(trestle.FailedPrecondition, match="await_next needs lockstep"):
            b = trestle.AsyncAppClient(options(lockstep_daemon, "b", lockstep=True))
            b.await_next()
        await a.close()

    asyncio.run(run())
