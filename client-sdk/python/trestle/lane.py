"""Lane: one session's share of a multiplexed connection (ClientOptions.
multiplex; docs/protocol.md, "Lanes"): the frames of a LaneLink that carry
Frame.lane = its number. To its Session it is the session's shared
connection, used as a FrameProtocol of its own would be (write,
buffered_bytes, drain, pause_reading, resume_reading, abort, `closed`,
max_bytes, on_frame / on_lost / on_data):

  - write tags each frame with the lane and queues it on the link: the frames
    of every lane leave together, once per loop pass.
  - The daemon's Bye on the lane ends it (on_lost, `closed` done), as the
    daemon closing a connection of its own would; the link lost ends every
    lane alike.
  - abort ends the lane: the link says Bye on it unless the daemon ended it,
    and drops the frames that still come for it. A lane is never opened
    again (a new session gets a new one).
  - Backpressure is the link's: pausing a lane pauses reading the whole
    connection until every lane that paused it resumes; buffered_bytes and
    drain are the connection's; max_bytes raises the connection's limit.

Made by its LaneLink (open_lane), which holds it until it is aborted. Loop
thread only.
"""
import asyncio

from trestle.errors import Unavailable
from trestle.frame_codec import lane_tag
from trestle.wire import pb


class Lane:
    def __init__(self, link, number: int):
        self.number = number
        self.tag = lane_tag(number)  # appended to each frame's encoding
        self.on_frame = lambda frame: None
        self.on_lost = lambda error: None
        self.on_data = lambda: None
        self.closed = asyncio.get_running_loop().create_future()
        self._link = link
        self._paused = False
        self._ended = False    # by the daemon's Bye, or the link lost
        self._aborted = False  # by its session

    @property
    def ended_by_peer(self) -> bool:
        return self._ended

    # ---- from the link ----
    def deliver(self, frame: "pb.Frame") -> None:
        """A frame of this lane, from the link's read callback."""
        if frame.HasField("bye"):
            self.end(Unavailable(f"lane {self.number}: the daemon ended the session "
                                 "(Bye on its lane)"))
            return
        self.on_data()
        self.on_frame(frame)

    def end(self, error: Exception) -> None:
        """The daemon ended the lane, or the link is lost; `error` says which."""
        if self._ended:
            return
        self._ended = True
        if not self.closed.done():
            self.closed.set_result(None)
        if not self._aborted:
            self.on_lost(error)

    # ---- what a Session does with one channel's connection ----
    def write(self, frame: "pb.Frame") -> None:
        """Queues `frame` on the link, tagged with the lane; ignored once aborted."""
        if not self._aborted:
            self._link.write(frame, self.tag)

    def buffered_bytes(self) -> int:
        return self._link.buffered_bytes()

    async def drain(self) -> None:
        await self._link.drain()

    @property
    def max_bytes(self) -> int:
        return self._link.max_bytes

    @max_bytes.setter
    def max_bytes(self, limit: int) -> None:
        self._link.raise_max_bytes(limit)

    def pause_reading(self) -> None:
        if self._paused or self._aborted:
            return
        self._paused = True
        self._link.pause_lane()

    def resume_reading(self) -> None:
        if not self._paused:
            return
        self._paused = False
        self._link.resume_lane()

    def abort(self) -> None:
        """Ends the lane (Bye, unless the daemon ended it); no more callbacks."""
        if self._aborted:
            return
        self.resume_reading()
        self._aborted = True
        if not self.closed.done():
            self.closed.set_result(None)
        self._link.close_lane(self)
