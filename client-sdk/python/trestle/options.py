"""ClientOptions: how a client reaches and identifies itself to the daemon.

Mirrors trestle::ClientOptions (client-sdk/include/trestle/client_options.h);
durations are in seconds (floats), virtual times in ns (ints).
"""
import dataclasses
import enum
import os
from typing import Optional

DEFAULT_DAEMON_ADDRESS = "127.0.0.1:7878"


class DeliveryMode(enum.Enum):
    PUSH = 1  # the daemon writes batches as soon as they exist
    PULL = 2  # the client asks (AppClient.receive; SimClient.fetch)


@dataclasses.dataclass
class ClientOptions:
    # "HOST:PORT" (IPv4, [IPv6] or a name) or "unix:/path/to/socket".
    daemon: str = DEFAULT_DAEMON_ADDRESS
    # The app's node name or the simulator's name (1 to 255 bytes).
    client_id: str = ""
    # Shared secret the daemon may require; default $TRESTLE_TOKEN.
    auth_token: str = dataclasses.field(default_factory=lambda: os.environ.get("TRESTLE_TOKEN", ""))
    mode: DeliveryMode = DeliveryMode.PUSH
    # Bound on the whole handshake (connects, Hello, Attach), seconds.
    connect_timeout: float = 5.0
    # Largest frame accepted from the daemon; 0: the one Welcome announces.
    max_frame_bytes: int = 0
    # Backpressure: the SDK stops reading the recv channel while this many
    # messages (or payload bytes) wait in the inbox; resumes at half.
    max_buffered_messages: int = 65536
    max_buffered_bytes: int = 64 << 20
    # A lost session's token, to resume it (within the daemon's session_linger_ms).
    resume_token: str = ""
    # Ping after this long without hearing from the daemon; give the session
    # up (Unavailable) after keepalive_timeout. 0 turns it off. Seconds.
    keepalive_interval: float = 5.0
    keepalive_timeout: float = 15.0
    # Carry send and recv on the ctrl connection (PUSH apps only).
    shared_connection: bool = False
    # Share one connection to the daemon with every other client of the same
    # asyncio loop that multiplexes to the same address: each client is a lane
    # of it (docs/protocol.md, "Lanes"), its channels shared as above. The
    # frames of all of them leave in one write per loop pass and come in with
    # one read, so many clients in one process cost little per message and
    # per idle client. Backpressure is the connection's: while one client's
    # reading is paused, all wait. APP clients need PUSH. disconnect() ends a
    # lane's session (Bye: a lane cannot be dropped alone); the connection
    # lost leaves every lane's session to linger for its resume. Blocking
    # clients each run a loop of their own, so each has a connection.
    multiplex: bool = False
    # Lockstep time (docs/protocol.md, "Lockstep time"); must match the daemon.
    lockstep: bool = False
    # SIM, lockstep: the smallest t_deliver - t_send it ever posts between two
    # distinct apps, and for a message an app sends to itself (None: lookahead_ns).
    lookahead_ns: int = 0
    self_lookahead_ns: Optional[int] = None
    # SIM: it replays collectives that apps send whole (send(collectives=)) in
    # its model, under the grants; declared in Hello (capabilities), passed on
    # to apps in Welcome (Client.simulators).
    replays_collectives: bool = False
    # APP: send payloads of at least the daemon's threshold by key through its
    # Redis store, and take deliveries by key from it.
    payload_by_key: bool = True
    # The store's connect and reply timeout, seconds.
    payload_store_timeout: float = 1.0
    # PX of a payload written by key, ms (the daemon's store_key_ttl_ms default).
    payload_key_ttl_ms: int = 3_600_000
    # APP: message ids remembered against redelivery by a federated daemon
    # (Welcome.redelivers_across_sessions); 0: off.
    duplicate_window: int = 65536
