"""Payloads by key through a real redis-server: the SDK writes a large
payload to Redis itself and the receiver takes it from there (GETDEL); Redis
away at the sender fails the send naming the URL, and uses no id."""
import asyncio

import pytest
import redis

import trestle
from conftest import Daemon, Redis, options, start_python_sim, stats_when

THRESHOLD = 4096


@pytest.fixture
def store(processes):
    r = Redis()
    processes.append(r)
    daemon = Daemon("--store", r.url, "--payload-by-key-threshold", str(THRESHOLD))
    processes.append(daemon)
    processes.append(start_python_sim(daemon, 1000))
    return r, daemon


def test_a_large_payload_goes_by_key_and_arrives_intact(store):
    r, daemon = store
    big = bytes(range(256)) * 400  # 102400 bytes
    small = b"s" * 100

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a"))
        b = trestle.AsyncAppClient(options(daemon, "b"))
        await a.connect()
        await b.connect()
        big_id = await a.send("b", big)
        small_id = await a.send("b", small)
        got = {m.id: m.payload for m in [await b.receive(timeout=5.0) for _ in range(2)]}
        assert got == {big_id: big, small_id: small}
        stats = await stats_when(a, lambda s: s.total.delivered == 2)
        assert (stats.total.delivered, stats.total.lost_in_store) == (2, 0)
        await a.close()
        await b.close()

    asyncio.run(run())
    keys = redis.Redis(port=r.port).keys("*")
    assert keys == [], f"payload keys left in Redis: {keys}"


def test_an_app_without_by_key_gets_the_payload_inline(store):
    _, daemon = store
    big = b"z" * (THRESHOLD * 3)
    with trestle.AppClient(options(daemon, "a")) as a, \
            trestle.AppClient(options(daemon, "b", payload_by_key=False)) as b:
        a.connect()
        b.connect()
        a.send("b", big)
        assert b.receive(timeout=5.0).payload == big


def test_redis_away_at_the_sender_fails_the_send_naming_the_url(store):
    r, daemon = store
    with trestle.AppClient(options(daemon, "a", payload_store_timeout=0.5)) as a:
        a.connect()
        first = a.send("a", b"inline")
        r.stop()
        with pytest.raises(trestle.Unavailable, match=f"payload store {r.url}"):
            a.send("b", b"L" * (THRESHOLD * 2))
        assert a.send("b", b"still inline") == first + 1  # the failed one took no id


def test_concurrent_sends_by_key_and_inline_keep_their_ids_and_payloads(store):
    _, daemon = store

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a"))
        b = trestle.AsyncAppClient(options(daemon, "b"))
        await a.connect()
        await b.connect()
        payloads = [(b"K%d" % i) * (THRESHOLD if i % 2 else 1) for i in range(20)]
        ids = await asyncio.gather(*(a.send("b", p) for p in payloads))
        assert len(set(ids)) == 20
        got = {m.id: m.payload for m in [await b.receive(timeout=5.0) for _ in range(20)]}
        assert got == dict(zip(ids, payloads))
        await a.close()
        await b.close()

    asyncio.run(run())
