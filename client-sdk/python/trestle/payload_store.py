"""PayloadStore: the SDK's connection to the daemon's Redis store for
payloads by key (docs/protocol.md, "Payloads by key"): SET ... PX at the
sender, GETDEL (one pipelined round trip per batch) at the receiver."""
import asyncio
import time
from typing import List, Union

import redis.asyncio as aioredis
import redis.exceptions

from trestle.errors import NotFound, Unavailable

# After a failed connect, sends by key fail at once for this long.
RETRY_AFTER_FAILURE_S = 0.25


class PayloadStore:
    def __init__(self, url: str, timeout: float):
        self.url = url
        self._timeout = timeout
        self._redis = aioredis.from_url(url, socket_timeout=timeout,
                                        socket_connect_timeout=timeout)
        self._failed_at = None

    def _unavailable(self, e: Exception) -> Unavailable:
        self._failed_at = time.monotonic()
        return Unavailable(f"payload store {self.url} cannot be reached: {e}")

    async def put(self, key: str, payload: bytes, ttl_ms: int) -> None:
        """Raises Unavailable naming the URL when Redis cannot be reached."""
        if self._failed_at is not None and time.monotonic() - self._failed_at < RETRY_AFTER_FAILURE_S:
            raise Unavailable(f"payload store {self.url} cannot be reached (it failed less than "
                              f"{int(RETRY_AFTER_FAILURE_S * 1000)} ms ago)")
        try:
            await asyncio.wait_for(self._redis.set(key, payload, px=ttl_ms), self._timeout)
        except (redis.exceptions.RedisError, OSError, asyncio.TimeoutError) as e:
            raise self._unavailable(e) from e
        self._failed_at = None

    async def take(self, keys: List[str]) -> List[Union[bytes, Exception]]:
        """Each key's payload (deleted from Redis), or NotFound / Unavailable."""
        try:
            pipe = self._redis.pipeline(transaction=False)
            for key in keys:
                pipe.getdel(key)
            values = await asyncio.wait_for(pipe.execute(), self._timeout)
        except (redis.exceptions.RedisError, OSError, asyncio.TimeoutError) as e:
            error = self._unavailable(e)
            return [error] * len(keys)
        return [v if v is not None else NotFound(f"key '{k}' is not in the payload store "
                                                 f"{self.url} (taken already, or expired)")
                for k, v in zip(keys, values)]

    async def close(self) -> None:
        await self._redis.close()
