#!/usr/bin/env bash
# Soaks libtrestle-mpi with generated MPI programs (tests/mpi/program_generator.py):
# every seed runs under `trestle mpirun` with collectives whole (twice), whole
# and step by step with datagram ordering, and optionally the flow model
# (twice); each must end, and the pairs must read the same times
# (tests/mpi/generated_runs.py). `make test` runs 10 fixed seeds (8 unaware, 2 flow); this runs
# many. About 15 s a seed on 2 cores (25 s with --flow).
#
#   bench/faults/mpi_programs.sh                  # seeds 1-500
#   bench/faults/mpi_programs.sh -s 1-50 --flow   # 50 seeds, the flow model too
#
# Options: -s SEEDS (1-500; e.g. 3,7,10-20), -b BUILD_DIR (build), --flow,
# -k DIR (keep the generated programs there). Exit status 0 if every seed passed.
set -uo pipefail
cd "$(dirname "$0")/../.."

seeds=1-500
build=build
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    -s) seeds=$2; shift 2 ;;
    -b) build=$2; shift 2 ;;
    -k) extra+=(--keep "$2"); shift 2 ;;
    --flow) extra+=(--flow); shift ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
cli="$build/tools/trestle/trestle"
[ -x "$cli" ] || { echo "mpi_programs.sh: no $cli: build first (make build)" >&2; exit 2; }
TRESTLE_CLI=$(realpath "$cli") exec /usr/bin/python3 tests/mpi/generated_runs.py --seeds "$seeds" "${extra[@]}"
