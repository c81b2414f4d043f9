"""What the SDK hands over: a Message to an app, a Transit to a simulator,
and the Outcome a simulator posts. Mirror the C++ SDK's structs."""
import dataclasses
import enum


@dataclasses.dataclass
class Stamps:
    """CLOCK_MONOTONIC ns at each stage of a payload's trip; 0: not recorded."""
    app_sent: int = 0
    daemon_accepted: int = 0
    sim_handed: int = 0
    sim_posted: int = 0
    daemon_delivered: int = 0
    app_received: int = 0


@dataclasses.dataclass
class Message:
    id: int            # daemon-wide message id (as send returned it)
    src: str
    dst: str
    payload: bytes     # empty for drop reports
    t_send: int        # virtual ns, set by the sender
    t_deliver: int     # virtual ns, set by the simulator
    tclass: int = 0
    # A report that message `id`, sent with notify_drop, was dropped (by the
    # model, or lost_in_store: the daemon's store no longer had it).
    dropped: bool = False
    lost_in_store: bool = False
    stamps: Stamps = dataclasses.field(default_factory=Stamps)


@dataclasses.dataclass
class Transit:
    """A payload in flight as a simulator sees it (metadata only)."""
    id: int
    src: str
    dst: str
    size: int
    tclass: int
    t_send: int
    # A serialized trestle.wire.CollectiveBatch (Send.collectives), or b"".
    collectives: bytes = b""


class OutcomeStatus(enum.Enum):
    DELIVERED = 1
    DROPPED = 2


@dataclasses.dataclass
class Outcome:
    id: int            # the Transit's id
    t_deliver: int     # virtual ns
    status: OutcomeStatus = OutcomeStatus.DELIVERED
    sim_posted: int = 0  # monotonic ns; 0: post() stamps it
