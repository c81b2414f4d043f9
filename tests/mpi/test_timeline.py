"""`trestle mpirun --timeline FILE` (docs/mpi.md, "Timeline"): one Chrome
trace of every rank's MPI calls in virtual time. ring_sendrecv on 16 ranks:
a track per rank, one span per call in the program's order, whose lengths
are the MPI_Wtime deltas the program prints; an arrow per mirrored message,
from its sender's call to the receiver's, never backwards in time; the
timeline changes no modelled time; the Fortran binding gives the same spans
as C; and a --timeline no one can write is refused before anything starts."""
import json
import os
import re

import pytest

from conftest import SWITCH_LINKS, mpirun, program, trestle_mpirun

RANKS = 16
LINE = re.compile(r"ring_sendrecv: rank (\d+): sendrecv_replace (\d+) ns, waitall (\d+) ns, "
                  r"allreduce (\d+) ns, barrier (\d+) ns, ok")
CALLS = ["MPI_Wtime", "MPI_Sendrecv_replace", "MPI_Wtime", "MPI_Irecv", "MPI_Isend",
         "MPI_Waitall", "MPI_Wtime", "MPI_Allreduce", "MPI_Wtime", "MPI_Barrier", "MPI_Wtime",
         "MPI_Finalize"]


def ns(us: float) -> int:
    return round(us * 1000)


def run(tmp_path, mirror, timeline=True, binary="ring_sendrecv"):
    """The printed times by rank, and the timeline's events (or None)."""
    out = tmp_path / f"{binary}-{mirror}.json"
    options = ["--topology", f"switch:{RANKS}", *SWITCH_LINKS, "--mirror", mirror]
    if timeline:
        options += ["--timeline", str(out)]
    r = trestle_mpirun(options, [*mpirun(RANKS), program(binary)])
    assert r.returncode == 0, r.stdout
    times = {int(m.group(1)): tuple(int(g) for g in m.groups()[1:])
             for m in LINE.finditer(r.stdout)}
    assert sorted(times) == list(range(RANKS)), r.stdout
    if not timeline:
        return times, None
    assert f"timeline of {RANKS} rank(s)" in r.stdout, r.stdout
    with open(out) as f:
        trace = json.load(f)  # the whole file is one JSON document
    assert trace["displayTimeUnit"] == "ns"
    return times, trace["traceEvents"]


def spans_by_rank(events):
    spans = {}
    for e in events:
        if e["ph"] == "X" and e["cat"] == "mpi":
            spans.setdefault(e["tid"], []).append(e)
    return spans


def owners(events):
    """The call span each flow event belongs to, by the event's id and
    phase. A rank writes an arrow's start while its call runs (before the
    call's span) and an arrow's end when the call ends (after it): by file
    order, so that a call of no length (an MPI_Isend) is told from the
    call that starts at the same time. Checks that each lies in its span."""
    pending, last, owner = {}, {}, {}
    for e in events:
        if e["ph"] == "X" and e["cat"] == "mpi":
            for s in pending.pop(e["tid"], []):
                owner[("s", s["id"])] = e
            last[e["tid"]] = e
        elif e["ph"] == "s":
            pending.setdefault(e["tid"], []).append(e)
        elif e["ph"] == "f":
            owner[("f", e["id"])] = last[e["tid"]]
    assert not any(pending.values()), pending
    for e in events:
        if e["ph"] in "sf":
            span = owner[(e["ph"], e["id"])]
            assert ns(span["ts"]) <= ns(e["ts"]) <= ns(span["ts"]) + ns(span["dur"]), (e, span)
    return owner


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    return run(tmp_path_factory.mktemp("steps"), "steps")


def test_every_rank_has_a_track_with_a_span_per_call(steps):
    _, events = steps
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {k: f"rank {k}" for k in range(RANKS)}
    spans = spans_by_rank(events)
    assert sorted(spans) == list(range(RANKS))
    for rank, list_ in spans.items():
        assert [s["name"] for s in list_] == CALLS, rank
        # In order, none overlapping, no compute between them (--compute none).
        for a, b in zip(list_, list_[1:]):
            assert ns(a["ts"]) + ns(a["dur"]) == ns(b["ts"]), (rank, a, b)
    assert not [e for e in events if e["ph"] == "X" and e["cat"] == "compute"]
    for rank, list_ in spans.items():
        isend = list_[4]
        args = dict(isend["args"], messages_in=None)  # what it took in is incidental
        assert args == {"comm": "0x1", "peer": (rank + 1) % RANKS, "messages_out": 1,
                        "bytes_out": 1024, "messages_in": None}, (rank, isend)


def test_span_lengths_are_the_programs_own_clock_readings(steps):
    times, events = steps
    for rank, list_ in spans_by_rank(events).items():
        d = [ns(s["dur"]) for s in list_]
        # sendrecv_replace; Irecv + Isend + Waitall; Allreduce; Barrier.
        assert (d[1], d[3] + d[4] + d[5], d[7], d[9]) == times[rank], rank
        assert d[0] == d[2] == d[6] == d[8] == d[10] == 0  # MPI_Wtime takes no time


def test_each_message_is_one_arrow_from_its_send_to_its_receivers_call(steps):
    _, events = steps
    owner = owners(events)
    sends = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert len(sends) == len([e for e in events if e["ph"] == "s"]), "an id used twice"
    assert len(ends) == len([e for e in events if e["ph"] == "f"]), "an id ended twice"
    assert sends.keys() == ends.keys()
    by_call = {}
    for id_, s in sends.items():
        f = ends[id_]
        assert f["tid"] == s["args"]["to"] and f["bp"] == "e"
        assert ns(f["ts"]) >= ns(s["ts"]), (s, f)  # delivered after it was sent
        sent_in = owner[("s", id_)]["name"]
        taken_in = owner[("f", id_)]["name"]
        by_call.setdefault((sent_in, taken_in), []).append((s["tid"], f["tid"]))
    ring = sorted((k, (k + 1) % RANKS) for k in range(RANKS))
    assert sorted(by_call.pop(("MPI_Sendrecv_replace", "MPI_Sendrecv_replace"))) == ring
    assert sorted(by_call.pop(("MPI_Isend", "MPI_Waitall"))) == ring
    # Mirrored step by step, the collectives' messages are arrows too, each
    # from one member's collective to another's: recursive doubling on 16
    # ranks, 4 steps of a message to a partner.
    for call in ("MPI_Allreduce", "MPI_Barrier"):
        pairs = by_call.pop((call, call))
        assert len(pairs) == 4 * RANKS, call
        assert all(bin(a ^ b).count("1") == 1 for a, b in pairs), call
    assert not by_call, by_call


def test_the_timeline_changes_no_modelled_time(steps, tmp_path):
    times, _ = steps
    assert run(tmp_path, "steps", timeline=False)[0] == times
    # Collectives mirrored whole wait, with a timeline, for every call's
    # replay: the modelled times stay the same.
    whole, events = run(tmp_path, "collectives")
    assert whole == run(tmp_path, "collectives", timeline=False)[0]
    assert {tuple(s["name"] for s in l) for l in spans_by_rank(events).values()} == {tuple(CALLS)}
    # No arrows for collectives mirrored whole: only the point-to-point ones.
    assert len([e for e in events if e["ph"] == "s"]) == 2 * RANKS


def test_fortran_calls_are_one_span_each_as_in_c(steps, tmp_path):
    if not os.path.exists(program("ring_sendrecv_use_mpi")):
        pytest.skip("no Fortran build of ring_sendrecv (tests/mpi/fortran_programs.cmake)")
    times, events = run(tmp_path, "steps", binary="ring_sendrecv_use_mpi")
    assert times == steps[0]
    for rank, list_ in spans_by_rank(events).items():
        assert [s["name"] for s in list_] == CALLS, rank


def test_a_timeline_that_cannot_be_written_is_refused_first(tmp_path):
    r = trestle_mpirun(["--topology", "switch:2", "--timeline", "/nonexistent/t.json"],
                       [*mpirun(2), program("ring_sendrecv")], timeout=60)
    assert r.returncode == 2, r.stdout
    assert "--timeline /nonexistent/t.json: no such directory /nonexistent" in r.stdout
