"""Opening one connection to the daemon from its address: "HOST:PORT",
"[IPv6]:PORT" or "unix:/path"."""
import asyncio

from trestle.errors import InvalidArgument, Unavailable


async def open_connection(address: str):
    """(reader, writer) of a new connection to `address`. Raises
    InvalidArgument for a malformed address, Unavailable when refused."""
    try:
        if address.startswith("unix:"):
            return await asyncio.open_unix_connection(address[len("unix:"):])
        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise InvalidArgument(f"daemon address '{address}' is not HOST:PORT or unix:PATH")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        reader, writer = await asyncio.open_connection(host, int(port))
    except OSError as e:
        raise Unavailable(f"cannot connect to the daemon at {address}: {e.strerror or e}") from e
    sock = writer.get_extra_info("socket")
    if sock is not None and not address.startswith("unix:"):
        import socket
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return reader, writer
