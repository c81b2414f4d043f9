#!/bin/bash
# bench/federation/grid.sh twice for each daemon build, alternated (before,
# after, before, after), REPS=1 each, the same trestle and trestle-sim
# (BUILD_DIR); the medians of the two runs per row go in grid.md.
# Usage: grid-before-after.sh BEFORE_TRESTLED AFTER_TRESTLED OUT_DIR
set -euo pipefail
before=$1 after=$2 out=$3
here=$(cd "$(dirname "$0")/../../.." && pwd)
for pass in 1 2; do
  for side in before after; do
    d=$before; [ $side = after ] && d=$after
    TRESTLED=$d REPS=1 bash "$here/bench/federation/grid.sh" "$out/grid-$side-$pass" \
      > "$out/grid-$side-$pass.out" 2>&1
  done
done
