"""Frames on a Trestle connection: a 4-byte big-endian length, then one
serialized trestle.wire.Frame (docs/protocol.md, "Frames").

The only hand-written part of the wire format is this length prefix; the body
is protobuf's own encoding. FrameProtocol decodes incrementally, as bytes
arrive (a frame split over reads, or many in one), and hands each frame to
its owner at once, on the loop's read callback: no task switch per frame.
"""
import asyncio
import struct
from typing import Callable

from trestle.errors import Unavailable
from trestle.wire import pb

HEADER = struct.Struct(">I")
# wire::kDefaultMaxFrameBytes: the limit before Welcome announces one.
DEFAULT_MAX_FRAME_BYTES = 16 << 20


def encode(frame: "pb.Frame") -> bytes:
    """The length-prefixed bytes of `frame`."""
    body = frame.SerializeToString()
    return HEADER.pack(len(body)) + body


class FrameProtocol(asyncio.Protocol):
    """One connection: frames to on_frame(frame), the end to on_lost(error),
    once. Refuses a frame over `max_bytes` before buffering its body."""

    def __init__(self, channel: str):
        self.channel = channel
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
        self.on_lost(Unavailable(f"{self.channel} channel: {text}"))
        if self.transport is not None:
            self.transport.abort()

    def connection_lost(self, exc):
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)
        if not self.closed.done():
            self.closed.set_result(None)
        self.on_lost(Unavailable(f"{self.channel} channel: the daemon closed the connection"))

    def pause_writing(self):
        self._write_paused = True

    def resume_writing(self):
        self._write_paused = False
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)

    async def drain(self) -> None:
        """Returns once the transport's buffer is below its high-water mark."""
        if not self._write_paused:
            return
        self._drained = asyncio.get_running_loop().create_future()
        await self._drained
        if self.transport is None or self.transport.is_closing():
            raise Unavailable(f"{self.channel} channel: the daemon closed the connection")
