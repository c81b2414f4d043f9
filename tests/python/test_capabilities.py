"""Simulator capabilities: what a simulator declares in its Hello reaches
every app in its Welcome (Welcome.simulators), unread by the daemon."""
import asyncio

import trestle
from conftest import Daemon, Process, binary, options


def simulators_seen(daemon, app_id, **kw):
    """(client id, replays_collectives) of each simulator an app's Welcome names."""
    async def run():
        app = trestle.AsyncAppClient(options(daemon, app_id, **kw))
        await app.connect()
        seen = sorted((s.client_id, s.capabilities.replays_collectives) for s in app.simulators)
        await app.close()
        return seen

    return asyncio.run(run())


def test_the_fabric_simulator_declares_that_it_replays_collectives(processes):
    daemon = Daemon("--time-mode", "lockstep")
    processes.append(daemon)
    assert simulators_seen(daemon, "early", lockstep=True) == []  # none connected yet
    sim = Process([binary("TRESTLE_SIM"), "fabric", "--daemon", daemon.address, "--id",
                   "fabric-sim", "--topology", "switch:4"], "trestle-sim")
    processes.append(sim)
    sim.wait_for_output("connected")
    assert simulators_seen(daemon, "late", lockstep=True) == [("fabric-sim", True)]


def test_each_simulator_is_named_with_what_it_declared_while_it_is_connected(processes):
    daemon = Daemon()
    processes.append(daemon)

    async def run():
        replays = trestle.AsyncSimClient(options(daemon, "replays", replays_collectives=True))
        plain = trestle.AsyncSimClient(options(daemon, "plain"))
        await replays.connect()
        await plain.connect()
        app = trestle.AsyncAppClient(options(daemon, "app"))
        await app.connect()
        both = sorted((s.client_id, s.capabilities.replays_collectives) for s in app.simulators)
        await app.close()
        await replays.close()
        await plain.close()
        return both

    assert asyncio.run(run()) == [("plain", False), ("replays", True)]
    # A simulator that said Bye is no longer named.
    assert simulators_seen(daemon, "after") == []
