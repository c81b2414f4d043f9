"""AsyncClient: what AsyncAppClient and AsyncSimClient share (the C++
trestle::Client): connecting, resuming, ping, statistics, asynchronous
errors, and the orderly (close) or abrupt (disconnect) end of a session.

Every method runs on the asyncio loop that called connect(). Errors are the
exceptions of trestle.errors; asynchronous ones (a send the daemon rejected,
the loss of the session) go to the on_error callback.
"""
import asyncio
from typing import Callable, Optional

from trestle import errors
from trestle.options import ClientOptions, DeliveryMode
from trestle.session import PROTOCOL_VERSION, Session
from trestle.wire import pb


class AsyncClient:
    def __init__(self, options: ClientOptions, role: int):
        if not options.client_id or len(options.client_id.encode()) > 255:
            raise errors.InvalidArgument(
                f"client_id must be 1 to 255 bytes; '{options.client_id}' has "
                f"{len(options.client_id.encode())}")
        self._options = options
        self._role = role
        self._session: Optional[Session] = None
        self._session_token = ""
        self._on_error: Optional[Callable[[Exception], None]] = None
        self._changed: Optional[asyncio.Event] = None  # set when there is news for a waiter

    # ---- the session ----
    async def connect(self) -> None:
        """Opens a session (again, after one ended; with options.resume_token
        to resume a lost one). Raises the daemon's refusal (AlreadyExists,
        Unauthenticated, FailedPrecondition for a time-mode mismatch, ...),
        Unavailable (daemon down) or DeadlineExceeded."""
        if self._session is not None and self._session.ready:
            raise errors.FailedPrecondition(f"'{self.client_id}' is already connected")
        if self._changed is None:
            self._changed = asyncio.Event()
        hello = pb.Hello(protocol_version=PROTOCOL_VERSION, role=self._role,
                         client_id=self._options.client_id, auth_token=self._options.auth_token,
                         mode=pb.PULL if self._options.mode == DeliveryMode.PULL else pb.PUSH,
                         resume_token=self._options.resume_token,
                         shared_connection=(self._options.shared_connection
                                            or self._options.multiplex),
                         lockstep=self._options.lockstep)
        self._fill_hello(hello)
        await Session(self._options, self).open(hello)
        self._notify()

    def on_session_ready(self, session: Session, welcome: "pb.Welcome") -> None:
        """The new session's channels are attached; no frame is read yet."""
        self._session = session
        self._session_token = welcome.session_token
        self._handle_ready(welcome)

    async def close(self, timeout: float = 1.0) -> None:
        """Flushes, says Bye and waits (up to `timeout` s) for the daemon to
        close; the session cannot be resumed. DeadlineExceeded if it did not."""
        if self._session is None or not self._session.ready:
            return
        await self._handle_closing()
        if not await self._session.close(timeout):
            raise errors.DeadlineExceeded(f"the daemon did not close within {timeout} s of Bye")
        self._notify()

    def disconnect(self) -> None:
        """Drops the connections without Bye, as a crash would: the daemon
        keeps the session for its session_linger_ms, resumable with
        session_token. A multiplexed client (options.multiplex) cannot drop
        its lane alone: its lane ends with Bye, and so does its session."""
        if self._session is not None:
            self._session.disconnect()
            self._notify()

    async def ping(self, timeout: float = 1.0) -> int:
        """Round trip Ping -> Pong on ctrl; the RTT in ns."""
        return await self._ready_session().ping(timeout)

    async def stats(self, timeout: float = 1.0) -> "pb.StatsReply":
        """The daemon's counters: totals and every client, page by page."""
        session = self._ready_session()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        reply = await session.stats_page(0, timeout)
        while reply.next_client != 0:
            page = await session.stats_page(reply.next_client, max(0.0, deadline - loop.time()))
            reply.clients.extend(page.clients)
            reply.next_client = page.next_client
        return reply

    def on_error(self, callback: Optional[Callable[[Exception], None]]) -> None:
        """Receiver of asynchronous errors (a rejected send names its id)."""
        self._on_error = callback

    @property
    def connected(self) -> bool:
        return self._session is not None and self._session.ready

    @property
    def client_id(self) -> str:
        return self._options.client_id

    @property
    def options(self) -> ClientOptions:
        return self._options

    @property
    def session_token(self) -> str:
        """Valid after connect; kept after the session ends, for resume."""
        return self._session_token

    def set_resume_token(self, token: str) -> None:
        """Sets options.resume_token for the next connect()."""
        self._options.resume_token = token

    @property
    def resumed(self) -> bool:
        return self._session is not None and self._session.welcome.resumed

    @property
    def daemon_config(self) -> "pb.EffectiveConfig":
        return self._session.welcome.config if self._session else pb.EffectiveConfig()

    @property
    def simulators(self) -> list:
        """APP: the simulators connected to the daemon when it welcomed this
        session, each a pb.SimulatorInfo with what it declared
        (Welcome.simulators; empty before connect, or when none was)."""
        return list(self._session.welcome.simulators) if self._session else []

    # ---- for the subclasses ----
    def _fill_hello(self, hello: "pb.Hello") -> None:
        """Role-specific Hello fields."""

    def _handle_ready(self, welcome: "pb.Welcome") -> None:
        """The session is ready; `welcome` is the daemon's Welcome."""

    async def _handle_closing(self) -> None:
        """close() is about to say Bye: write what is still buffered."""

    def on_recv_frame(self, frame: "pb.Frame"):
        """A recv frame; may return an awaitable that finishes its work (the
        session holds the recv frames behind it until then)."""
        raise NotImplementedError

    def on_channel_error(self, channel: str, error: "pb.Error") -> None:
        self._report_error(errors.from_wire(error, f"{channel} channel"))

    def on_lost(self, error: Exception) -> None:
        self._report_error(error)
        self._notify()

    def _report_error(self, error: Exception) -> None:
        if self._on_error is not None:
            self._on_error(error)

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()

    def _ready_session(self) -> Session:
        if self._session is None:
            raise errors.FailedPrecondition(f"'{self.client_id}' is not connected")
        if not self._session.ready:
            raise self._session.end_error
        return self._session

    async def _wait_for(self, have: Callable[[], bool], timeout: float, what: str,
                        pull_batch: int = 0, fetch: bool = False) -> None:
        """Waits until have() holds, the session ends (its error), or
        `timeout` s pass (DeadlineExceeded naming `what`). PULL mode keeps one
        long-poll of `pull_batch` for the time left outstanding."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not have():
            session = self._ready_session()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise errors.DeadlineExceeded(f"no {what} within {timeout} s")
            if pull_batch and session.pulls_outstanding == 0:
                session.write_pull(pull_batch, int(remaining * 1000), fetch)
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass
