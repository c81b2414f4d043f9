#!/usr/bin/env bash
# Installs the Debian packages that Trestle's build, tests and demo need.
# Idempotent: installs only what is missing, and runs apt-get update only
# when something is. Run as root (or with sudo available).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libuv1-dev
  libprotobuf-dev protobuf-compiler
  libgrpc++-dev protobuf-compiler-grpc
  libhiredis-dev redis-server
  libspdlog-dev libfmt-dev libabsl-dev libcpp-httplib-dev python3-prometheus-client
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox
  libns3-dev ns3 libgsl-dev   # ns-3 3.37 for trestle-sim ns3 (ns3 + libgsl-dev: its CMake config)
  clang libclang-rt-14-dev llvm   # fuzz targets: clang, libFuzzer and sanitizer runtimes; llvm-symbolizer
  iproute2   # ip netns / veth pairs: tests/netns (daemons on separate hosts)
  python3-protobuf python3-redis python3-pytest   # the Python SDK (client-sdk/python), its tests
  python3-pip python3-venv python3-setuptools python3-wheel   # pip install ./client-sdk/python
  iputils-ping util-linux python3   # the gateway's tests: ping, setpriv (as nobody), a TCP sender/receiver
  iperf3   # the gateway walkthrough (docs/gateway.md)
  openmpi-bin libopenmpi-dev gfortran   # libtrestle-mpi and trestle mpirun (docs/mpi.md); gfortran: its Fortran tests
  mpich libmpich-dev   # libtrestle-mpi-mpich and its tests (docs/mpi.md); Open MPI stays the
                       # default mpirun/mpicc/mpi.h: its alternatives outrank MPICH's (50 to 40)
  netpipe-openmpi python3-mpi4py   # MPI programs we did not write, run in its tests
  hpcc   # HPC Challenge under trestle mpirun (issue 41: its RandomAccess cancels receives)
  lammps lammps-examples   # LAMMPS's melt example under trestle mpirun (tests/mpi/test_lammps.py)
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
