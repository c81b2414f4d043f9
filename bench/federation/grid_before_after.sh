#!/bin/bash
# bench/federation/grid.sh twice for each daemon build, alternated (before,
# after, before, after), REPS=1 each, the same trestle and trestle-sim
# (BUILD_DIR); grid_table.py OUT_DIR tabulates the medians of the two runs
# per row.
# Usage: grid_before_after.sh BEFORE_TRESTLED AFTER_TRESTLED OUT_DIR
set -euo pipefail
before=$1 after=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
for pass in 1 2; do
  for side in before after; do
    d=$before; [ $side = after ] && d=$after
    TRESTLED=$d REPS=1 bash "$here/grid.sh" "$out/grid-$side-$pass" \
      > "$out/grid-$side-$pass.out" 2>&1
  done
done
