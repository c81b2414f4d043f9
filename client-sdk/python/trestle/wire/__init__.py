"""The wire messages (package trestle.wire of proto/trestle.proto).

trestle_pb2 is generated at build time by protoc (setup.py's build_py, or the
CMake target trestle_python), never checked in.
"""
try:
    from trestle.wire import trestle_pb2 as pb
except ImportError as e:  # pragma: no cover - a broken install
    raise ImportError(
        "trestle.wire.trestle_pb2 is missing: it is generated from proto/trestle.proto at "
        "build time (pip install ./client-sdk/python, or cmake --build BUILD --target "
        "trestle_python)") from e

__all__ = ["pb"]
