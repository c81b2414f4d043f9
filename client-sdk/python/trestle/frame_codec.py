"""Frames on a Trestle connection: a 4-byte big-endian length, then one
serialized trestle.wire.Frame (docs/protocol.md, "Frames").

The only hand-written parts of the wire format are this length prefix and,
on a multiplexed connection, the lane tag appended to a frame's encoding
(lane_tag). FrameProtocol decodes incrementally, as bytes arrive (a frame
split over reads, or many in one), and hands each frame to its owner at
once, on the loop's read callback: no task switch per frame.

FrameProtocol is also what a Session holds for each of its channels: write,
buffered_bytes, drain, pause_reading / resume_reading, abort and the
`closed` future. A lane of a multiplexed connection (trestle.lane.Lane)
offers the same.
"""
import asyncio
import struct
from typing import Callable

from trestle.errors import Unavailable
from trestle.wire import pb

HEADER = struct.Struct(">I")
# wire::kDefaultMaxFrameBytes: the limit before Welcome announces one.
DEFAULT_MAX_FRAME_BYTES = 16 << 20


# Frame.lane's field number (proto/trestle.proto).
LANE_FIELD = 30


def encode(frame: "pb.Frame") -> bytes:
    """The length-prefixed bytes of `frame`."""
    body = frame.SerializeToString()
    return HEADER.pack(len(body)) + body


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def lane_tag(lane: int) -> bytes:
    """Frame.lane = `lane` as protobuf encodes it: appended to a frame's
    encoding, it tags the frame with its lane without copying or changing
    the message (a field after the others parses as if in its place)."""
    return _varint(LANE_FIELD << 3) + _varint(lane)


def append_frame(out: bytearray, frame: "pb.Frame", tag: bytes = b"") -> None:
    """Appends the length-prefixed bytes of `frame`, tagged with `tag`
    (lane_tag; empty: no lane), to `out`."""
    body = frame.SerializeToString()
    out += HEADER.pack(len(body) + len(tag))
    out += body
    out += tag


class FrameProtocol(asyncio.Protocol):
    """One connection: frames to on_frame(frame), the end to on_lost(error)
    (an Unavailable naming `name`, e.g. "ctrl channel"), and every read to
    on_data(). Refuses a frame over `max_bytes` before buffering its body."""

    def __init__(self, name: str):
        self.name = name
        self.max_bytes = DEFAULT_MAX_FRAME_BYTES
        self.on_frame: Callable[["pb.Frame"], None] = lambda frame: None
        self.on_lost: Callable[[Exception], None] = lambda error: None
        self.on_data: Callable[[], None] = lambda: None
        self.transport = None
        self.closed = asyncio.get_running_loop().create_future()
        self._buffer = bytearray()
        self._write_paused = False
        self._drained = None  # Future while writing is paused

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        self.on_data()
        buffer = self._buffer
        buffer += data
        start = 0
        while len(buffer) - start >= HEADER.size:
            (length,) = HEADER.unpack_from(buffer, start)
            if length > self.max_bytes:
                return self._fail(f"the daemon sent a frame of {length} bytes, over this "
                                  f"client's limit of {self.max_bytes} bytes")
            end = start + HEADER.size + length
            if len(buffer) < end:
                break
            frame = pb.Frame()
            try:
                frame.ParseFromString(bytes(buffer[start + HEADER.size:end]))
            except Exception:  # protobuf's DecodeError
                return self._fail(f"a frame of {length} bytes from the daemon does not parse "
                                  "as trestle.wire.Frame")
            start = end
            self.on_frame(frame)
            if self.transport is None or self.transport.is_closing():
                return
        del buffer[:start]

    def _fail(self, text):
        self.on_lost(Unavailable(f"{self.name}: {text}"))
        if self.transport is not None:
            self.transport.abort()

    def connection_lost(self, exc):
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)
        if not self.closed.done():
            self.closed.set_result(None)
        self.on_lost(Unavailable(f"{self.name}: the daemon closed the connection"))

    def pause_writing(self):
        self._write_paused = True

    def resume_writing(self):
        self._write_paused = False
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)

    async def drain(self) -> None:
        """Returns once the transport's buffer is below its high-water mark.
        Any number of callers may wait at once (the lanes of a multiplexed
        connection, concurrent sends)."""
        if not self._write_paused:
            return
        if self._drained is None or self._drained.done():
            self._drained = asyncio.get_running_loop().create_future()
        await self._drained
        if self.transport is None or self.transport.is_closing():
            raise Unavailable(f"{self.name}: the daemon closed the connection")

    # ---- what a Session does with one channel's connection ----
    def write(self, frame: "pb.Frame") -> None:
        """Hands `frame` to the transport (it writes at once if it can)."""
        self.transport.write(encode(frame))

    def buffered_bytes(self) -> int:
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def pause_reading(self) -> None:
        if self.transport is not None and self.transport.is_reading():
            self.transport.pause_reading()

    def resume_reading(self) -> None:
        if self.transport is not None and not self.transport.is_closing() and \
                not self.transport.is_reading():
            self.transport.resume_reading()

    def abort(self) -> None:
        """Drops the connection at once (what is buffered is lost)."""
        if self.transport is not None:
            self.transport.abort()
