"""AsyncAppClient: a live application's end of the bridge (the C++
trestle::AppClient). It sends payloads to other apps, receives what the
network simulator delivered, and keeps the app's virtual clock.

    app = AsyncAppClient(ClientOptions(daemon="127.0.0.1:7878", client_id="a"))
    await app.connect()
    await app.send("b", b"hello")
    m = await app.receive(timeout=1.0)   # m.payload, m.t_deliver
    await app.close()

Lockstep time (options.lockstep): send stamps now, advance(dt) models
compute, receive/receive_until wait in virtual time, and a run where nothing
can ever arrive raises Quiescent.
"""
import asyncio
import collections
import time
from typing import Callable, Optional

from trestle import errors
from trestle.client import AsyncClient
from trestle.delivery_acks import DeliveryAcks
from trestle.message import Message, Stamps
from trestle.options import ClientOptions, DeliveryMode
from trestle.payload_store import PayloadStore
from trestle.received_ids import ReceivedIds
from trestle.wire import facts, pb

# Lockstep: advance() tells the daemon at most this often (wall ns).
CLOCK_REPORT_INTERVAL_NS = 1_000_000
# Room for a Delivery's fields besides the payload (the daemon's margin).
DELIVERY_OVERHEAD_BYTES = facts.DELIVERY_OVERHEAD_BYTES
# Send.model_size is at most this (1 PiB), as frame_format.h's kMaxModelSizeBytes.
MAX_MODEL_SIZE_BYTES = 1 << 50
# send() waits for the kernel while more than this is queued on send.
SEND_HIGH_WATERMARK = 4 << 20
DEFAULT_PULL_BATCH = 256
# Callback mode, PULL: how long each automatic long-poll waits, ms.
AUTO_PULL_TIMEOUT_MS = 30000


class AsyncAppClient(AsyncClient):
    def __init__(self, options: ClientOptions):
        super().__init__(options, pb.ROLE_APP)
        self._acks = DeliveryAcks(lambda frame: self._session.write("recv", frame))
        self._inbox = collections.deque()
        self._inbox_bytes = 0
        self._on_message: Optional[Callable[[Message], None]] = None
        self._now = 0
        self._id_prefix = 0
        self._next_seq = 0
        self._numbering = 0
        self._received_ids = None
        self._remember_ids = False
        self._store: Optional[PayloadStore] = None
        self._key_prefix = ""
        self._by_key_threshold = 0
        self._send_by_key = False
        self._send_lock: Optional[asyncio.Lock] = None  # held by a send by key
        # Lockstep.
        self._reported_now = 0
        self._last_report_wall = 0
        self._block = 0
        self._waiting = False
        self._woken = None
        self._quiescent = False
        # Callback mode: the wait await_next reports at the end of the pass.
        self._await_wake = None
        self._await_pending = False
        self._await_scheduled = False
        self._on_wake: Optional[Callable[[int], None]] = None
        self._on_quiescent: Optional[Callable[[], None]] = None

    # ---- handshake ----
    def _fill_hello(self, hello):
        hello.delivery_acks = True
        hello.payload_by_key = self._options.payload_by_key

    def _handle_ready(self, welcome):
        same_numbering = welcome.resumed or (
            welcome.delivery_numbering != 0 and welcome.delivery_numbering == self._numbering)
        if not same_numbering:
            self._acks.reset()
        self._numbering = welcome.delivery_numbering
        self._remember_ids = welcome.redelivers_across_sessions and self._options.duplicate_window > 0
        if self._remember_ids and self._received_ids is None:
            self._received_ids = ReceivedIds(self._options.duplicate_window)
        self._id_prefix = welcome.id_prefix
        self._next_seq = welcome.next_send_seq
        self._send_by_key = False
        if welcome.HasField("payload_store") and self._options.payload_by_key:
            store = welcome.payload_store
            self._key_prefix = store.key_prefix
            self._by_key_threshold = store.by_key_threshold
            self._send_by_key = store.by_key
            if self._store is None or self._store.url != store.url:
                self._store = PayloadStore(store.url, self._options.payload_store_timeout)
        if self._options.lockstep:
            self._now = max(self._now, welcome.lockstep_start_ns)
            self._reported_now = self._now
        self._keep_pulling()

    async def _handle_closing(self):
        self._acks.flush()

    async def close(self, timeout: float = 1.0) -> None:
        """As AsyncClient.close; also closes the payload store's connection."""
        try:
            await super().close(timeout)
        finally:
            if self._store is not None:
                await self._store.close()
                self._store = None

    # ---- sending ----
    async def send(self, dst: str, payload: bytes, *, t_send: Optional[int] = None,
                   tclass: int = 0, notify_drop: bool = False,
                   model_size: Optional[int] = None, collectives: bytes = b"",
                   timeout: float = 5.0) -> int:
        """Sends `payload` to app `dst`; returns the message id (known without
        a round trip; a later rejection reaches on_error naming it).
        `model_size`, when given, is the size in bytes the network model is
        told instead of len(payload) (docs/protocol.md, Send.model_size).
        `collectives`, when not empty, is a serialized CollectiveBatch for the
        simulator to replay; the send then goes to this app itself
        (docs/protocol.md, "Collectives").
        Raises InvalidArgument (empty or long dst, payload over the frame
        limit, model_size negative or over 2^50, collectives over half the
        frame limit, t_send before now in lockstep), Unavailable / FailedPrecondition when
        not connected or the payload store is down, DeadlineExceeded when the
        send backlog does not drain within `timeout` s. A failed send uses no id."""
        session = self._ready_session()
        dst_bytes = len(dst.encode())
        if not 0 < dst_bytes <= 255:
            raise errors.InvalidArgument(f"destination must be 1 to 255 bytes; it has {dst_bytes}")
        t = self._now if t_send is None else t_send
        if self._options.lockstep and t < self._now:
            raise errors.InvalidArgument(
                f"t_send {t} ns is before now, {self._now} ns: in lockstep time a send cannot "
                "go back in time")
        if model_size is not None and not 0 <= model_size <= MAX_MODEL_SIZE_BYTES:
            raise errors.InvalidArgument(
                f"model_size of {model_size} bytes is outside 0 .. {MAX_MODEL_SIZE_BYTES} (2^50)")
        size = len(payload)
        limit = self.daemon_config.max_frame_bytes
        if collectives and limit and len(collectives) > limit // 2:
            raise errors.InvalidArgument(
                f"collectives of {len(collectives)} bytes are over the limit of half the daemon's "
                f"max_frame_bytes ({limit // 2}): send them in smaller batches")
        by_key = self._send_by_key and size != 0 and size >= self._by_key_threshold
        if by_key and limit and size + DELIVERY_OVERHEAD_BYTES > limit:
            raise errors.InvalidArgument(
                f"payload of {size} bytes is too large to deliver: at most the daemon's "
                f"max_frame_bytes - {DELIVERY_OVERHEAD_BYTES} = {limit - DELIVERY_OVERHEAD_BYTES}, "
                "by key as inline")
        frame = pb.Frame()
        send = frame.send
        send.dst = dst
        if by_key:
            send.by_key = True
            send.size = size
        else:
            send.payload = payload
        send.t_send = t
        send.tclass = tclass
        send.notify_drop = notify_drop
        if model_size is not None:
            send.model_size = model_size
        if collectives:
            send.collectives = collectives
        send.app_sent = time.monotonic_ns()
        if limit and size + dst_bytes + len(collectives) + 64 > limit and frame.ByteSize() > limit:
            raise errors.InvalidArgument(f"payload of {size} bytes exceeds the daemon's frame "
                                         f"limit of {limit} bytes (max_frame_bytes)")
        if session.buffered_bytes("send") > SEND_HIGH_WATERMARK:
            try:
                await asyncio.wait_for(session.drain("send"), timeout)
            except asyncio.TimeoutError:
                raise errors.DeadlineExceeded(f"send backlog did not drain within {timeout} s") from None
        if not by_key and (self._send_lock is None or not self._send_lock.locked()):
            return self._commit_send(session, frame, t)
        # The key names the id this Send will get: no other Send may reach
        # the daemon between the SET and this one.
        if self._send_lock is None:
            self._send_lock = asyncio.Lock()
        async with self._send_lock:
            if by_key:
                await self._store.put(self._key_prefix + str((self._id_prefix << 32) | self._next_seq),
                                      payload, self._options.payload_key_ttl_ms)
            return self._commit_send(self._ready_session(), frame, t)

    def _commit_send(self, session, frame, t) -> int:
        """Writes the Send; its id, (id_prefix << 32) | n."""
        session.write("send", frame)
        message_id = (self._id_prefix << 32) | self._next_seq
        self._next_seq += 1
        if self._options.lockstep:
            self._now = t
            self._reported_now = t
            self._await_pending = False  # running again
        return message_id

    # ---- virtual time ----
    @property
    def now(self) -> int:
        """The app's virtual clock, ns: a receive moves it to t_deliver."""
        return self._now

    def advance(self, dt_ns: int) -> None:
        """Models `dt_ns` of compute. In lockstep time the daemon is told
        lazily: at most one Clock frame per ms of wall time."""
        self._now += dt_ns
        if not self._options.lockstep or self._now == self._reported_now:
            return
        self._await_pending = False
        if time.monotonic_ns() - self._last_report_wall >= CLOCK_REPORT_INTERVAL_NS:
            self._report_clock(False, None)

    def _report_clock(self, blocked: bool, wake: Optional[int]) -> None:
        if not self.connected:
            return
        frame = pb.Frame()
        clock = frame.clock
        clock.now_ns = self._now
        clock.blocked = blocked
        if wake is not None:
            clock.wake_ns = wake
        clock.seen_delivery_seq = self._acks.highest_seen
        clock.block = self._block if blocked else 0
        self._session.write("send", frame)
        self._reported_now = self._now
        self._last_report_wall = time.monotonic_ns()

    # ---- receiving ----
    async def receive(self, timeout: float = 5.0) -> Message:
        """The next message, waiting up to `timeout` s of wall time. Moves now
        to max(now, t_deliver). Raises DeadlineExceeded, Unavailable (session
        lost, inbox empty), Quiescent (lockstep: nothing will ever arrive),
        FailedPrecondition (in on_message callback mode)."""
        if self._on_message is not None:
            raise errors.FailedPrecondition("receive is unavailable in on_message callback mode")
        if self._options.lockstep:
            return await self._receive_in_time(None, timeout)
        if not self._inbox:
            await self._wait_for(lambda: bool(self._inbox), timeout, "message", self._pull_batch())
        return self._take_from_inbox()

    async def receive_until(self, t_wake_ns: int, timeout: float = 5.0) -> Optional[Message]:
        """Lockstep only: as receive, but None (with now = max(now, t_wake_ns))
        if nothing arrives at or before virtual time t_wake_ns."""
        if not self._options.lockstep:
            raise errors.FailedPrecondition("receive_until needs lockstep time (ClientOptions.lockstep)")
        if self._on_message is not None:
            raise errors.FailedPrecondition("receive_until is unavailable in on_message callback mode")
        return await self._receive_in_time(t_wake_ns, timeout)

    async def _receive_in_time(self, wake, timeout):
        # What the daemon handed over is final and in order.
        if not self._inbox:
            self._ready_session()
            self._block += 1
            self._waiting = True
            self._woken = None
            self._quiescent = False
            self._report_clock(True, wake)
            try:
                await self._wait_for(lambda: bool(self._inbox) or self._woken is not None
                                     or self._quiescent, timeout, "message (wall time)",
                                     self._pull_batch())
            finally:
                self._waiting = False
            if not self._inbox:
                if self._woken is not None:
                    self._now = max(self._now, self._woken)
                    return None
                raise errors.Quiescent(
                    f"'{self.client_id}' at {self._now} ns: the run is quiescent (every app "
                    "waits and nothing is in flight): nothing will ever arrive")
        if wake is not None and self._inbox[0].t_deliver > wake:
            self._now = max(self._now, wake)
            return None
        return self._take_from_inbox()

    def try_receive(self) -> Optional[Message]:
        """A message already received, if any; never waits. In PULL mode it
        also asks the daemon for more (answered on a later call)."""
        if self._on_message is not None:
            return None
        if not self._inbox:
            if self._pull_batch() and self.connected and self._session.pulls_outstanding == 0:
                self._session.write_pull(self._pull_batch(), 0, fetch=False)
            return None
        return self._take_from_inbox()

    def on_message(self, callback: Optional[Callable[[Message], None]]) -> None:
        """Callback mode: every message goes to `callback` on the loop (the
        inbox's first, at once). None returns to receive mode."""
        self._on_message = callback
        while self._on_message is not None and self._inbox:
            self._on_message(self._take_from_inbox())
        self._keep_pulling()

    def await_next(self, t_wake_ns: Optional[int] = None) -> None:
        """Lockstep, callback mode: nothing to do until the next message or,
        if set, virtual time t_wake_ns. Told to the daemon at the end of the
        loop pass (a batch is handed over whole first); a send or advance
        before then cancels it. What ends the wait goes to on_message,
        on_wake (now is then t_wake_ns) or on_quiescent. Many apps share one
        loop in lockstep this way."""
        if not self._options.lockstep or self._on_message is None:
            raise errors.FailedPrecondition("await_next needs lockstep time and on_message "
                                            "callback mode")
        self._await_wake = t_wake_ns
        self._await_pending = True
        if not self._await_scheduled:
            self._await_scheduled = True
            asyncio.get_running_loop().call_soon(self._report_await)

    def _report_await(self) -> None:
        self._await_scheduled = False
        if not self._await_pending:
            return
        self._await_pending = False
        self._block += 1
        self._report_clock(True, self._await_wake)

    def on_wake(self, callback: Optional[Callable[[int], None]]) -> None:
        """Lockstep, callback mode: an await_next with a wake time ended there."""
        self._on_wake = callback

    def on_quiescent(self, callback: Optional[Callable[[], None]]) -> None:
        """Lockstep, callback mode: the run is quiescent; nothing will arrive."""
        self._on_quiescent = callback

    @property
    def inbox_size(self) -> int:
        return len(self._inbox)

    def _take_from_inbox(self) -> Message:
        m = self._inbox.popleft()
        self._inbox_bytes -= len(m.payload)
        self._now = max(self._now, m.t_deliver)
        if self._session is not None and len(self._inbox) <= self._options.max_buffered_messages // 2 \
                and self._inbox_bytes <= self._options.max_buffered_bytes // 2:
            self._session.resume_recv()
        return m

    def _pull_batch(self) -> int:
        if self._options.mode != DeliveryMode.PULL:
            return 0
        return self.daemon_config.max_batch or DEFAULT_PULL_BATCH

    def _keep_pulling(self) -> None:
        if self._on_message is None or not self._pull_batch() or not self.connected:
            return
        while self._session.pulls_outstanding < 2:
            self._session.write_pull(self._pull_batch(), AUTO_PULL_TIMEOUT_MS, fetch=False)

    def on_channel_error(self, channel, error):
        if channel == "send" and error.ref_id != 0:
            self._report_error(errors.from_wire(error, f"send #{error.ref_id} rejected"))
        else:
            super().on_channel_error(channel, error)

    def on_recv_frame(self, frame):
        """Hands a recv frame's deliveries over; returns an awaitable when
        payloads by key must first be taken from the store."""
        body = frame.WhichOneof("body")
        if body == "wake":
            if frame.wake.block != self._block:
                return None  # for a wait that already ended
            if self._waiting:
                self._woken = frame.wake.wake_ns
                self._notify()
            elif self._on_message is not None and self._block != 0:
                self._block += 1  # this wait is over
                self._now = max(self._now, frame.wake.wake_ns)
                if self._on_wake is not None:
                    self._on_wake(self._now)
            return None
        if body == "quiescent":
            if frame.quiescent.block != self._block:
                return None
            if self._waiting:
                self._quiescent = True
                self._notify()
            elif self._on_message is not None and self._on_quiescent is not None:
                self._on_quiescent()
            return None
        if body != "deliveries":
            return None
        received = time.monotonic_ns()
        fresh = []
        deliveries = frame.deliveries.deliveries
        upto = max((d.delivery_seq for d in deliveries), default=0)
        for d in deliveries:
            if self._acks.take(d.delivery_seq) and (
                    not self._remember_ids or self._received_ids.insert(d.id)):
                fresh.append(d)
        by_key = [d for d in fresh if d.by_key]
        if by_key:
            return self._take_by_key(fresh, by_key, received, upto)
        self._hand_over(fresh, {}, received, upto)
        return None

    async def _take_by_key(self, fresh, by_key, received, upto):
        if self._store is None:
            values = [errors.FailedPrecondition("delivered by key, but Welcome named no "
                                                "payload store (or payload_by_key is off)")] * len(by_key)
        else:
            values = await self._store.take([self._key_prefix + str(d.id) for d in by_key])
        self._hand_over(fresh, {d.id: v for d, v in zip(by_key, values)}, received, upto)

    def _hand_over(self, fresh, taken, received, upto):
        """To the callback or the inbox; then the batch's Ack is scheduled."""
        for d in fresh:
            payload = d.payload
            if d.by_key:
                payload = taken[d.id]
                if isinstance(payload, Exception):
                    self._report_error(type(payload)(
                        f"message #{d.id} from '{d.src}' ({d.size} bytes by key) is lost: {payload}",
                        d.id))
                    continue
            s = d.stamps
            lost = d.status == pb.LOST_IN_STORE
            m = Message(d.id, d.src, d.dst, payload, d.t_send, d.t_deliver, d.tclass,
                        dropped=lost or d.status == pb.DROPPED, lost_in_store=lost,
                        stamps=Stamps(s.app_sent, s.daemon_accepted, s.sim_handed, s.sim_posted,
                                      s.daemon_delivered, received))
            if self._on_message is not None:
                self._now = max(self._now, m.t_deliver)
                self._await_pending = False  # running again, until the next await_next
                self._on_message(m)
            else:
                self._inbox.append(m)
                self._inbox_bytes += len(payload)
        if upto:
            self._acks.schedule(upto)
        if self.connected and (len(self._inbox) >= self._options.max_buffered_messages or
                               self._inbox_bytes >= self._options.max_buffered_bytes):
            self._session.pause_recv()
        self._notify()
        self._keep_pulling()
