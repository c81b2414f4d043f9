"""Opening one connection to the daemon from its address: "HOST:PORT",
"[IPv6]:PORT" or "unix:/path"."""
import asyncio
import socket

from trestle.errors import InvalidArgument, Unavailable
from trestle.frame_codec import FrameProtocol


async def open_connection(address: str, name: str) -> FrameProtocol:
    """A new connection to `address`, as a FrameProtocol whose errors name
    it `name` ("ctrl channel", ...). Raises InvalidArgument for a malformed
    address, Unavailable when refused."""
    loop = asyncio.get_running_loop()
    factory = lambda: FrameProtocol(name)
    try:
        if address.startswith("unix:"):
            _, protocol = await loop.create_unix_connection(factory, address[len("unix:"):])
            return protocol
        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise InvalidArgument(f"daemon address '{address}' is not HOST:PORT or unix:PATH")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        transport, protocol = await loop.create_connection(factory, host, int(port))
    except OSError as e:
        raise Unavailable(f"cannot connect to the daemon at {address}: {e.strerror or e}") from e
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return protocol
