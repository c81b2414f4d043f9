"""Exact delivery through a real trestled and the Python simulator adapter:
every payload arrives once, intact, at t_send + latency, and the daemon's
counters balance. PUSH and PULL, three channels and one shared. A message's
modelled size (model_size) is what the network model prices."""
import asyncio
import os
import tempfile

import pytest

import trestle
from trestle.wire import pb
from conftest import Daemon, Process, binary, options, start_python_sim, stats_when

COUNT = 300


def payload(i: int) -> bytes:
    return bytes((i * 7 + j) % 256 for j in range(i % 97 + 1))


async def exchange(daemon, sender_kw, receiver_kw):
    a = trestle.AsyncAppClient(options(daemon, "a", **sender_kw))
    b = trestle.AsyncAppClient(options(daemon, "b", **receiver_kw))
    await a.connect()
    await b.connect()
    ids = [await a.send("b", payload(i), t_send=1000 * i) for i in range(COUNT)]
    assert len(set(ids)) == COUNT
    got = {}
    for _ in range(COUNT):
        m = await b.receive(timeout=10.0)
        assert m.id not in got, f"message {m.id} delivered twice"
        got[m.id] = m
    with pytest.raises(trestle.DeadlineExceeded, match="no message within 0.2 s"):
        await b.receive(timeout=0.2)
    for i, message_id in enumerate(ids):
        m = got[message_id]
        assert (m.src, m.dst, m.payload) == ("a", "b", payload(i))
        assert (m.t_send, m.t_deliver) == (1000 * i, 1000 * i + 1000)
        assert m.stamps.app_sent <= m.stamps.daemon_accepted <= m.stamps.app_received
    assert b.now == 1000 * (COUNT - 1) + 1000  # the latest t_deliver
    stats = await stats_when(a, lambda r: r.total.delivered == COUNT)
    total = stats.total
    assert total.accepted == COUNT and total.delivered == COUNT and total.in_flight == 0
    sender = next(c for c in stats.clients if c.client_id == "a")
    assert sender.counters.accepted == sender.counters.delivered == COUNT
    await a.close()
    await b.close()


@pytest.mark.parametrize("receiver_kw", [
    {},
    {"mode": trestle.DeliveryMode.PULL},
    {"shared_connection": True},
], ids=["push", "pull", "shared"])
def test_every_payload_arrives_once_intact_at_its_modelled_time(daemon_with_sim, receiver_kw):
    asyncio.run(exchange(daemon_with_sim, {"shared_connection": True}, receiver_kw))


def test_callback_mode_hands_every_message_over_in_order(daemon_with_sim):
    with trestle.AppClient(options(daemon_with_sim, "a")) as a, \
            trestle.AppClient(options(daemon_with_sim, "b")) as b:
        a.connect()
        b.connect()
        seen = []
        b.on_message(seen.append)
        for i in range(50):
            a.send("b", payload(i), t_send=i)
        assert b.run_until(lambda: len(seen) == 50, timeout=10.0)
        assert [m.payload for m in sorted(seen, key=lambda m: m.id)] == [payload(i) for i in range(50)]
        assert [m.t_deliver for m in sorted(seen, key=lambda m: m.id)] == [i + 1000 for i in range(50)]


def test_a_pull_simulator_fetches_and_its_outcomes_deliver(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        sim = trestle.AsyncSimClient(options(daemon, "pull-sim", mode=trestle.DeliveryMode.PULL))
        await sim.connect()
        a = trestle.AsyncAppClient(options(daemon, "a"))
        await a.connect()
        ids = [await a.send("a", b"x" * i, t_send=i) for i in range(1, 11)]
        transits = []
        while len(transits) < 10:
            transits += await sim.fetch(0, timeout=5.0)
        assert [t.id for t in transits] == ids
        assert [(t.src, t.dst, t.size, t.t_send) for t in transits] == \
            [("a", "a", i, i) for i in range(1, 11)]
        for t in transits:
            sim.post(trestle.Outcome(t.id, t.t_send + 5, trestle.OutcomeStatus.DROPPED
                                     if t.size == 3 else trestle.OutcomeStatus.DELIVERED))
        await sim.flush()
        got = [await a.receive(timeout=5.0) for _ in range(9)]
        assert sorted(len(m.payload) for m in got) == [i for i in range(1, 11) if i != 3]
        stats = await stats_when(a, lambda r: r.total.delivered == 9)
        assert (stats.total.delivered, stats.total.dropped) == (9, 1)
        assert await sim.fetch(0, timeout=0.1) == []
        await a.close()
        await sim.close()

    asyncio.run(run())


def test_a_drop_is_reported_to_a_sender_that_asked(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        sim = trestle.AsyncSimClient(options(daemon, "dropper"))
        sim.on_transits(lambda ts: [sim.post(trestle.Outcome(t.id, t.t_send, trestle.OutcomeStatus.DROPPED))
                                    for t in ts])
        await sim.connect()
        a = trestle.AsyncAppClient(options(daemon, "a"))
        await a.connect()
        message_id = await a.send("b", b"lost", notify_drop=True)
        report = await a.receive(timeout=5.0)
        assert (report.id, report.dropped, report.payload) == (message_id, True, b"")
        await a.close()
        await sim.close()

    asyncio.run(run())


def test_an_app_reaches_the_daemon_over_its_unix_socket(processes, tmp_path):
    path = str(tmp_path / "trestled.sock")
    daemon = Daemon("--unix-socket", path)
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000))
    unix = trestle.ClientOptions(daemon=f"unix:{path}", client_id="u")
    with trestle.AppClient(unix) as u:
        u.connect()
        u.send("u", b"over unix", t_send=7)
        m = u.receive(timeout=5.0)
        assert (m.payload, m.t_deliver) == (b"over unix", 1007)


def test_pull_callbacks_on_both_sides_and_a_shared_simulator_connection(processes):
    """A PULL simulator in callback mode (two Fetch long-polls kept) on one
    shared connection, and a PULL app in callback mode (two Receives)."""
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        sim = trestle.AsyncSimClient(options(daemon, "sim", mode=trestle.DeliveryMode.PULL,
                                             shared_connection=True))
        sim.on_transits(lambda ts: [sim.post(trestle.Outcome(t.id, t.t_send + 50)) for t in ts])
        await sim.connect()
        a = trestle.AsyncAppClient(options(daemon, "a", mode=trestle.DeliveryMode.PULL))
        await a.connect()
        got = []
        a.on_message(got.append)
        ids = [await a.send("a", b"%d" % i, t_send=i) for i in range(100)]
        deadline = asyncio.get_running_loop().time() + 10
        while len(got) < 100 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        assert sorted(m.id for m in got) == ids
        assert sorted((m.t_send, m.t_deliver) for m in got) == [(i, i + 50) for i in range(100)]
        await a.close()
        await sim.close()

    asyncio.run(run())


def test_try_receive_never_waits_and_asks_in_pull_mode(daemon_with_sim):
    with trestle.AppClient(options(daemon_with_sim, "a", mode=trestle.DeliveryMode.PULL)) as a:
        a.connect()
        assert a.try_receive() is None
        a.send("a", b"later")
        m = None
        for _ in range(500):
            m = a.try_receive()
            if m is not None:
                break
            a.run_until(timeout=0.01)  # the loop runs 10 ms: the answer comes in
        assert m is not None and m.payload == b"later"


def start_switch_of_two(processes):
    """A virtual-time trestled and trestle-sim fabric on switch:2 (400 Gbit/s,
    500 ns links) with apps a and b on its endpoints; returns the daemon."""
    daemon = Daemon("--time-mode", "virtual")
    processes.append(daemon)
    map_file = os.path.join(tempfile.mkdtemp(prefix="trestle-switch-"), "map.yaml")
    with open(map_file, "w") as f:
        f.write("a: 0\nb: 1\n")
    sim = Process([binary("TRESTLE_SIM"), "fabric", "--daemon", daemon.address, "--topology",
                   "switch:2", "--link-bw", "400Gbps", "--link-latency", "500ns", "--map",
                   map_file], "trestle-sim")
    processes.append(sim)
    sim.wait_for_output("connected")
    return daemon


def test_a_model_size_is_priced_instead_of_the_payloads_size(processes):
    daemon = start_switch_of_two(processes)

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a"))
        b = trestle.AsyncAppClient(options(daemon, "b"))
        await a.connect()
        await b.connect()
        with pytest.raises(trestle.InvalidArgument, match="model_size of -1 bytes"):
            await a.send("b", b"h", model_size=-1)
        with pytest.raises(trestle.InvalidArgument, match=r"1125899906842625 bytes .*\(2\^50\)"):
            await a.send("b", b"h", model_size=2**50 + 1)
        await a.send("b", b"header", t_send=1000, model_size=1 << 20)  # 1 MiB at 50 B/ns
        await a.send("b", b"header", t_send=100000, model_size=0)  # its bytes wait for none
        got = [await b.receive(timeout=10.0) for _ in range(2)]
        assert [(m.payload, m.t_deliver) for m in got] == [(b"header", 1000 + 1000 + 20972),
                                                           (b"header", 100000 + 1000)]
        await a.close()
        await b.close()

    asyncio.run(run())


def test_collectives_sent_whole_are_replayed_by_the_simulator(processes):
    """Send.collectives (docs/protocol.md, "Collectives"): each app sends its
    part of an exchange to itself; trestle-sim fabric replays the pair and
    delivers each at the end of its part. One sent elsewhere is refused."""
    daemon = start_switch_of_two(processes)

    def exchange(peer: str, compute_ns: int) -> bytes:
        batch = pb.CollectiveBatch()
        c = batch.collectives.add(group=1, instance=0, members=2, compute_ns=compute_ns)
        step = c.steps.add()
        step.sends.add(peer=peer, label=0, bytes=1 << 20)  # 1 MiB at 50 B/ns: 20,972 ns
        step.recvs.add(peer=peer, label=0)
        return batch.SerializeToString()

    async def run():
        # One socket: the refusal comes before the Pong that follows it.
        a = trestle.AsyncAppClient(options(daemon, "a", shared_connection=True))
        b = trestle.AsyncAppClient(options(daemon, "b"))
        errors = []
        a.on_error(errors.append)
        await a.connect()
        await b.connect()
        refused = await a.send("b", b"x", collectives=exchange("b", 0))
        await a.ping()
        assert [e.ref_id for e in errors] == [refused], errors
        assert ("Send.collectives refused: it goes to b: a message carrying collectives goes to "
                "its sender itself (a)") in str(errors[0])
        await a.send("a", b"end-a", t_send=1000, collectives=exchange("b", 0))
        await b.send("b", b"end-b", t_send=1000, collectives=exchange("a", 500))
        got_a = await a.receive(timeout=10.0)
        got_b = await b.receive(timeout=10.0)
        # a's message leaves at 1,000, b's at 1,500 (its compute): each ends
        # when the other's arrives, 1,000 + 20,972 ns later.
        assert (got_a.payload, got_a.t_deliver) == (b"end-a", 1500 + 1000 + 20972)
        assert (got_b.payload, got_b.t_deliver) == (b"end-b", 1000 + 1000 + 20972)
        await a.close()
        await b.close()

    asyncio.run(run())
