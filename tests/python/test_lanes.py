"""Lanes (docs/protocol.md, "Lanes") through the Python SDK against a real
trestled: the clients of one asyncio loop that multiplex
(ClientOptions.multiplex) share one connection, a lane each. Every message
arrives once and the daemon counts one connection for them all; a client
that leaves (or is refused) ends its lane alone; a daemon that dies ends
every lane; backpressure, both ways, is the connection's; and Python lanes
join a C++ multiplexed rank in a lockstep ring all-reduce with the all-C++
virtual times (tests/integration/lanes_test.cc checks the C++ SDK).
"""
import asyncio
import re
import signal
import sys

import pytest

import trestle
from conftest import EXAMPLES, Daemon, Process, binary, options, start_python_sim, stats_when
from trestle import lane_link


def lanes(daemon, prefix, n, **kw):
    return [trestle.AsyncAppClient(options(daemon, f"{prefix}{i}", multiplex=True, **kw))
            for i in range(n)]


def link_of(client):
    """The LaneLink under a multiplexed client (white box)."""
    return client._session._channels["ctrl"]._link


async def until(holds, what, timeout=20.0):
    """Waits (on the loop) until holds(); fails naming `what` (a string, or a
    function giving one) after `timeout` s."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not holds():
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail(what() if callable(what) else what)
        await asyncio.sleep(0.005)


def test_a_simulator_and_a_hundred_apps_share_one_connection_and_each_message_arrives_once(
        processes):
    daemon = Daemon(admin=True)
    processes.append(daemon)
    n, each = 100, 10

    async def run():
        sim = trestle.AsyncSimClient(options(daemon, "sim", multiplex=True))
        sim.on_transits(lambda ts: [sim.post(trestle.Outcome(t.id, t.t_send + 1000)) for t in ts])
        apps = lanes(daemon, "lane-", n)
        await asyncio.gather(sim.connect(), *(a.connect() for a in apps))
        status = daemon.status()
        assert (status["connections"], status["sessions"]) == (1, n + 1), \
            f"{n} apps and a simulator on one loop: {status}"
        assert link_of(apps[0]) is link_of(sim) and link_of(sim).lane_count == n + 1

        seen, wrong = {}, []

        def take(i):
            def on_message(m):
                seen[m.payload] = seen.get(m.payload, 0) + 1
                if (m.src, m.dst, m.t_deliver) != (f"lane-{(i + n - 1) % n}", f"lane-{i}",
                                                   m.t_send + 1000):
                    wrong.append((i, m))
            return on_message
        for i, a in enumerate(apps):
            a.on_message(take(i))
        for i, a in enumerate(apps):
            for k in range(each):
                await a.send(f"lane-{(i + 1) % n}", b"from %d #%d" % (i, k), t_send=k)
        await until(lambda: len(seen) == n * each, lambda: f"{len(seen)} of {n * each} arrived")
        stats = await stats_when(apps[0], lambda r: r.total.delivered == n * each)
        assert (stats.total.accepted, stats.total.delivered, stats.total.in_flight) == \
            (n * each, n * each, 0)
        assert set(seen.values()) == {1}, "a message arrived twice"
        assert wrong == [], "messages handed to the wrong client, or at the wrong time"
        await asyncio.gather(*(a.close() for a in apps), sim.close())
        await until(lambda: daemon.status()["connections"] == 0,
                    "the last lane's end did not close the connection")

    asyncio.run(run())


def test_a_client_that_leaves_ends_its_lane_alone_and_its_id_comes_back_on_a_new_lane(
        processes):
    daemon = Daemon(admin=True)
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000))  # three connections of its own

    async def run():
        apps = lanes(daemon, "l-", 3)
        for a in apps:
            await a.connect()
        errors = []
        for a in apps:
            a.on_error(errors.append)
        link = link_of(apps[0])
        await apps[1].close()
        assert not apps[1].connected and apps[0].connected and apps[2].connected
        assert daemon.status()["sessions"] == 3, "l-1's session ended; the sim's and two lanes' stay"
        assert link.lane_count == 2

        apps[1] = trestle.AsyncAppClient(options(daemon, "l-1", multiplex=True))
        await apps[1].connect()
        assert link_of(apps[1]) is link and link.lane_count == 3
        await apps[0].send("l-1", b"welcome back")
        await apps[2].send("l-1", b"and from me")
        got = sorted([(await apps[1].receive(timeout=10)).payload for _ in range(2)])
        assert got == [b"and from me", b"welcome back"]
        assert await apps[0].ping() > 0 and await apps[2].ping() > 0
        assert daemon.status()["connections"] == 4, "the sim's three and one for the lanes"
        assert errors == []
        await asyncio.gather(*(a.close() for a in apps))

    asyncio.run(run())


def test_a_refused_hello_on_a_lane_leaves_the_other_lanes_alone(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        x = trestle.AsyncAppClient(options(daemon, "x", multiplex=True))
        await x.connect()
        twin = trestle.AsyncAppClient(options(daemon, "x", multiplex=True))
        with pytest.raises(trestle.AlreadyExists, match="'x'"):
            await twin.connect()
        pull = trestle.AsyncAppClient(options(daemon, "p", multiplex=True,
                                              mode=trestle.DeliveryMode.PULL))
        with pytest.raises(trestle.InvalidArgument, match="shared_connection needs PUSH"):
            await pull.connect()
        assert x.connected and await x.ping() > 0
        assert link_of(x).lane_count == 1
        await x.close()

    asyncio.run(run())


def test_a_daemon_that_dies_ends_every_lane(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        apps = lanes(daemon, "d-", 5)
        await asyncio.gather(*(a.connect() for a in apps))
        lost = []
        for a in apps:
            a.on_error(lost.append)
        daemon.proc.send_signal(signal.SIGKILL)
        await until(lambda: len(lost) == 5, lambda: f"{len(lost)} of 5 lanes heard the loss", 10)
        for e in lost:
            assert isinstance(e, trestle.Unavailable) and \
                "multiplexed connection: the daemon closed the connection" in str(e), e
        assert not any(a.connected for a in apps)
        with pytest.raises(trestle.Unavailable, match="multiplexed connection"):
            await apps[0].send("d-1", b"too late")
        # Later clients of that address get a new connection (refused here).
        # The lanes hear EOF when the kernel closes the accepted socket, which
        # may be before it closes the listening one: wait for the whole exit.
        await asyncio.get_running_loop().run_in_executor(None, daemon.proc.wait, 10)
        with pytest.raises(trestle.Unavailable, match="cannot connect to the daemon"):
            await trestle.AsyncAppClient(options(daemon, "late", multiplex=True)).connect()

    asyncio.run(run())


def test_the_connection_lost_leaves_every_lanes_session_to_resume_on_new_lanes(daemon_with_sim):
    """As a lost connection of its own: each session lingers, and resumes
    (on a lane of a new connection) with what came meanwhile, once."""
    async def run():
        apps = lanes(daemon_with_sim, "r-", 2)
        await asyncio.gather(*(a.connect() for a in apps))
        tokens = [a.session_token for a in apps]
        sender = trestle.AsyncAppClient(options(daemon_with_sim, "sender"))
        await sender.connect()
        lost = []
        for a in apps:
            a.on_error(lost.append)
        old = link_of(apps[0])
        old._protocol.transport.abort()  # the socket breaks: no Bye on any lane
        await until(lambda: len(lost) == 2, "not every lane heard the loss")
        assert all(isinstance(e, trestle.Unavailable) and "multiplexed connection" in str(e)
                   for e in lost), lost
        for i in range(3):
            await sender.send("r-0", b"to 0 #%d" % i)
            await sender.send("r-1", b"to 1 #%d" % i)
        for a, token in zip(apps, tokens):
            a.set_resume_token(token)
        await asyncio.gather(*(a.connect() for a in apps))
        assert all(a.resumed for a in apps)
        assert link_of(apps[0]) is link_of(apps[1]) is not old
        for i, a in enumerate(apps):
            got = sorted([(await a.receive(timeout=10)).payload for _ in range(3)])
            assert got == [b"to %d #%d" % (i, k) for k in range(3)]
            with pytest.raises(trestle.DeadlineExceeded):
                await a.receive(timeout=0.2)
        await asyncio.gather(*(a.close() for a in apps), sender.close())

    asyncio.run(run())


def test_a_blocking_multiplexed_client_writes_between_its_calls(daemon_with_sim):
    """A blocking client's loop runs only inside its calls: its lane's frames
    leave at once then, not at the end of a loop pass that is not running."""
    with trestle.AppClient(options(daemon_with_sim, "solo", multiplex=True)) as app:
        app.connect()
        link = link_of(app.aio)
        app.aio._session.write("ctrl", trestle.wire.pb.Frame(ping=trestle.wire.pb.Ping(nonce=0)))
        assert not link._pending, "a frame waits for a loop pass that is not running"
        app.send("solo", b"to myself", t_send=5)
        m = app.receive(timeout=5.0)
        assert (m.payload, m.t_deliver) == (b"to myself", 1005)


def test_a_lane_that_pauses_reading_pauses_it_for_every_lane(daemon_with_sim):
    """The inbox bound of one lane (max_buffered_messages) stops the reading
    of the whole connection until every lane that paused it has resumed;
    then what waited arrives, once."""
    async def run():
        a, b = lanes(daemon_with_sim, "bp-", 2, max_buffered_messages=4)
        sender = trestle.AsyncAppClient(options(daemon_with_sim, "sender", multiplex=True))
        await asyncio.gather(a.connect(), b.connect(), sender.connect())
        link = link_of(a)
        reading = link._protocol.transport.is_reading
        for i in range(6):
            await sender.send("bp-0", b"a%d" % i)
        await until(lambda: a.inbox_size >= 4, "bp-0's inbox did not fill")
        assert not reading(), "bp-0's full inbox did not pause the connection"
        for i in range(3):
            await sender.send("bp-1", b"b%d" % i)
        got_a = [(await a.receive(timeout=10)).payload for _ in range(6)]
        assert sorted(got_a) == [b"a%d" % i for i in range(6)]
        got_b = [(await b.receive(timeout=10)).payload for _ in range(3)]
        assert sorted(got_b) == [b"b%d" % i for i in range(3)]
        assert reading()

        # Two lanes pause: the connection reads again only when both resumed.
        a._session.pause_recv()
        b._session.pause_recv()
        b._session.resume_recv()
        assert not reading(), "one lane's resume ended another lane's pause"
        a._session.resume_recv()
        assert reading()
        await asyncio.gather(a.close(), b.close(), sender.close())

    asyncio.run(run())


def test_lanes_waiting_for_the_shared_output_all_go_on_when_it_drains(daemon_with_sim):
    """With the daemon stopped, two lanes' sends fill the connection's output
    and both wait for it to drain; when the daemon runs again, both go on
    and every message arrives once."""
    count, size = 40, 512 << 10  # 40 MiB in all: more than the kernel buffers

    async def run():
        a, b = lanes(daemon_with_sim, "w-", 2)
        await asyncio.gather(a.connect(), b.connect())
        link = link_of(a)
        waiting = []
        drain = link.drain

        async def counted_drain():
            waiting.append(1)
            try:
                await drain()
            finally:
                waiting.pop()
        link.drain = counted_drain

        async def send_all(src, dst):
            return [await src.send(dst, bytes([k]) * size, timeout=20) for k in range(count)]
        daemon_with_sim.proc.send_signal(signal.SIGSTOP)
        try:
            tasks = [asyncio.ensure_future(send_all(a, "w-1")),
                     asyncio.ensure_future(send_all(b, "w-0"))]
            await until(lambda: len(waiting) == 2, "both lanes' sends wait for the output")
            transport = link._protocol.transport
            assert transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]
        finally:
            daemon_with_sim.proc.send_signal(signal.SIGCONT)
        ids = await asyncio.wait_for(asyncio.gather(*tasks), 30)
        assert [len(set(i)) for i in ids] == [count, count]
        for receiver in (a, b):
            got = [await receiver.receive(timeout=30) for _ in range(count)]
            assert sorted(m.payload[0] for m in got) == list(range(count))
            assert all(len(m.payload) == size for m in got)
        await asyncio.gather(a.close(), b.close())

    asyncio.run(run())


def test_a_connection_that_has_numbered_its_last_lane_gives_way_to_a_new_one(processes,
                                                                              monkeypatch):
    """The daemon takes at most MAX_LANES_PER_CONNECTION lanes over a
    connection's life; the SDK then opens another (the bound lowered here)."""
    monkeypatch.setattr(lane_link, "MAX_LANES_PER_CONNECTION", 3)
    daemon = Daemon(admin=True)
    processes.append(daemon)

    async def run():
        apps = lanes(daemon, "r-", 5)
        for a in apps:
            await a.connect()
        assert daemon.status()["connections"] == 2
        assert link_of(apps[2]) is link_of(apps[0]) and link_of(apps[3]) is not link_of(apps[0])
        assert [link_of(a)._next_lane - 1 for a in (apps[0], apps[4])] == [3, 2]
        await apps[4].send("r-0", b"across")
        await asyncio.gather(*(a.close() for a in apps))

    asyncio.run(run())


# ---- interop: Python lanes and a C++ multiplexed rank in one all-reduce ----
RANK_LINE = re.compile(r"^rank-(\d+) t_ns=(\d+) steps=\d+ verified=(yes|no)$", re.M)
RANKS, SIZE, REDUCE_BW = 4, 65536, "100GBps"
REDUCE_NS = round(-(-SIZE // RANKS) / 100.0)  # the C++ rank's chunk / 100 GB/s, rounded


def lockstep_ring(processes):
    """A lockstep trestled and trestle-sim fabric (switch:4) for one all-reduce."""
    daemon = Daemon("--time-mode", "lockstep", "--lockstep-apps", str(RANKS), admin=True)
    processes.append(daemon)
    sim = Process([binary("TRESTLE_SIM"), "fabric", "--daemon", daemon.address, "--topology",
                   f"switch:{RANKS}", "--link-bw", "400Gbps", "--link-latency", "500ns",
                   "--endpoint-delay", "10ns"], "trestle-sim")
    processes.append(sim)
    sim.wait_for_output("connected")
    return daemon


def cxx_ring(daemon, *extra):
    return Process([binary("TRESTLE_RING_ALLREDUCE"), "--daemon", daemon.address, "--ranks",
                    str(RANKS), "--size", f"{SIZE}B", "--reduce-bw", REDUCE_BW, "--timeout-ms",
                    "60000", *extra], "trestle-ring-allreduce")


class _Outbox:
    """RingRank's view of an AsyncAppClient: its sends wait in `sends` for
    the rank's task to make them, in order, before anything else happens."""

    def __init__(self, app):
        self.app, self.sends = app, []

    @property
    def now(self):
        return self.app.now

    def advance(self, dt):
        self.app.advance(dt)

    def send(self, dst, payload, **kw):
        self.sends.append((dst, payload, kw))


async def python_rank(k, daemon, connected):
    sys.path.insert(0, EXAMPLES)
    from ring_rank import REPORT_CLASS, RingRank, client_id
    app = trestle.AsyncAppClient(options(daemon, client_id(k), lockstep=True, multiplex=True))
    await app.connect()
    connected.append(app)
    outbox = _Outbox(app)
    rank = RingRank(outbox, k, RANKS, -(-SIZE // RANKS), REDUCE_NS)

    async def flush():
        for dst, payload, kw in outbox.sends:
            await app.send(dst, payload, **kw)
        outbox.sends.clear()
    rank.start()
    await flush()
    while rank.step < rank.steps:
        rank.take(await app.receive(timeout=60))
        await flush()
    t_ns = rank.end_ns - rank.start_ns
    assert rank.verified(), f"rank {k}: the reduced vector is wrong"
    await app.send(client_id(0), f"t_ns={t_ns} verified=yes".encode(), tclass=REPORT_CLASS)
    with pytest.raises(trestle.Quiescent):
        await app.receive(timeout=60)
    await app.close()
    return t_ns


def test_python_lanes_and_a_cxx_lane_run_an_allreduce_to_the_all_cxx_times(processes):
    # All C++: every rank a lane of one connection of one process.
    daemon = lockstep_ring(processes)
    reference = cxx_ring(daemon)
    assert reference.wait(120) == 0, reference.output()
    expected = {int(r): int(t) for r, t, ok in RANK_LINE.findall(reference.output()) if ok == "yes"}
    assert sorted(expected) == list(range(RANKS)), reference.output()
    for p in processes:
        p.stop()
    processes.clear()

    # Rank 0 in C++ (a lane of its own connection), ranks 1.. as Python
    # lanes of one connection of this process.
    daemon = lockstep_ring(processes)
    before = daemon.status()["connections"]  # trestle-sim's
    rank0 = []

    async def run():
        connected = []
        tasks = [asyncio.ensure_future(python_rank(k, daemon, connected)) for k in range(1, RANKS)]
        await until(lambda: len(connected) == RANKS - 1 or any(t.done() for t in tasks),
                    "the Python ranks did not connect")
        assert daemon.status()["connections"] == before + 1, "the Python ranks share one"
        # The run starts once rank 0 joins (--lockstep-apps).
        rank0.append(cxx_ring(daemon, "--rank", "0"))
        processes.append(rank0[0])
        times = await asyncio.gather(*tasks)
        return dict(zip(range(1, RANKS), times))

    python_times = asyncio.run(run())
    rank0 = rank0[0]
    assert rank0.wait(60) == 0, rank0.output()
    cxx_times = {int(r): int(t) for r, t, ok in RANK_LINE.findall(rank0.output()) if ok == "yes"}
    assert {**cxx_times, **python_times} == expected, rank0.output()
    summary = re.search(r"min_t_ns=(\d+) max_t_ns=(\d+)", rank0.output())
    assert summary and (int(summary[1]), int(summary[2])) == \
        (min(expected.values()), max(expected.values())), rank0.output()
