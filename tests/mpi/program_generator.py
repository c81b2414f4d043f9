"""Random valid MPI programs (mpi4py scripts) for the liveness and
determinism checks of libtrestle-mpi (docs/mpi.md, "Deadlock freedom").

`generate(seed)` returns (ranks, source): a program that real MPI runs to
its end, whatever the timing. Phases, the same on every rank, each one of:
- a collective (scans and reduce-scatter too) on MPI_COMM_WORLD or on a
  split communicator (halves by rank parity, or a low and a high group),
  with its data checked;
- point to point along a random derangement of the ranks, posted in an order
  that cannot deadlock (Isend then Recv, Irecv then Send, or Sendrecv),
  from a named source or MPI_ANY_SOURCE (one message per rank and phase, a
  tag per phase: the match is unique), its data checked;
- MPI_Wtime on a random subset of the ranks;
- real sleeps and real compute on a random subset (not modelled with
  `--compute none`: they must change no time).
Rank 0 prints a line `rank R: tag=ns ...` per rank (its clock readings,
then its end, gathered); a rank aborts the run on wrong data. Same seed, same program."""
import random

COLLECTIVES = ["barrier", "allreduce", "allgather", "alltoall", "bcast", "reduce", "gather",
               "scatter", "scan", "exscan", "reduce_scatter_block"]
# Sums of cr + 1 over the ranks: the call, y's start, a guard (exscan
# leaves rank 0's undefined) and the sum each rank must get.
PREFIX_SUMS = {
    "allreduce": ("Allreduce", 0, "", "cn * (cn + 1) // 2"),
    "scan": ("Scan", 0, "", "(cr + 1) * (cr + 2) // 2"),
    "exscan": ("Exscan", -5, "cr > 0 and ", "cr * (cr + 1) // 2"),
}
P2P_STYLES = ["isend-recv", "irecv-send", "sendrecv", "isend-recv-any", "irecv-any-send"]
SIZES = [1, 8, 128, 1024, 4096]  # doubles

PRELUDE = '''\
from mpi4py import MPI
import array, sys, time
w = MPI.COMM_WORLD
r = w.Get_rank()
n = w.Get_size()
parity = w.Split(r % 2, r)
halves = w.Split(0 if r < n // 2 else 1, r)
COMMS = {"world": w, "parity": parity, "halves": halves}
readings = []


def clock(tag):
    readings.append(f"{tag}={round(MPI.Wtime() * 1e9)}")


def bad(what):
    print(f"rank {r}: wrong data: {what}", flush=True)
    w.Abort(1)


def buf(k, value):
    return array.array("d", [float(value)] * k)


def check(b, value, what):
    if any(x != float(value) for x in b):
        bad(what)


def spin(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass

'''


def _collective(rng, phase):
    name = rng.choice(COLLECTIVES)
    comm = rng.choice(["world", "world", "parity", "halves"])
    k = rng.choice(SIZES)
    root = rng.randrange(64)  # taken modulo the communicator's size
    lines = [f"# phase {phase}: {name} on {comm}, {k} doubles",
             f"c = COMMS[{comm!r}]; cr = c.Get_rank(); cn = c.Get_size(); root = {root} % cn"]
    what = f"phase {phase} {name}"
    if name == "barrier":
        lines.append("c.Barrier()")
    elif name in PREFIX_SUMS:
        call, start, guard, value = PREFIX_SUMS[name]
        lines += [f"y = buf({k}, {start})", f"c.{call}(buf({k}, cr + 1), y, op=MPI.SUM)",
                  f"{guard}check(y, {value}, {what!r})"]
    elif name == "allgather":
        lines += [f"y = buf({k} * cn, 0)", f"c.Allgather(buf({k}, cr), y)",
                  f"[check(y[i * {k}:(i + 1) * {k}], i, {what!r}) for i in range(cn)]"]
    elif name == "alltoall":
        lines += [f"x = array.array('d', [float(cr * 100 + i // {k}) for i in range({k} * cn)])",
                  f"y = buf({k} * cn, 0)", "c.Alltoall(x, y)",
                  f"[check(y[i * {k}:(i + 1) * {k}], i * 100 + cr, {what!r}) for i in range(cn)]"]
    elif name == "bcast":
        lines += [f"x = buf({k}, 7 if cr == root else 0)", "c.Bcast(x, root=root)",
                  f"check(x, 7, {what!r})"]
    elif name == "reduce":
        lines += [f"y = buf({k}, 0) if cr == root else None",
                  f"c.Reduce(buf({k}, 2), y, op=MPI.SUM, root=root)",
                  f"cr == root and check(y, 2 * cn, {what!r})"]
    elif name == "gather":
        lines += [f"y = buf({k} * cn, 0) if cr == root else None",
                  f"c.Gather(buf({k}, cr), y, root=root)",
                  f"cr == root and [check(y[i * {k}:(i + 1) * {k}], i, {what!r}) "
                  "for i in range(cn)]"]
    elif name == "reduce_scatter_block":
        lines += [f"y = buf({k}, 0)", f"c.Reduce_scatter_block(buf({k} * cn, cr + 1), y, op=MPI.SUM)",
                  f"check(y, cn * (cn + 1) // 2, {what!r})"]
    else:  # scatter
        lines += [f"x = array.array('d', [float(i // {k}) for i in range({k} * cn)]) "
                  "if cr == root else None",
                  f"y = buf({k}, -1)", "c.Scatter(x, y, root=root)", f"check(y, cr, {what!r})"]
    return lines


def _derangement(rng, n):
    while True:
        p = list(range(n))
        rng.shuffle(p)
        if all(p[i] != i for i in range(n)):
            return p


def _point_to_point(rng, phase, n):
    to = _derangement(rng, n)
    frm = [0] * n
    for i, j in enumerate(to):
        frm[j] = i
    style = rng.choice(P2P_STYLES)
    k = rng.choice(SIZES)
    tag = 100 + phase
    src = "MPI.ANY_SOURCE" if "any" in style else "frm[r]"
    lines = [f"# phase {phase}: point to point, {style}, {k} doubles",
             f"to = {to}; frm = {frm}", f"x = buf({k}, r); y = buf({k}, -1)"]
    if style.startswith("isend"):
        lines += [f"q = w.Isend(x, dest=to[r], tag={tag})",
                  f"w.Recv(y, source={src}, tag={tag})", "q.Wait()"]
    elif style.startswith("irecv"):
        lines += [f"q = w.Irecv(y, source={src}, tag={tag})",
                  f"w.Send(x, dest=to[r], tag={tag})", "q.Wait()"]
    else:
        lines.append(f"w.Sendrecv(x, dest=to[r], sendtag={tag}, recvbuf=y, source=frm[r], "
                     f"recvtag={tag})")
    lines.append(f"check(y, frm[r], 'phase {phase} {style}')")
    return lines


def _subset(rng, n):
    return sorted(rng.sample(range(n), rng.randint(1, n)))


def generate(seed):
    """(ranks, source) of program `seed`."""
    rng = random.Random(seed)
    n = rng.choice([3, 4, 4, 5])
    body = []
    for phase in range(rng.randint(6, 14)):
        kind = rng.choices(["collective", "p2p", "clock", "sleep", "compute"],
                           weights=[5, 3, 3, 1, 1])[0]
        if kind == "collective":
            body += _collective(rng, phase)
        elif kind == "p2p":
            body += _point_to_point(rng, phase, n)
        elif kind == "clock":
            body.append(f"if r in {_subset(rng, n)}: clock('p{phase}')")
        elif kind == "sleep":
            body.append(f"if r in {_subset(rng, n)}: time.sleep({rng.choice([0.0005, 0.002])})")
        else:
            body.append(f"if r in {_subset(rng, n)}: spin({rng.choice([0.0005, 0.002])})")
        # Now and then the same collective many times over, one rank alone
        # reading its clock after each (the idiom that once deadlocked).
        if rng.random() < 0.15:
            reader = rng.randrange(n)
            body += [f"# phase {phase}: a burst of allreduces, rank {reader} reads the clock",
                     "for i in range(40):",
                     "    z = buf(4, 0); w.Allreduce(buf(4, 1), z, op=MPI.SUM)",
                     f"    if r == {reader}: clock('burst{phase}')" if rng.random() < 0.5 else
                     f"    if r == {reader} and i % 10 == 9: clock(f'burst{phase}.{{i}}')"]
    # Rank 0 prints every rank's readings: the ranks' own prints would
    # interleave in mpirun's output.
    body += ["clock('end')", "lines = w.gather(f'rank {r}: ' + ' '.join(readings), root=0)",
             "if r == 0: print('\\n'.join(lines), flush=True)"]
    source = f"# generated program, seed {seed}, {n} ranks\n" + PRELUDE + "\n".join(body) + "\n"
    return n, source


if __name__ == "__main__":
    import sys
    ranks, text = generate(int(sys.argv[1]))
    print(text, end="")
