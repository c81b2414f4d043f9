"""AsyncSimClient: a network simulator's end of the bridge (the C++
trestle::SimClient). It receives transits and posts one Outcome per transit.

    sim = AsyncSimClient(ClientOptions(client_id="const-latency"))
    sim.on_transits(lambda ts: [sim.post(Outcome(t.id, t.t_send + 1000)) for t in ts])
    await sim.connect()

Outcomes leave as one OutcomeBatch per loop pass (or at max_batch).
Lockstep: on_grant(until_ns) after the transits before it; answer every
Grant with report_reached.
"""
import asyncio
import time
from typing import Callable, List, Optional

from trestle import errors
from trestle.client import AsyncClient
from trestle.message import Outcome, OutcomeStatus, Transit
from trestle.options import ClientOptions, DeliveryMode
from trestle.wire import pb

DEFAULT_MAX_BATCH = 256
AUTO_FETCH_TIMEOUT_MS = 30000
NOTHING_PENDING = 2**64 - 1


class AsyncSimClient(AsyncClient):
    def __init__(self, options: ClientOptions):
        super().__init__(options, pb.ROLE_SIM)
        self._on_transits: Optional[Callable[[List[Transit]], None]] = None
        self._on_grant: Optional[Callable[[int], None]] = None
        self._fetched: List[Transit] = []
        self._outcomes = pb.Frame()
        self._flush_scheduled = False
        self.granted_until = 0

    def _fill_hello(self, hello):
        hello.lookahead_ns = self._options.lookahead_ns
        if self._options.self_lookahead_ns is not None:
            hello.self_lookahead_ns = self._options.self_lookahead_ns
        hello.capabilities.replays_collectives = self._options.replays_collectives

    def _handle_ready(self, welcome):
        self._outcomes = pb.Frame()
        self._keep_fetching()

    async def _handle_closing(self):
        self._write_outcomes()

    def _max_batch(self) -> int:
        return self.daemon_config.max_batch or DEFAULT_MAX_BATCH

    def on_transits(self, callback: Optional[Callable[[List[Transit]], None]]) -> None:
        """Callback mode: every batch of transits goes to `callback` on the loop."""
        self._on_transits = callback
        if callback is not None and self._fetched:
            batch, self._fetched = self._fetched, []
            callback(batch)
        self._keep_fetching()

    def on_grant(self, callback: Optional[Callable[[int], None]]) -> None:
        """Lockstep: every Grant's until_ns, after the transits before it."""
        self._on_grant = callback

    async def fetch(self, max_count: int = 0, timeout: float = 1.0) -> List[Transit]:
        """Up to max_count transits (0: max_batch), waiting up to `timeout` s
        for one; [] when none came. Raises Unavailable (session lost, nothing
        buffered), FailedPrecondition (in callback mode)."""
        if self._on_transits is not None:
            raise errors.FailedPrecondition("fetch is unavailable in on_transits callback mode")
        count = max_count or self._max_batch()
        pull = count if self._options.mode == DeliveryMode.PULL else 0
        try:
            await self._wait_for(lambda: bool(self._fetched), timeout, "transit", pull, fetch=True)
        except errors.DeadlineExceeded:
            return []
        batch, self._fetched = self._fetched[:count], self._fetched[count:]
        if self._session is not None and len(self._fetched) <= self._options.max_buffered_messages // 2:
            self._session.resume_recv()
        return batch

    def post(self, outcome: Outcome) -> None:
        """Queues an outcome (discarded when not connected)."""
        if not self.connected:
            return
        o = self._outcomes.outcomes.outcomes.add()
        o.id = outcome.id
        o.status = pb.DELIVERED if outcome.status == OutcomeStatus.DELIVERED else pb.DROPPED
        o.t_deliver = outcome.t_deliver
        o.sim_posted = outcome.sim_posted or time.monotonic_ns()
        if len(self._outcomes.outcomes.outcomes) >= self._max_batch():
            self._write_outcomes()
        elif not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._write_outcomes)

    @property
    def queued_outcomes(self) -> int:
        return len(self._outcomes.outcomes.outcomes)

    def _write_outcomes(self) -> None:
        self._flush_scheduled = False
        if not self._outcomes.outcomes.outcomes or not self.connected:
            return
        self._session.write("send", self._outcomes)
        self._outcomes = pb.Frame()

    async def flush(self, timeout: float = 1.0) -> None:
        """Writes the queued outcomes and waits for the kernel to take them."""
        self._write_outcomes()
        try:
            await asyncio.wait_for(self._ready_session().drain("send"), timeout)
        except asyncio.TimeoutError:
            raise errors.DeadlineExceeded(f"outcomes not written within {timeout} s") from None

    def report_reached(self, reached_ns: int, grant_ns: int) -> None:
        """Lockstep: every outcome with t_deliver <= reached_ns of the transits
        received so far is posted, and the Grant to grant_ns taken in
        (NOTHING_PENDING: nothing is). Writes the queued outcomes first."""
        self._write_outcomes()
        frame = pb.Frame()
        frame.reached.reached_ns = reached_ns
        frame.reached.grant_ns = grant_ns
        self._ready_session().write("send", frame)

    def _keep_fetching(self) -> None:
        if self._on_transits is None or self._options.mode != DeliveryMode.PULL or not self.connected:
            return
        while self._session.pulls_outstanding < 2:
            self._session.write_pull(self._max_batch(), AUTO_FETCH_TIMEOUT_MS, fetch=True)

    def on_recv_frame(self, frame):
        body = frame.WhichOneof("body")
        if body == "grant":
            self.granted_until = frame.grant.until_ns
            if self._on_grant is not None:
                self._on_grant(self.granted_until)
            return
        if body != "transits":
            return
        batch = [Transit(t.id, t.src, t.dst, t.size, t.tclass, t.t_send, t.collectives)
                 for t in frame.transits.transits]
        if self._on_transits is not None:
            if batch:
                self._on_transits(batch)
        else:
            self._fetched.extend(batch)
            if len(self._fetched) >= self._options.max_buffered_messages:
                self._session.pause_recv()
            self._notify()
        self._keep_fetching()
