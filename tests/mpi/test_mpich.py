"""Our C programs built for MPICH (mpich_NAME) through `trestle mpirun --
mpiexec.mpich`, which preloads libtrestle-mpi-mpich.so: each must print
what its Open MPI build prints, the same modelled times and "ok" (the
programs check their own data and times)."""
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
                                       ("scans_and_scatters", [])])
def test_mpich_prints_what_open_mpi_prints(name, args, mirror):
    options = ["--mirror", mirror, "--ordering", "message"]
    mpich = output("mpich", 4, name, *args, options=options)
    assert mpich, "no 'ok' line"
    assert mpich == output("mpi", 4, name, *args, options=options)
