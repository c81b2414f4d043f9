#!/usr/bin/env python3
"""One rank of trestle-ring-allreduce in Python, joining C++ ranks in lockstep.

  ring_rank.py --daemon ADDR --ranks N --rank K --size BYTES [--reduce-ns NS]

Follows examples/ring-allreduce/ring_rank.h exactly (chunks, bytes, the
Advance after each reduce-scatter chunk) and the C++ example's --rank mode:
print "rank-K t_ns=... steps=... verified=yes|no", report the time to rank-0
(traffic class 1) unless K is 0, then wait for the run to be quiescent. Rank
0 is the C++ one that prints the summary. --size is in bytes (the C++ --size
with a B unit); --reduce-ns is the C++ rank's rounded chunk/--reduce-bw.
"""
import argparse
import sys

import trestle

RANK_FACTOR, INDEX_FACTOR, REPORT_CLASS = 37, 11, 1


def client_id(r):
    return f"rank-{r}"


class RingRank:
    def __init__(self, app, rank, ranks, chunk, reduce_ns):
        self.app, self.rank, self.n, self.chunk, self.reduce_ns = app, rank, ranks, chunk, reduce_ns
        self.data = bytearray((rank * RANK_FACTOR + j * INDEX_FACTOR + 1) % 256
                              for j in range(ranks * chunk))
        self.steps, self.step = 2 * (ranks - 1), 0
        self.start_ns = self.end_ns = 0

    def sent_chunk(self, s):
        if s < self.n - 1:
            return (self.rank + self.n - s) % self.n
        return (self.rank + 1 + self.n - (s - (self.n - 1))) % self.n

    def send_step(self):
        c = self.sent_chunk(self.step) * self.chunk
        self.app.send(client_id((self.rank + 1) % self.n), bytes(self.data[c:c + self.chunk]))

    def start(self):
        self.start_ns = self.end_ns = self.app.now
        self.send_step()

    def take(self, m):
        prev = client_id((self.rank + self.n - 1) % self.n)
        if m.dropped or m.src != prev or len(m.payload) != self.chunk:
            raise SystemExit(f"{client_id(self.rank)} step {self.step}: unexpected message "
                             f"#{m.id} from {m.src} ({len(m.payload)} bytes, dropped={m.dropped})")
        at = ((self.sent_chunk(self.step) + self.n - 1) % self.n) * self.chunk
        if self.step < self.n - 1:
            for j, b in enumerate(m.payload):
                self.data[at + j] = (self.data[at + j] + b) % 256
            if self.reduce_ns:
                self.app.advance(self.reduce_ns)
        else:
            self.data[at:at + self.chunk] = m.payload
        self.step += 1
        if self.step == self.steps:
            self.end_ns = self.app.now
        else:
            self.send_step()

    def verified(self):
        n = self.n
        return all(b == (RANK_FACTOR * (n * (n - 1) // 2) + n * (j * INDEX_FACTOR + 1)) % 256
                   for j, b in enumerate(self.data))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--daemon", default=trestle.DEFAULT_DAEMON_ADDRESS)
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--rank", type=int, required=True)
    p.add_argument("--size", type=int, required=True, help="all-reduce vector bytes")
    p.add_argument("--reduce-ns", type=int, default=0)
    p.add_argument("--timeout", type=float, default=60.0, help="wall seconds per receive")
    a = p.parse_args()
    if not 0 < a.rank < a.ranks:
        sys.exit(f"ring_rank: --rank {a.rank} must be 1..{a.ranks - 1} (rank 0 is a C++ rank)")
    app = trestle.AppClient(trestle.ClientOptions(daemon=a.daemon, client_id=client_id(a.rank),
                                                  lockstep=True))
    app.connect()
    rank = RingRank(app, a.rank, a.ranks, -(-a.size // a.ranks), a.reduce_ns)
    rank.start()
    while rank.step < rank.steps:
        rank.take(app.receive(timeout=a.timeout))
    ok = rank.verified()
    t_ns = rank.end_ns - rank.start_ns
    print(f"{client_id(a.rank)} t_ns={t_ns} steps={rank.steps} verified={'yes' if ok else 'no'}",
          flush=True)
    app.send(client_id(0), f"t_ns={t_ns} verified={'yes' if ok else 'no'}".encode(),
             tclass=REPORT_CLASS)
    try:  # the end of the run, so that nothing is left in flight
        m = app.receive(timeout=a.timeout)
        sys.exit(f"{client_id(a.rank)}: a message from {m.src} after the last step")
    except trestle.Quiescent:
        pass
    app.close()
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except trestle.TrestleError as e:
        sys.exit(f"ring_rank: {type(e).__name__}: {e}")
