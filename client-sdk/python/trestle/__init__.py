"""Python SDK of the Trestle co-simulation bridge.

asyncio first: AsyncAppClient, AsyncSimClient. Blocking: AppClient,
SimClient (each on a private loop). Errors: trestle.errors. The wire
contract is docs/protocol.md; the C++ SDK (client-sdk/include/trestle/) is
the reference for behaviour.
"""
from trestle.app_client import AsyncAppClient
from trestle.blocking import AppClient, SimClient
from trestle.errors import (AlreadyExists, DeadlineExceeded, FailedPrecondition,
                            InvalidArgument, NotFound, PermissionDenied, Quiescent,
                            ResourceExhausted, TrestleError, Unauthenticated, Unavailable)
from trestle.message import Message, Outcome, OutcomeStatus, Stamps, Transit
from trestle.options import DEFAULT_DAEMON_ADDRESS, ClientOptions, DeliveryMode
from trestle.sim_client import NOTHING_PENDING, AsyncSimClient

__all__ = [
    "AsyncAppClient", "AsyncSimClient", "AppClient", "SimClient", "ClientOptions",
    "DeliveryMode", "DEFAULT_DAEMON_ADDRESS", "Message", "Outcome", "OutcomeStatus", "Stamps",
    "Transit", "NOTHING_PENDING", "TrestleError", "InvalidArgument", "Unauthenticated",
    "PermissionDenied", "AlreadyExists", "NotFound", "FailedPrecondition", "ResourceExhausted",
    "Unavailable", "DeadlineExceeded", "Quiescent",
]
