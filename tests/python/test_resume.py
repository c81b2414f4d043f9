"""Reconnect and resume: what was sent while an app was away reaches it
once, whether it resumes its session with the token or starts a new one."""
import asyncio

import trestle
from conftest import options, stats_when


async def receive_all(app, count):
    return [await app.receive(timeout=5.0) for _ in range(count)]


def test_a_resumed_session_gets_what_came_while_it_was_away_exactly_once(daemon_with_sim):
    async def run():
        a = trestle.AsyncAppClient(options(daemon_with_sim, "a"))
        b = trestle.AsyncAppClient(options(daemon_with_sim, "b"))
        await a.connect()
        await b.connect()
        first_token = b.session_token
        for i in range(5):
            await a.send("b", b"before-%d" % i)
        before = await receive_all(b, 5)
        await asyncio.sleep(0.05)  # the Ack leaves
        b.disconnect()
        assert not b.connected
        for i in range(5):
            await a.send("b", b"away-%d" % i)
        await asyncio.sleep(0.1)
        b.set_resume_token(first_token)
        await b.connect()
        assert b.resumed and b.session_token == first_token
        after = await receive_all(b, 5)
        assert sorted(m.payload for m in before) == [b"before-%d" % i for i in range(5)]
        assert sorted(m.payload for m in after) == [b"away-%d" % i for i in range(5)]
        try:
            extra = await b.receive(timeout=0.3)
            raise AssertionError(f"delivered twice: {extra.payload!r}")
        except trestle.DeadlineExceeded:
            pass
        stats = await stats_when(a, lambda r: r.total.delivered == 10)
        assert (stats.total.delivered, stats.total.in_flight) == (10, 0)
        await a.close()
        await b.close()

    asyncio.run(run())


def test_a_new_session_of_the_same_id_gets_what_waits_for_it(daemon_with_sim):
    async def run():
        a = trestle.AsyncAppClient(options(daemon_with_sim, "a"))
        await a.connect()
        b = trestle.AsyncAppClient(options(daemon_with_sim, "b"))
        await b.connect()
        b.disconnect()  # crashed: its session lingers
        ids = [await a.send("b", b"m%d" % i) for i in range(3)]
        await asyncio.sleep(0.1)
        b2 = trestle.AsyncAppClient(options(daemon_with_sim, "b"))
        await b2.connect()
        assert not b2.resumed
        got = await receive_all(b2, 3)
        assert sorted(m.id for m in got) == ids
        await b2.close()
        await a.close()

    asyncio.run(run())


def test_a_client_reconnects_after_close_with_a_fresh_session(daemon_with_sim):
    with trestle.AppClient(options(daemon_with_sim, "a")) as a:
        a.connect()
        token = a.session_token
        a.close()
        assert not a.connected
        a.set_resume_token("")
        a.connect()
        assert a.connected and a.session_token != token
        a.send("a", b"self")
        assert a.receive(timeout=5.0).payload == b"self"
