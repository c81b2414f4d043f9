"""LaneLink: one connection to a daemon that carries the sessions of many
clients of one asyncio loop, a lane each (ClientOptions.multiplex;
docs/protocol.md, "Lanes"). A Session in multiplex mode opens its shared
connection as a lane of the link for its loop and daemon address
(open_lane), and the link hands each lane the frames tagged with its number.
The frames of all lanes leave in one write per loop pass, and one read takes
in what came for all of them: that, not a socket each, is what lets
thousands of clients in one process cost the daemon little per message.

  - open_lane(address) finds the loop's link to `address`, or starts
    connecting a new one, and gives the caller a Lane once it is connected
    (Unavailable or InvalidArgument, as a connection of its own, if not).
  - A lane that ends (Lane.abort) says Bye on its lane unless the daemon
    ended it; frames that still come for it, or for lane 0, are dropped.
  - The connection lost (EOF, a reset, a frame over the limit or that does
    not parse) ends every lane: each hears on_lost, and later clients of
    that address get a new link.
  - Backpressure is the connection's: reading pauses while any lane has
    paused it; the output buffer (buffered_bytes, drain) is shared.
  - The link closes its connection once its last lane has ended (what is
    queued, the last Byes, is written first). A link that has numbered
    MAX_LANES_PER_CONNECTION lanes takes no more (the daemon's bound): later
    clients get a new link.

Loop thread only.
"""
import asyncio
import weakref
from typing import Dict, Optional

from trestle.address import open_connection
from trestle.frame_codec import DEFAULT_MAX_FRAME_BYTES, append_frame
from trestle.lane import Lane
from trestle.wire import pb

# wire::kMaxLanesPerConnection: lanes one connection may carry over its life.
MAX_LANES_PER_CONNECTION = 65536

# Each loop's links, by daemon address; a link is in it from its creation
# until it starts to end (or has numbered its last lane).
_links: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Dict[str, LaneLink]]" = \
    weakref.WeakKeyDictionary()


async def open_lane(address: str) -> Lane:
    """A new lane of the running loop's link to the daemon at `address`."""
    loop = asyncio.get_running_loop()
    links = _links.setdefault(loop, {})
    link = links.get(address)
    if link is None:
        link = links[address] = LaneLink(loop, address)
    return await link.open_lane()


class LaneLink:
    def __init__(self, loop: asyncio.AbstractEventLoop, address: str):
        self._loop = loop
        self._address = address
        self._protocol = None    # FrameProtocol, once connected
        self._lanes: Dict[int, Lane] = {}
        self._next_lane = 1
        self._opening = 0        # open_lane calls waiting for the connection
        self._pausing = 0        # lanes that paused reading
        self._pending = bytearray()  # frames written this loop pass
        self._flush_scheduled = False
        self._failed: Optional[Exception] = None
        self._closing = False
        self.max_bytes = DEFAULT_MAX_FRAME_BYTES
        self._connecting = loop.create_task(self._connect())
        # Its error goes to the open_lane calls; none may be left to take it.
        self._connecting.add_done_callback(lambda t: t.cancelled() or t.exception())

    @property
    def lane_count(self) -> int:
        return len(self._lanes)

    async def _connect(self) -> None:
        try:
            protocol = await open_connection(self._address, "multiplexed connection")
        except Exception as e:
            self._failed = e
            self._forget()
            raise
        protocol.on_frame = self._on_frame
        protocol.on_lost = self._lose
        protocol.max_bytes = self.max_bytes
        self._protocol = protocol
        self._close_if_idle()  # every open_lane gave up meanwhile

    async def open_lane(self) -> Lane:
        self._opening += 1
        try:
            await asyncio.shield(self._connecting)
        except BaseException:  # the connect failed, or this caller gave up
            self._opening -= 1
            self._close_if_idle()
            raise
        self._opening -= 1
        if self._failed is not None:
            self._close_if_idle()
            raise self._failed
        lane = Lane(self, self._next_lane)
        self._lanes[lane.number] = lane
        self._next_lane += 1
        if self._next_lane > MAX_LANES_PER_CONNECTION:
            self._forget()
        return lane

    def _forget(self) -> None:
        links = _links.get(self._loop)
        if links is not None and links.get(self._address) is self:
            del links[self._address]

    # ---- from the lanes ----
    def write(self, frame: "pb.Frame", tag: bytes) -> None:
        """Queues `frame` tagged `tag`; the pass's frames leave together, at
        its end. Between the calls of a blocking client, whose loop runs
        only inside them, it leaves at once."""
        if self._failed is not None or self._closing:
            return
        append_frame(self._pending, frame, tag)
        if not self._loop.is_running():
            self._write_pending()
        elif not self._flush_scheduled:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        self._write_pending()

    def _write_pending(self) -> None:
        if not self._pending or self._failed is not None:
            return
        # The transport may keep the object it is handed: it gets this one
        # for good.
        data, self._pending = self._pending, bytearray()
        self._protocol.transport.write(data)

    def buffered_bytes(self) -> int:
        return len(self._pending) + (self._protocol.buffered_bytes() if self._protocol else 0)

    async def drain(self) -> None:
        self._flush()
        await self._protocol.drain()

    def raise_max_bytes(self, limit: int) -> None:
        """A lane accepts frames of up to `limit` bytes: so does the connection."""
        if limit > self.max_bytes:
            self.max_bytes = limit
            if self._protocol is not None:
                self._protocol.max_bytes = limit

    def pause_lane(self) -> None:
        self._pausing += 1
        if self._pausing == 1:
            self._protocol.pause_reading()

    def resume_lane(self) -> None:
        if self._pausing > 0:
            self._pausing -= 1
            if self._pausing == 0:
                self._protocol.resume_reading()

    def close_lane(self, lane: Lane) -> None:
        if self._lanes.get(lane.number) is not lane:
            return
        if not lane.ended_by_peer:
            bye = pb.Frame()
            bye.bye.SetInParent()
            self.write(bye, lane.tag)
        del self._lanes[lane.number]
        self._close_if_idle()

    def _close_if_idle(self) -> None:
        if self._lanes or self._opening or self._closing or self._protocol is None:
            return
        self._closing = True
        self._forget()
        self._flush()  # the last Byes
        self._protocol.transport.close()

    # ---- from the connection ----
    def _on_frame(self, frame: "pb.Frame") -> None:
        lane = self._lanes.get(frame.lane)
        if lane is not None:
            lane.deliver(frame)

    def _lose(self, error: Exception) -> None:
        """The connection is gone: every lane ends, with `error`."""
        if self._failed is not None:
            return
        self._failed = error
        self._forget()
        self._pending = bytearray()
        for lane in list(self._lanes.values()):
            lane.end(error)
