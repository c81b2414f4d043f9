#!/bin/bash
# The regime map of docs/fabric.md ("Contention in collective sweeps"): ring,
# halving-doubling and direct all-reduce on three 1,024-endpoint networks,
# priced by the congestion-unaware and the flow model step by step
# (bulk-synchronous, as the figure was made), drawn with gnuplot.
#
#   bench/fabric/regime_map.sh BUILD_DIR OUT_DIR
#
# Writes OUT_DIR/regime_unaware.csv, OUT_DIR/regime_flow.csv and
# OUT_DIR/fabric_regime_map.png.
set -euo pipefail
build=${1:?build directory}
out=${2:?output directory}
sim="$build/sim-adapters/trestle-sim"
mkdir -p "$out"
sizes=16KiB,32KiB,64KiB,128KiB,256KiB,512KiB,1MiB,2MiB,4MiB,8MiB,16MiB
for model in unaware flow; do
  "$sim" sweep --backend fabric --model "$model" \
      --topology torus:8x8x16 --topology fattree:k=16 --topology slingshot-1k \
      --collective allreduce --algorithm ring --algorithm halving-doubling \
      --algorithm direct --sizes "$sizes" --timing bulk-synchronous \
      --csv "$out/regime_$model.csv" >/dev/null
done
gnuplot -e "unaware='$out/regime_unaware.csv'; flow='$out/regime_flow.csv'; png='$out/fabric_regime_map.png'" \
    "$(dirname "$0")/regime_map.gp"
echo "wrote $out/fabric_regime_map.png"
