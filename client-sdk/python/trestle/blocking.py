"""AppClient and SimClient: blocking wrappers of AsyncAppClient and
AsyncSimClient, each on a private loop (SyncLoop) that runs inside its calls.

    app = AppClient(ClientOptions(client_id="a"))
    app.connect()
    app.send("b", b"hello")
    m = app.receive(timeout=1.0)
    app.close()

Every method of the async client is available: coroutines run to their end,
the rest (now, advance, post, on_message, ...) pass through. Callbacks run
inside blocking calls, such as run_until().
"""
import asyncio
from typing import Callable, Optional

from trestle.app_client import AsyncAppClient
from trestle.options import ClientOptions
from trestle.sim_client import AsyncSimClient
from trestle.sync_loop import SyncLoop


class _Blocking:
    _async_class = None

    def __init__(self, options: ClientOptions):
        self._sync = SyncLoop()
        self._client = self._sync.run(self._make(options))

    async def _make(self, options):
        return self._async_class(options)

    @property
    def aio(self):
        """The asyncio client underneath (run only on this wrapper's loop)."""
        return self._client

    def run_until(self, done: Optional[Callable[[], bool]] = None,
                  timeout: Optional[float] = None) -> bool:
        """Runs the loop, so callbacks fire, until done() (or the session
        ends, with done None) or `timeout` s; whether it ended by done()."""
        client = self._client
        condition = done if done is not None else (lambda: not client.connected)
        return self._sync.run_until(condition, timeout, lambda: client._changed or asyncio.Event())

    def __getattr__(self, name):
        attr = getattr(self._client, name)
        if not callable(attr) or not asyncio.iscoroutinefunction(attr):
            return attr
        return lambda *args, **kwargs: self._sync.run(attr(*args, **kwargs))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def shutdown(self) -> None:
        """Closes the session (best effort) and the private loop."""
        if self._client.connected:
            try:
                self._sync.run(self._client.close(1.0))
            except Exception:
                self._client.disconnect()
        self._sync.close()


class AppClient(_Blocking):
    """Blocking AsyncAppClient."""
    _async_class = AsyncAppClient

    @property
    def now(self) -> int:
        return self._client.now


class SimClient(_Blocking):
    """Blocking AsyncSimClient."""
    _async_class = AsyncSimClient

    @property
    def granted_until(self) -> int:
        return self._client.granted_until
