#!/bin/bash
# docs/validation.md "At scale": the same workloads through the
# congestion-unaware model, the flow model and ns-3 (CUBIC through FIFO
# queues, DCTCP through ECN-marking queues) on four networks of 16 to 128
# endpoints, then the tables and the plots.
#
#   bench/validation/at_scale.sh BUILD_DIR OUT_DIR [TOPOLOGY ...]
#
# Writes, per topology T (its spec with ':,=' turned into '_'):
#   OUT_DIR/T.csv            trestle-sim validate's rows (errors against ns3-dctcp)
#   OUT_DIR/T.messages.csv   every message's latency, per backend
# and OUT_DIR/at_scale.md (the tables of docs/validation.md),
# OUT_DIR/validation_at_scale_errors.png and
# OUT_DIR/validation_at_scale_victim.png. About 12 minutes on a 2-core
# machine, most of it ns-3 on fattree:k=8's all-to-all.
set -euo pipefail
build=${1:?build directory}
out=${2:?output directory}
shift 2
topologies=("$@")
if [ ${#topologies[@]} -eq 0 ]; then
  topologies=(fattree:k=4 torus:4x4x4 dragonfly:p=4,a=4,h=2,g=5 fattree:k=8)
fi
sim="$build/sim-adapters/trestle-sim"
here=$(dirname "$0")
mkdir -p "$out"
workloads=(permutation:1MiB incast:8:1MiB incast:32:256KiB alltoall:64KiB
           victim:8B victim:8B+alltoall:256KiB victim:8B+incast:256KiB)
args=()
for w in "${workloads[@]}"; do args+=(--workload "$w"); done

names=()
for t in "${topologies[@]}"; do
  name=$(echo "$t" | tr ':,=' '___')
  names+=("$name")
  "$sim" validate --topology "$t" "${args[@]}" \
      --backend unaware --backend flow --backend ns3-cubic --backend ns3-dctcp \
      --reference ns3-dctcp --csv "$out/$name.csv" --messages "$out/$name.messages.csv" \
      > "$out/$name.txt"
done

# The tables, and the plots' data: one row per topology and workload.
: > "$out/errors.dat"
: > "$out/victim.dat"
{
  for i in "${!topologies[@]}"; do
    endpoints=$(awk '/^topology/ { for (f = 1; f < NF; ++f) if ($(f + 1) == "endpoints,") print $f }' \
        "$out/${names[$i]}.txt")
    awk -F, -v topology="${topologies[$i]}" -v label="${topologies[$i]%%:*}-$endpoints" \
        -v errors="$out/errors.dat" -v victim="$out/victim.dat" \
        -f "$here/at_scale_tables.awk" "$out/${names[$i]}.csv"
  done
} > "$out/at_scale.md"

gnuplot -e "errors='$out/errors.dat'; victim='$out/victim.dat'; out='$out'" "$here/at_scale.gp"
echo "wrote $out/at_scale.md, $out/validation_at_scale_errors.png, $out/validation_at_scale_victim.png"
