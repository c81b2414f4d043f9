"""Errors that name the problem: the daemon down, a refused id, an oversized
payload, a bad token, a time-mode mismatch, a bad destination."""
import asyncio
import signal

import pytest

import trestle
from conftest import Daemon, free_port, options


def test_a_daemon_that_is_down_is_unavailable_naming_its_address():
    port = free_port()  # nothing listens there
    app = trestle.AppClient(trestle.ClientOptions(daemon=f"127.0.0.1:{port}", client_id="a"))
    with pytest.raises(trestle.Unavailable, match=f"cannot connect to the daemon at 127.0.0.1:{port}"):
        app.connect()
    with pytest.raises(trestle.FailedPrecondition, match="'a' is not connected"):
        app.send("b", b"x")


def test_a_malformed_address_is_an_invalid_argument_naming_it():
    app = trestle.AppClient(trestle.ClientOptions(daemon="no-port-here", client_id="a"))
    with pytest.raises(trestle.InvalidArgument, match="'no-port-here' is not HOST:PORT"):
        app.connect()


def test_a_second_session_of_a_live_id_is_refused_naming_the_id(processes):
    daemon = Daemon()
    processes.append(daemon)
    with trestle.AppClient(options(daemon, "node-7")) as first:
        first.connect()
        second = trestle.AppClient(options(daemon, "node-7"))
        with pytest.raises(trestle.AlreadyExists, match="node-7") as e:
            second.connect()
        assert "refused Hello of 'node-7'" in str(e.value)
        second.shutdown()


def test_an_oversized_payload_is_refused_naming_the_limit_and_uses_no_id(processes):
    daemon = Daemon("--max-frame-bytes", "65536")
    processes.append(daemon)
    with trestle.AppClient(options(daemon, "a")) as a:
        a.connect()
        first = a.send("b", b"x" * 1000)
        with pytest.raises(trestle.InvalidArgument,
                           match="payload of 70000 bytes exceeds the daemon's frame limit of 65536"):
            a.send("b", b"x" * 70000)
        assert a.send("b", b"y") == first + 1  # the refused send took no id
        assert a.connected


def test_a_destination_too_long_or_empty_is_refused_naming_its_length(processes):
    daemon = Daemon()
    processes.append(daemon)
    with trestle.AppClient(options(daemon, "a")) as a:
        a.connect()
        with pytest.raises(trestle.InvalidArgument, match="1 to 255 bytes; it has 0"):
            a.send("", b"x")
        with pytest.raises(trestle.InvalidArgument, match="1 to 255 bytes; it has 256"):
            a.send("d" * 256, b"x")


def test_a_wrong_token_is_unauthenticated(processes):
    daemon = Daemon("--auth-token", "s3cret")
    processes.append(daemon)
    with pytest.raises(trestle.Unauthenticated, match="UNAUTHENTICATED"):
        trestle.AppClient(options(daemon, "a", auth_token="wrong")).connect()
    with trestle.AppClient(options(daemon, "a", auth_token="s3cret")) as ok:
        ok.connect()
        assert ok.ping() > 0


def test_a_lockstep_app_at_a_wallclock_daemon_is_refused_naming_the_mode(processes):
    daemon = Daemon()
    processes.append(daemon)
    with pytest.raises(trestle.FailedPrecondition, match="WRONG_TIME_MODE"):
        trestle.AppClient(options(daemon, "a", lockstep=True)).connect()


def test_lockstep_calls_outside_lockstep_are_refused(processes):
    daemon = Daemon()
    processes.append(daemon)
    with trestle.AppClient(options(daemon, "a")) as a:
        a.connect()
        with pytest.raises(trestle.FailedPrecondition, match="receive_until needs lockstep"):
            a.receive_until(10)


def test_a_daemon_that_dies_ends_the_session_as_unavailable(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a"))
        reported = []
        a.on_error(reported.append)
        await a.connect()
        daemon.proc.kill()
        with pytest.raises(trestle.Unavailable, match="the daemon closed the connection"):
            await a.receive(timeout=5.0)
        assert not a.connected and len(reported) == 1
        with pytest.raises(trestle.Unavailable):
            await a.send("b", b"x")

    asyncio.run(run())


def test_a_hung_daemon_is_given_up_after_the_keepalive_timeout(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        a = trestle.AsyncAppClient(options(daemon, "a", keepalive_interval=0.1,
                                           keepalive_timeout=0.4))
        await a.connect()
        daemon.proc.send_signal(signal.SIGSTOP)  # alive, silent
        try:
            with pytest.raises(trestle.Unavailable, match=r"nothing heard from the daemon for "
                               r"0\.[4-9] s \(keepalive_timeout 0.4 s\)"):
                await a.receive(timeout=5.0)
        finally:
            daemon.proc.send_signal(signal.SIGCONT)

    asyncio.run(run())
