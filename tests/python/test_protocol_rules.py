"""Three rules of docs/protocol.md, through the Python SDK against a real
trestled (tests/integration/protocol_rules_test.cc checks the same through
the C++ SDK):

- PULL: each Fetch gets exactly one TransitBatch, of at most max_count
  transits, sent as soon as there is one (never held back to fill it);
- Errors: ref_id names the refused message (a Send's id, an Outcome's
  transit), on a shared connection too; an Error without one names none;
- lockstep: after a resume, Clock.seen_delivery_seq counts what the session
  before took in, so the resumed app's blocked report counts and it wakes.
"""
import asyncio

import trestle
from conftest import Daemon, options, start_python_sim, stats_when


async def sim_stats(app, sim_id, holds):
    """The simulator's ClientStats once holds(it), else the last one read."""
    reply = await stats_when(app, lambda r: any(c.client_id == sim_id and holds(c)
                                                for c in r.clients))
    return next(c for c in reply.clients if c.client_id == sim_id)


async def until(holds, what, timeout=10.0):
    """Waits (on the loop) until holds(); fails naming `what` after `timeout` s."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not holds():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.005)


def test_each_fetch_is_answered_by_one_batch_of_at_most_max_count_as_soon_as_one_is_there(
        processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        # Shared: a Ping's Pong follows the Fetches written before it.
        sim = trestle.AsyncSimClient(options(daemon, "pull-sim", mode=trestle.DeliveryMode.PULL,
                                             shared_connection=True))
        await sim.connect()
        # Every Fetch frame the SDK writes, and every TransitBatch it reads.
        fetches, batches = [], []
        write_pull = sim._session.write_pull
        sim._session.write_pull = lambda n, t, fetch: (fetches.append(n), write_pull(n, t, fetch))
        on_recv_frame = sim.on_recv_frame
        sim.on_recv_frame = lambda f: (batches.append(len(f.transits.transits))
                                       if f.WhichOneof("body") == "transits" else None,
                                       on_recv_frame(f))[1]
        a = trestle.AsyncAppClient(options(daemon, "a"))
        await a.connect()
        ids = [await a.send("a", b"m%d" % i) for i in range(10)]
        state = await sim_stats(a, "pull-sim", lambda c: c.queued == 10)
        assert (state.queued, state.held) == (10, 0)

        first = await sim.fetch(4, timeout=5.0)
        assert [t.id for t in first] == ids[:4]
        state = await sim_stats(a, "pull-sim", lambda c: c.held == 4)
        assert (state.queued, state.held) == (6, 4), "one Fetch for 4 took other than 4"
        rest = await sim.fetch(0, timeout=5.0)  # 0: max_batch
        assert [t.id for t in rest] == ids[4:]
        assert await sim.fetch(0, timeout=0.2) == []  # answered empty at its timeout

        # Waiting Fetches (the callback mode keeps two, for max_batch each)
        # are answered by the first transit to come, alone: the next is sent
        # only once that answer is in.
        answers = []
        sim.on_transits(lambda ts: answers.append([t.id for t in ts]))
        await sim.ping()  # the shared connection: both Fetches wait now
        eleventh = await a.send("a", b"m10")
        await until(lambda: answers, "a waiting Fetch was not answered when a transit came")
        twelfth = await a.send("a", b"m11")
        await until(lambda: len(answers) == 2, "the second waiting Fetch was not answered")
        assert answers == [[eleventh], [twelfth]]
        sim.on_transits(None)

        # One batch per Fetch, in order, none above its max_count (the SDK may
        # ask again for the last moments of a wait: those are answered too),
        # but for the two the callback mode left waiting.
        assert len(batches) == len(fetches) - 2, (fetches, batches)
        assert all(n <= asked for asked, n in zip(fetches, batches)), (fetches, batches)
        assert (fetches[:2], batches[:2]) == ([4, 256], [4, 6])
        assert sum(batches) == 12, (fetches, batches)
        await a.close()
        await sim.close()

    asyncio.run(run())


def test_on_a_shared_connection_an_errors_ref_id_names_the_refused_send_or_outcome(processes):
    daemon = Daemon("--max-absent-destinations", "1")
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000))

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a", shared_connection=True))
        b = trestle.AsyncAppClient(options(daemon, "b"))
        app_errors = []
        a.on_error(app_errors.append)
        await a.connect()
        await b.connect()
        one = await a.send("b", b"one")
        absent = await a.send("nobody-1", b"waits for nobody-1")
        refused = await a.send("nobody-2", b"over max_absent_destinations")
        four = await a.send("b", b"four")
        # A refused Send used its id: the ids go on one by one.
        assert [absent, refused, four] == [one + 1, one + 2, one + 3]
        await a.ping()  # read after the Sends on the same socket: their Errors came first
        assert len(app_errors) == 1, app_errors
        e = app_errors[0]
        assert isinstance(e, trestle.ResourceExhausted) and e.ref_id == refused
        assert str(e).startswith(f"send #{refused} rejected: RESOURCE_EXHAUSTED: ")
        assert "max_absent_destinations" in str(e)
        got = [await b.receive(timeout=5.0) for _ in range(2)]
        assert sorted((m.id, m.payload) for m in got) == [(one, b"one"), (four, b"four")]

        # A simulator on a shared connection: an Outcome for a transit it does
        # not hold is refused naming it; Reached at a wallclock daemon names none.
        sim = trestle.AsyncSimClient(options(daemon, "shared-sim", shared_connection=True))
        sim_errors = []
        sim.on_error(sim_errors.append)
        await sim.connect()
        sim.post(trestle.Outcome(777, 5))
        await sim.flush()
        sim.report_reached(5, 5)
        await sim.ping()
        assert [(type(e), e.ref_id) for e in sim_errors] == \
            [(trestle.NotFound, 777), (trestle.FailedPrecondition, 0)], sim_errors
        assert str(sim_errors[0]).startswith("send channel: NOT_FOUND: Outcome for transit 777")
        assert str(sim_errors[1]).startswith("ctrl channel: WRONG_TIME_MODE: Reached")
        await sim.close()
        await a.close()
        await b.close()

    asyncio.run(run())


def test_after_a_resume_seen_delivery_seq_counts_what_the_session_before_took_in(processes):
    daemon = Daemon("--time-mode", "lockstep")
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000, lockstep=True))

    async def run():
        b = trestle.AsyncAppClient(options(daemon, "b", lockstep=True))
        await b.connect()
        await b.send("b", b"one")  # at 0, arrives at 1000: delivery_seq 1
        m = await b.receive(timeout=10.0)
        assert (m.payload, m.t_deliver, b.now) == (b"one", 1000, 1000)
        # Acknowledged, so nothing is written again to the resumed session;
        # and no Clock of this session said it had seen delivery 1.
        await stats_when(b, lambda r: r.total.delivered == 1)
        token = b.session_token
        b.disconnect()
        b.set_resume_token(token)
        await b.connect()
        assert b.resumed
        # Its blocked report says seen_delivery_seq 1, the last delivery
        # released to it: the report counts, and b wakes at 5000. Had it said
        # 0 (counting this session alone), it would never count.
        assert await b.receive_until(5000, timeout=10.0) is None
        assert b.now == 5000
        await b.close()

    asyncio.run(run())
