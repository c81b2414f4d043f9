#!/usr/bin/env python3
"""Ping-pong in Python: "ping" and "pong" bounce COUNT payloads through the
daemon and its simulator; ping prints each round trip's virtual times.

  ping_pong.py --daemon 127.0.0.1:7878 --count 5 --size 64 [--lockstep]
"""
import argparse
import asyncio
import sys

import trestle


async def pong(options, count):
    async_app = trestle.AsyncAppClient(options)
    await async_app.connect()
    for _ in range(count):
        m = await async_app.receive(timeout=10.0)
        await async_app.send(m.src, m.payload)
    if options.lockstep:  # stay until the run ends, so nothing is left in flight
        try:
            await async_app.receive(timeout=10.0)
        except trestle.Quiescent:
            pass
    await async_app.close()


async def ping(options, count, size):
    app = trestle.AsyncAppClient(options)
    await app.connect()
    for i in range(count):
        payload = bytes([i % 256]) * size
        t0 = app.now
        await app.send("pong", payload)
        m = await app.receive(timeout=10.0)
        if m.payload != payload:
            raise SystemExit(f"ping: round trip {i}: the payload came back changed")
        print(f"round {i}: sent at t={t0} ns, pong received at t={m.t_send} ns, "
              f"back at t={m.t_deliver} ns (virtual round trip {m.t_deliver - t0} ns)")
    if options.lockstep:
        try:
            await app.receive(timeout=10.0)
        except trestle.Quiescent:
            pass
    print(f"ping: {count} round trips, virtual clock at the end {app.now} ns")
    await app.close()


async def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--daemon", default=trestle.DEFAULT_DAEMON_ADDRESS)
    p.add_argument("--count", type=int, default=5)
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--lockstep", action="store_true")
    a = p.parse_args()
    opts = lambda cid: trestle.ClientOptions(daemon=a.daemon, client_id=cid, lockstep=a.lockstep)
    pong_task = asyncio.ensure_future(pong(opts("pong"), a.count))
    await asyncio.sleep(0)  # pong says Hello first
    await ping(opts("ping"), a.count, a.size)
    await pong_task


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except trestle.TrestleError as e:
        sys.exit(f"ping_pong: {type(e).__name__}: {e}")
