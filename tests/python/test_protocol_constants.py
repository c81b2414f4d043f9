"""The Python SDK's delivery overhead is protocol_facts.proto's DELIVERY_OVERHEAD_BYTES,
and the C++ daemon's margin is the same number (its refusal names it;
tests/wire/protocol_constants_test.cc ties the C++ constant to the proto)."""
import asyncio

import trestle
from conftest import Daemon, options
from trestle import app_client
from trestle.wire import facts


def test_the_sdks_delivery_overhead_is_the_protos():
    value = facts.ProtocolConstant.DESCRIPTOR.values_by_name["DELIVERY_OVERHEAD_BYTES"].number
    assert app_client.DELIVERY_OVERHEAD_BYTES == value


def test_the_daemon_refuses_a_payload_one_byte_over_max_frame_bytes_less_the_overhead(processes):
    max_frame_bytes = 4096
    daemon = Daemon("--max-frame-bytes", str(max_frame_bytes))
    processes.append(daemon)
    limit = max_frame_bytes - app_client.DELIVERY_OVERHEAD_BYTES

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a", shared_connection=True))
        errors = []
        a.on_error(errors.append)
        await a.connect()
        await a.send("a", bytes(limit))
        refused = await a.send("a", bytes(limit + 1))
        await a.ping()  # read after the Sends on the same socket: their Errors came first
        assert [e.ref_id for e in errors] == [refused], errors
        assert f"at most max_frame_bytes - {app_client.DELIVERY_OVERHEAD_BYTES} = {limit}" in \
            str(errors[0])
        await a.close()

    asyncio.run(run())
