"""The wire messages (pb: package trestle.wire of proto/trestle.proto) and the
protocol's facts (facts: proto/protocol_facts.proto: TimeMode,
DELIVERY_OVERHEAD_BYTES).

The *_pb2 modules are generated at build time by protoc (setup.py's build_py,
or the CMake target trestle_python), never checked in.
"""
try:
    from trestle.wire import protocol_facts_pb2 as facts
    from trestle.wire import trestle_pb2 as pb
except ImportError as e:  # pragma: no cover - a broken install
    raise ImportError(
        f"{e.name} is missing: it is generated from proto/ at build time (pip install "
        "./client-sdk/python, or cmake --build BUILD --target trestle_python)") from e

__all__ = ["facts", "pb"]
