#!/bin/bash
# Two Release builds of trestle side by side, alternating in one run: the
# nsb2 matrix (3 s points) and a maximum-throughput run, twice each.
#
#   bench/load/before_after.sh BEFORE_BUILD AFTER_BUILD OUT_DIR
#
# Writes OUT_DIR/{nsb2,max}-{before,after}-{1,2}.{md,jsonl}.
set -euo pipefail
B=${1:?before build dir}; A=${2:?after build dir}; out=${3:?output dir}
mkdir -p "$out"
run() {  # build side round
  local build=$1 side=$2 round=$3
  local t=("$build/tools/trestle/trestle" bench --trestled "$build/daemon/trestled"
           --trestle-sim "$build/sim-adapters/trestle-sim")
  echo "== round $round $side $(date +%T), load $(cut -d' ' -f1 /proc/loadavg)"
  "${t[@]}" --matrix nsb2 --duration 3s --json "$out/nsb2-$side-$round.jsonl" > "$out/nsb2-$side-$round.md"
  "${t[@]}" --nodes 10 --rate max --duration 5s --json "$out/max-$side-$round.jsonl" > "$out/max-$side-$round.md"
}
for round in 1 2; do
  run "$B" before "$round"
  run "$A" after "$round"
done
