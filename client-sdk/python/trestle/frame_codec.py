"""Frames on a Trestle connection: a 4-byte big-endian length, then one
serialized trestle.wire.Frame (docs/protocol.md, "Frames").

The only hand-written part of the wire format is this length prefix; the body
is protobuf's own encoding.
"""
import asyncio
import struct

from trestle.errors import Unavailable
from trestle.wire import pb

HEADER = struct.Struct(">I")
# wire::kDefaultMaxFrameBytes: the limit before Welcome announces one.
DEFAULT_MAX_FRAME_BYTES = 16 << 20


def encode(frame: "pb.Frame") -> bytes:
    """The length-prefixed bytes of `frame`."""
    body = frame.SerializeToString()
    return HEADER.pack(len(body)) + body


class FrameReader:
    """Reads whole frames from an asyncio stream, refusing any over `max_bytes`."""

    def __init__(self, reader: asyncio.StreamReader, channel: str,
                 max_bytes: int = DEFAULT_MAX_FRAME_BYTES):
        self._reader = reader
        self.channel = channel
        self.max_bytes = max_bytes

    async def read(self) -> "pb.Frame":
        """The next frame. Raises Unavailable when the connection closes, a
        frame is over the limit, or a body does not parse."""
        try:
            header = await self._reader.readexactly(HEADER.size)
            (length,) = HEADER.unpack(header)
            if length > self.max_bytes:
                raise Unavailable(f"{self.channel} channel: the daemon sent a frame of {length} "
                                  f"bytes, over this client's limit of {self.max_bytes} bytes")
            body = await self._reader.readexactly(length) if length else b""
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            raise Unavailable(f"{self.channel} channel: the daemon closed the connection") from e
        frame = pb.Frame()
        try:
            frame.ParseFromString(body)
        except Exception as e:  # protobuf's DecodeError
            raise Unavailable(f"{self.channel} channel: a frame of {length} bytes from the daemon "
                              "does not parse as trestle.wire.Frame") from e
        return frame
