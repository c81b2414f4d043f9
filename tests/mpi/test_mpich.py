"""Our C programs built for MPICH (mpich_NAME) through `trestle mpirun --
mpiexec.mpich`, which preloads libtrestle-mpi-mpich.so: each must print
what its Open MPI build prints, the same modelled times and "ok" (the
programs check their own data and times). ring_sendrecv's Fortran twins
built for MPICH: through mpif.h and `use mpi` they print the C twin's
modelled times and are refused what C is refused; through mpi_f08 (which
bypasses the layer) the run fails, naming the ranks and why."""
import os

import pytest

from conftest import BYTES_PER_NS, LINK_NS, SWITCH_LINKS, binary, mpirun, trestle_mpirun

LINK = [str(LINK_NS), str(BYTES_PER_NS)]


def output(mpi, np, name, *args, options=()):
    path = os.path.join(binary("MPI_PROGRAMS"), f"{mpi}_{name}")
    if not os.path.exists(path):
        pytest.skip(f"{path} is not built (MPICH's libmpich-dev is missing)")
    launcher = ["mpiexec.mpich", "-n", str(np)] if mpi == "mpich" else mpirun(np)
    r = trestle_mpirun(["--quiet", "--topology", f"switch:{np}", *SWITCH_LINKS, *options],
                       [*launcher, path, *LINK, *args])
    assert r.returncode == 0, r.stdout
    return [line for line in r.stdout.splitlines() if "ok" in line]


@pytest.mark.parametrize("mirror", ["steps", "collectives"])
@pytest.mark.parametrize("name,args", [("halo_exchange", ["20", "4096"]),
                                       ("collectives", []), ("sub_communicators", []),
                                       ("scans_and_scatters", []), ("graph_topologies", [])])
def test_mpich_prints_what_open_mpi_prints(name, args, mirror):
    options = ["--mirror", mirror, "--ordering", "message"]
    mpich = output("mpich", 4, name, *args, options=options)
    assert mpich, "no 'ok' line"
    assert mpich == output("mpi", 4, name, *args, options=options)


def fortran(name):
    path = os.path.join(binary("MPI_PROGRAMS"), name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is not built (no libmpichfort or Fortran compiler: "
                    "tests/mpi/fortran_programs.cmake)")
    return path


def ring(name, *args):
    """ring_sendrecv (tests/mpi/programs) built for MPICH, on 4 ranks."""
    return trestle_mpirun(["--quiet", "--topology", "switch:4", *SWITCH_LINKS],
                          ["mpiexec.mpich", "-n", "4", fortran(name), *args])


def ok_lines(r):
    assert r.returncode == 0, r.stdout
    return sorted(line for line in r.stdout.splitlines() if line.endswith(", ok"))


@pytest.mark.parametrize("binding", ["use_mpi", "mpif_h"])
def test_mpich_fortran_prints_the_c_twins_modelled_times(binding):
    # MPICH's mpif.h and `use mpi` bindings call the C entry points, which
    # the layer models: the Fortran program's times are its C twin's, the
    # model's (test_fortran.py: 1 MiB and 1 KiB round the ring, the
    # all-reduce and the barrier by recursive doubling on 4 ranks).
    c = ok_lines(ring("mpich_ring_sendrecv"))
    assert c == [f"ring_sendrecv: rank {k}: sendrecv_replace 21972 ns, waitall 1020 ns, "
                 f"allreduce 2000 ns, barrier 2000 ns, ok" for k in range(4)]
    assert ok_lines(ring(f"mpich_ring_sendrecv_{binding}")) == c


def test_mpich_fortran_refused_call_is_refused():
    r = ring("mpich_ring_sendrecv_use_mpi", "refused")
    assert r.returncode != 0, r.stdout
    assert "MPI_Comm_join is not modelled by libtrestle-mpi (dynamic processes)" in r.stdout, \
        r.stdout
    assert "MPI_Comm_join returned" not in r.stdout, r.stdout


def test_mpich_mpi_f08_is_never_silently_real():
    # MPICH's mpi_f08 bindings call PMPI_* directly: the layer never starts
    # in such a rank, which runs in real time; trestle mpirun says so.
    r = ring("mpich_ring_sendrecv_f08")
    assert r.returncode == 3, r.stdout
    assert ("ranks 0-3 (4 of 4) never joined the run: what ran there ran in real time, "
            "outside the model") in r.stdout, r.stdout
    assert "MPICH's mpi_f08 module, whose bindings call PMPI_* directly" in r.stdout, r.stdout
