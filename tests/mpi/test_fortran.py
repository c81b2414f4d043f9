"""Fortran programs through `trestle mpirun` (docs/mpi.md, "What is
modelled"): ring_sendrecv built through `use mpi`, mpif.h and `use mpi_f08`
prints the modelled times its C twin prints, the model's own, with the data
right (each program checks it); a refused call is refused from Fortran too;
communicator constructors work from Fortran; and every C entry point the
layer defines has its Fortran names, so no Fortran call goes around the
model."""
import os
import re
import subprocess

import pytest

from conftest import SWITCH_LINKS, binary, model_ns, mpirun, program, trestle_mpirun

RANKS = 4
FORTRAN = ["use_mpi", "mpif_h", "f08"]
LINE = re.compile(r"ring_sendrecv: rank (\d+): sendrecv_replace (\d+) ns, waitall (\d+) ns, "
                  r"allreduce (\d+) ns, barrier (\d+) ns, ok")
OPEN_MPI_LIBS = "/usr/lib/x86_64-linux-gnu"


def built(name: str) -> str:
    path = program(name)
    if not os.path.exists(path):
        pytest.skip(f"{os.path.basename(path)} is not built: no Fortran compiler or MPI "
                    "Fortran at configure time (gfortran, libopenmpi-dev; tests/mpi/"
                    "fortran_programs.cmake)")
    return path


def run(path: str, *args):
    return trestle_mpirun(["--topology", f"switch:{RANKS}", *SWITCH_LINKS],
                          [*mpirun(RANKS), path, *args])


def ring_times(path: str):
    """Each rank's four printed step times, by rank."""
    r = run(path)
    assert r.returncode == 0, r.stdout
    times = {int(m.group(1)): tuple(int(g) for g in m.groups()[1:])
             for m in LINE.finditer(r.stdout)}
    assert sorted(times) == list(range(RANKS)), r.stdout
    return times


@pytest.fixture(scope="module")
def c_times():
    return ring_times(built("ring_sendrecv"))


def test_c_twin_prints_the_models_times(c_times):
    # 1 MiB to the next rank; 1 KiB likewise; the allreduce of one double
    # and the barrier by recursive doubling on 4 ranks: 2 steps of a
    # message of (almost) no bytes.
    expected = (model_ns(1 << 20), model_ns(1024), 2 * model_ns(8), 2 * model_ns(0))
    assert expected == (21972, 1020, 2000, 2000)
    assert c_times == {rank: expected for rank in range(RANKS)}


@pytest.mark.parametrize("binding", FORTRAN)
def test_fortran_prints_the_c_twins_modelled_times(binding, c_times):
    assert ring_times(built(f"ring_sendrecv_{binding}")) == c_times


def test_communicator_constructors_from_fortran():
    # Graph_create with a LOGICAL reorder, Dist_graph_create_adjacent with
    # Fortran's MPI_UNWEIGHTED, Comm_dup, Comm_split: the handles they
    # return are the new communicators, which the layer models (it ends the
    # run at the first use of one it does not). Before the fix of Made's
    # argument order every one of them returned MPI_COMM_NULL.
    r = run(built("graph_topologies_f"))
    assert r.returncode == 0, r.stdout
    assert f"graph_topologies (Fortran): {RANKS} ranks, ok" in r.stdout, r.stdout


@pytest.mark.parametrize("binding", ["use_mpi", "f08"])
def test_a_refused_call_is_refused_from_fortran(binding):
    r = run(built(f"ring_sendrecv_{binding}"), "refused")
    assert r.returncode != 0, r.stdout
    assert ("MPI_Comm_join (Fortran) is not modelled by libtrestle-mpi (dynamic processes)"
            in r.stdout), r.stdout
    assert "MPI_Comm_join returned" not in r.stdout, r.stdout


def defined(path: str):
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True, text=True,
                         capture_output=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def referenced(path: str):
    out = subprocess.run(["nm", "-D", "--undefined-only", path], check=True, text=True,
                         capture_output=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def test_every_c_entry_point_has_its_fortran_names():
    """A C entry point of the layer (modelled or refused) whose Fortran
    binding Open MPI has must be defined under each name that binding is
    reached by (fortran_names.h), or a Fortran program would run it for
    real, outside the model."""
    mpifh = os.path.join(OPEN_MPI_LIBS, "libmpi_mpifh.so")
    f08 = os.path.join(OPEN_MPI_LIBS, "libmpi_usempif08.so")
    if not os.path.exists(mpifh):
        pytest.skip(f"{mpifh} is absent: Open MPI without its Fortran bindings")
    layer = os.path.join(os.path.dirname(binary("TRESTLE_CLI")), "..", "..", "mpi",
                         "libtrestle-mpi.so")
    ours = defined(layer)
    open_mpi = defined(mpifh)
    f08_calls = referenced(f08) if os.path.exists(f08) else set()
    c_calls = sorted(s for s in ours if re.fullmatch(r"MPI_[A-Z][a-z0-9_]*", s))
    assert "MPI_Send" in c_calls and "MPI_Comm_join" in c_calls, c_calls
    missing = []
    for call in c_calls:
        stem = call[len("MPI_"):].lower()
        if f"mpi_{stem}_" not in open_mpi:
            continue  # Open MPI has no Fortran binding of it
        names = [f"mpi_{stem}", f"mpi_{stem}_", f"mpi_{stem}__", f"MPI_{stem.upper()}",
                 f"ompi_{stem}_f"]
        if f"pmpi_{stem}_" in f08_calls:
            names.append(f"pmpi_{stem}_")
        missing += [n for n in names if n not in ours]
    assert not missing, f"Fortran names libtrestle-mpi lacks: {missing}"
