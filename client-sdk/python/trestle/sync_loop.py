"""SyncLoop: the private asyncio loop of a blocking client (AppClient,
SimClient). Like the C++ SDK's private EventLoop, it runs only inside a
blocking call, so PUSH data is read while the app waits in one."""
import asyncio
from typing import Callable, Optional


class SyncLoop:
    def __init__(self):
        self._loop = asyncio.new_event_loop()

    def run(self, coroutine):
        """Runs `coroutine` to its end on this loop and returns its result."""
        return self._loop.run_until_complete(coroutine)

    def run_until(self, done: Optional[Callable[[], bool]], timeout: Optional[float],
                  changed: Callable[[], Optional[asyncio.Event]]) -> bool:
        """Runs the loop (callbacks included) until done() holds or `timeout`
        s pass (None: no bound); whether done() held. `changed` gives the
        client's news event, set whenever something happens."""
        async def wait():
            deadline = None if timeout is None else self._loop.time() + timeout
            while done is None or not done():
                remaining = None if deadline is None else deadline - self._loop.time()
                if remaining is not None and remaining <= 0:
                    return False
                event = changed()
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), min(remaining or 0.05, 0.05))
                except asyncio.TimeoutError:
                    pass
            return True
        return self.run(wait())

    def close(self) -> None:
        if not self._loop.is_closed():
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()
