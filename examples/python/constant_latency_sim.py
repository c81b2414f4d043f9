#!/usr/bin/env python3
"""A simulator adapter in Python: every message arrives LATENCY ns after it
was sent. Lockstep too: with --lockstep it answers each Grant at once.

  constant_latency_sim.py --daemon 127.0.0.1:7878 --latency-ns 1000 [--lockstep]
"""
import argparse

import trestle

p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
p.add_argument("--daemon", default=trestle.DEFAULT_DAEMON_ADDRESS)
p.add_argument("--id", default="const-latency")
p.add_argument("--latency-ns", type=int, default=1000)
p.add_argument("--lockstep", action="store_true")
a = p.parse_args()

sim = trestle.SimClient(trestle.ClientOptions(
    daemon=a.daemon, client_id=a.id, lockstep=a.lockstep, lookahead_ns=a.latency_ns))
# Every outcome is posted on arrival, so after a Grant nothing is pending.
sim.on_transits(lambda ts: [sim.post(trestle.Outcome(t.id, t.t_send + a.latency_ns)) for t in ts])
sim.on_grant(lambda until: sim.report_reached(trestle.NOTHING_PENDING, until))
sim.connect()
print(f"{a.id}: connected, latency {a.latency_ns} ns", flush=True)
try:
    sim.run_until()  # until the daemon goes away
except KeyboardInterrupt:
    pass
sim.shutdown()
