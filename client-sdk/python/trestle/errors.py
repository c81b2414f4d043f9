"""Errors of the Python SDK: one exception class per status code of the C++
SDK (client.h, "Errors"), each carrying the text that names the problem.

Daemon Error frames map as in C++: UNAUTHENTICATED -> Unauthenticated,
ALREADY_EXISTS -> AlreadyExists, PERMISSION_DENIED -> PermissionDenied,
NOT_FOUND -> NotFound, BAD_REQUEST/BAD_FRAME -> InvalidArgument,
UNSUPPORTED_VERSION and WRONG_TIME_MODE -> FailedPrecondition,
SHUTTING_DOWN/UNAVAILABLE -> Unavailable, RESOURCE_EXHAUSTED ->
ResourceExhausted.
"""
from trestle.wire import pb


class TrestleError(Exception):
    """Base class. `ref_id` is the message id concerned (0: none)."""

    def __init__(self, text: str, ref_id: int = 0):
        super().__init__(text)
        self.ref_id = ref_id


class InvalidArgument(TrestleError):
    pass


class Unauthenticated(TrestleError):
    pass


class PermissionDenied(TrestleError):
    pass


class AlreadyExists(TrestleError):
    pass


class NotFound(TrestleError):
    pass


class FailedPrecondition(TrestleError):
    pass


class ResourceExhausted(TrestleError):
    pass


class Unavailable(TrestleError):
    """The daemon (or the payload store) cannot be reached, or the session was lost."""


class DeadlineExceeded(TrestleError, TimeoutError):
    """A call ran out of wall-clock time."""


class Quiescent(TrestleError):
    """Lockstep: every app is blocked and nothing is in flight; nothing will
    ever arrive (the C++ SDK's OutOfRange, trestle::IsQuiescent)."""


_BY_CODE = {
    pb.BAD_FRAME: InvalidArgument,
    pb.BAD_REQUEST: InvalidArgument,
    pb.UNAUTHENTICATED: Unauthenticated,
    pb.PERMISSION_DENIED: PermissionDenied,
    pb.ALREADY_EXISTS: AlreadyExists,
    pb.NOT_FOUND: NotFound,
    pb.UNSUPPORTED_VERSION: FailedPrecondition,
    pb.SHUTTING_DOWN: Unavailable,
    pb.RESOURCE_EXHAUSTED: ResourceExhausted,
    pb.UNAVAILABLE: Unavailable,
    pb.WRONG_TIME_MODE: FailedPrecondition,
}


def from_wire(error: "pb.Error", context: str) -> TrestleError:
    """The exception for a daemon Error frame: "<context>: <CODE>: <text>"."""
    cls = _BY_CODE.get(error.code, TrestleError)
    name = pb.ErrorCode.Name(error.code) if error.code in pb.ErrorCode.values() else str(error.code)
    return cls(f"{context}: {name}: {error.text}", error.ref_id)
