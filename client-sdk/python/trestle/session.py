"""Session: one client's connections to the daemon (ctrl, send, recv, or one
shared connection, or a lane of the loop's multiplexed connection: options.
multiplex, trestle.lane_link), its handshake, the hand-over of frames to the
client, keepalive, and the orderly or abrupt end.

Everything runs on one asyncio event loop. Frames are handed over on the
loop's read callback as they are decoded; a recv frame whose handling must
wait (a payload by key taken from Redis) holds back the recv frames after
it, so the client sees them in order. Writes go to the transport at once (a
lane's: at the end of the loop pass, with the other lanes'); `drain` waits
while its buffer is over the high-water mark.
"""
import asyncio
import collections
import time

from trestle import errors
from trestle.address import open_connection
from trestle.frame_codec import DEFAULT_MAX_FRAME_BYTES
from trestle.lane_link import open_lane
from trestle.wire import pb

PROTOCOL_VERSION = 1
# Frames of the recv channel (in a shared connection too): handed to the client.
_RECV_FRAMES = frozenset(("deliveries", "transits", "grant", "wake", "quiescent"))


class Session:
    """`handler` gets: on_session_ready(session, welcome) once the channels
    are attached, before any later frame; on_recv_frame(frame), which may
    return an awaitable to finish its work; on_channel_error(channel, error)
    (on a shared connection the channel is "send" for an Error with a ref_id,
    "ctrl" otherwise, as in C++); on_lost(exc). One Session per connect."""

    def __init__(self, options, handler):
        self._options = options
        self._handler = handler
        self._channels = {}      # channel name -> FrameProtocol
        self._tasks = []
        self._ready = False
        self._closing = False
        self.end_error = None    # why the session ended (an exception)
        self.welcome = None
        self.pulls_outstanding = 0
        self._last_heard = time.monotonic()
        self._next_nonce = 1
        self._pings = {}         # nonce -> Future of the Pong
        self._stats = collections.deque()  # Futures of StatsReply, oldest first
        self._held = collections.deque()   # recv frames behind one being finished
        self._finishing = False

    @property
    def ready(self) -> bool:
        return self._ready

    async def open(self, hello: "pb.Hello") -> "pb.Welcome":
        """Connects and says Hello (then Attach, unless shared). Raises the
        mapped daemon Error, Unavailable, or DeadlineExceeded."""
        try:
            return await asyncio.wait_for(self._handshake(hello), self._options.connect_timeout)
        except asyncio.TimeoutError:
            self._abort()
            raise errors.DeadlineExceeded(
                f"handshake with the daemon at {self._options.daemon} took over "
                f"{self._options.connect_timeout} s (connect_timeout)") from None
        except BaseException:
            self._abort()
            raise

    async def _handshake(self, hello):
        frame = pb.Frame()
        frame.hello.CopyFrom(hello)
        ctrl, ctrl_frames = await self._connect_channel("ctrl", frame)
        answer = await self._first_frame(ctrl, ctrl_frames)
        if answer.HasField("error"):
            raise errors.from_wire(answer.error, f"the daemon refused Hello of '{hello.client_id}'")
        if not answer.HasField("welcome"):
            raise errors.Unavailable(f"ctrl channel: expected Welcome, got {answer.WhichOneof('body')}")
        self.welcome = answer.welcome
        early = {"ctrl": ctrl_frames}  # frames that came right behind the answers
        if not hello.shared_connection:
            for name, channel in (("send", pb.CHANNEL_SEND), ("recv", pb.CHANNEL_RECV)):
                attach = pb.Frame()
                attach.attach.session_token = self.welcome.session_token
                attach.attach.channel = channel
                attach.attach.auth_token = self._options.auth_token
                protocol, frames = await self._connect_channel(name, attach)
                answer = await self._first_frame(protocol, frames)
                if answer.HasField("error"):
                    raise errors.from_wire(answer.error, f"the daemon refused Attach of {name}")
                if not answer.HasField("attached"):
                    raise errors.Unavailable(f"{name} channel: expected Attached, got "
                                             f"{answer.WhichOneof('body')}")
                early[name] = frames
        else:
            self._channels["send"] = self._channels["recv"] = ctrl
        limit = (self._options.max_frame_bytes or self.welcome.config.max_frame_bytes
                 or DEFAULT_MAX_FRAME_BYTES)
        self._ready = True
        self._last_heard = time.monotonic()
        self._handler.on_session_ready(self, self.welcome)
        for name, frames in early.items():
            protocol = self._channels[name]
            protocol.max_bytes = limit
            protocol.on_frame = lambda f, name=name: self._dispatch(name, f)
            protocol.on_lost = self._lose
            while frames and self._ready:
                self._dispatch(name, frames.popleft())
        if self._options.keepalive_interval > 0:
            self._tasks.append(asyncio.ensure_future(self._keepalive()))
        return self.welcome

    async def _connect_channel(self, name, first_frame):
        if self._options.multiplex:
            protocol = await open_lane(self._options.daemon)
        else:
            protocol = await open_connection(self._options.daemon, f"{name} channel")
        self._channels[name] = protocol
        frames = collections.deque()
        arrived = asyncio.Event()
        lost = []

        def take(frame):
            frames.append(frame)
            arrived.set()

        def end(error):
            lost.append(error)
            arrived.set()
        protocol.on_frame, protocol.on_lost = take, end
        protocol.handshake = (frames, arrived, lost)
        protocol.on_data = self._heard
        protocol.write(first_frame)
        return protocol, frames

    @staticmethod
    async def _first_frame(protocol, frames):
        _, arrived, lost = protocol.handshake
        while not frames:
            if lost:
                raise lost[0]
            arrived.clear()
            await arrived.wait()
        return frames.popleft()

    def _heard(self):
        self._last_heard = time.monotonic()

    def write(self, channel: str, frame: "pb.Frame") -> None:
        """Queues `frame` on `channel` ("ctrl", "send" or "recv")."""
        if not self._ready:
            raise self.end_error or errors.FailedPrecondition("not connected")
        self._channels[channel].write(frame)

    def write_pull(self, max_count: int, timeout_ms: int, fetch: bool) -> None:
        """A Receive (APP) or Fetch (SIM) long-poll on the recv channel."""
        frame = pb.Frame()
        poll = frame.fetch if fetch else frame.receive
        poll.max_count = max_count
        poll.timeout_ms = min(timeout_ms, 2**32 - 1)
        self.write("recv", frame)
        self.pulls_outstanding += 1

    def buffered_bytes(self, channel: str) -> int:
        protocol = self._channels.get(channel)
        return protocol.buffered_bytes() if protocol else 0

    async def drain(self, channel: str) -> None:
        if not self._ready:
            raise self.end_error or errors.FailedPrecondition("not connected")
        await self._channels[channel].drain()

    def pause_recv(self) -> None:
        self._channels["recv"].pause_reading()

    def resume_recv(self) -> None:
        protocol = self._channels.get("recv")
        if self._ready and protocol is not None:
            protocol.resume_reading()

    async def ping(self, timeout: float) -> int:
        nonce = self._next_nonce
        self._next_nonce += 1
        future = asyncio.get_running_loop().create_future()
        self._pings[nonce] = future
        frame = pb.Frame()
        frame.ping.nonce = nonce
        start = time.monotonic_ns()
        self.write("ctrl", frame)
        try:
            await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise errors.DeadlineExceeded(f"no Pong within {timeout} s") from None
        finally:
            self._pings.pop(nonce, None)
        return time.monotonic_ns() - start

    async def stats_page(self, first_client: int, timeout: float) -> "pb.StatsReply":
        future = asyncio.get_running_loop().create_future()
        self._stats.append(future)
        frame = pb.Frame()
        frame.stats_request.first_client = first_client
        self.write("ctrl", frame)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except asyncio.TimeoutError:
            raise errors.DeadlineExceeded(f"no StatsReply within {timeout} s") from None

    def _dispatch(self, channel, frame):
        body = frame.WhichOneof("body")
        if body in _RECV_FRAMES:
            if body in ("deliveries", "transits") and self.pulls_outstanding > 0:
                self.pulls_outstanding -= 1
            if self._finishing:
                self._held.append(frame)
                return
            pending = self._handler.on_recv_frame(frame)
            if pending is not None:
                self._finishing = True
                self._tasks.append(asyncio.ensure_future(self._finish(pending)))
        elif body == "pong":
            future = self._pings.get(frame.pong.nonce)
            if future is not None and not future.done():
                future.set_result(frame.pong)
        elif body == "stats_reply":
            if self._stats:
                future = self._stats.popleft()
                if not future.done():
                    future.set_result(frame.stats_reply)
        elif body == "error":
            # On a shared connection an Error with a ref_id refuses that Send
            # or Outcome (the send channel's); one without is the session's.
            if channel == "ctrl" and frame.error.ref_id != 0 and \
                    self._channels.get("send") is self._channels.get("ctrl"):
                channel = "send"
            self._handler.on_channel_error(channel, frame.error)
        # Bye: the daemon closes next; on_lost then sees the end.

    async def _finish(self, pending):
        """Finishes a recv frame's work, then hands over the frames held behind it."""
        try:
            await pending
            while self._held and self._ready:
                pending = self._handler.on_recv_frame(self._held.popleft())
                if pending is not None:
                    await pending
        except asyncio.CancelledError:
            pass
        finally:
            self._finishing = False

    async def _keepalive(self):
        interval = self._options.keepalive_interval
        limit = self._options.keepalive_timeout
        try:
            while self._ready:
                await asyncio.sleep(interval / 2)
                idle = time.monotonic() - self._last_heard
                if limit > 0 and idle > limit:
                    self._lose(errors.Unavailable(
                        f"nothing heard from the daemon for {idle:.1f} s (keepalive_timeout {limit} s)"))
                elif idle >= interval and self._ready:
                    frame = pb.Frame()
                    frame.ping.nonce = 0
                    self.write("ctrl", frame)
        except asyncio.CancelledError:
            pass

    def _lose(self, error):
        if not self._ready:
            return
        self._ready = False
        self.end_error = error
        self._abort()
        if not self._closing:
            self._handler.on_lost(error)

    def _abort(self):
        try:
            current = asyncio.current_task()
        except RuntimeError:
            current = None
        for task in self._tasks:
            if task is not current:
                task.cancel()
        for protocol in set(self._channels.values()):
            protocol.abort()
        for future in list(self._pings.values()) + list(self._stats):
            if not future.done():
                future.set_exception(self.end_error or errors.Unavailable("session ended"))
        self._stats.clear()

    async def close(self, timeout: float) -> bool:
        """Bye, then waits for the daemon to close. True if it did in time."""
        if not self._ready:
            return True
        self._closing = True
        frame = pb.Frame()
        frame.bye.SetInParent()
        self.write("ctrl", frame)
        closed = [p.closed for p in set(self._channels.values())]
        done, _ = await asyncio.wait(closed, timeout=timeout)
        in_time = len(done) == len(closed)
        if self._ready:
            self._ready = False
            self.end_error = errors.FailedPrecondition("the session was closed")
            self._abort()
        return in_time

    def disconnect(self) -> None:
        """Drops the connections without Bye, as a crash would."""
        self._closing = True
        if self._ready:
            self._ready = False
            self.end_error = errors.Unavailable("disconnected by the client")
            self._abort()
