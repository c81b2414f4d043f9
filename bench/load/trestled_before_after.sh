#!/bin/bash
# Two trestled builds against each other, alternated (before, after, five
# times), the same trestle and trestle-sim: a closed loop (--rate max) and an
# open loop (1,000 msg/s), 10 nodes, 4 s each.
# Usage: trestled_before_after.sh BEFORE_TRESTLED AFTER_TRESTLED [OUT_DIR]
#   TRESTLE=path of trestle (default: build/tools/trestle/trestle)
# Writes OUT_DIR/closed.jsonl and OUT_DIR/open.jsonl (`trestle bench --json`
# lines labelled "side" and "run"); OUT_DIR defaults to a new directory under
# /tmp.
set -euo pipefail
before=${1:?before trestled} after=${2:?after trestled}
OUT=${3:-$(mktemp -d /tmp/trestle-before-after.XXXXXX)}
B=${TRESTLE:-build/tools/trestle/trestle}
mkdir -p "$OUT"; : > "$OUT/closed.jsonl"; : > "$OUT/open.jsonl"
echo "trestled_before_after.sh: output in $OUT"
for i in 1 2 3 4 5; do
  for side in before after; do
    D=$before; [ $side = after ] && D=$after
    "$B" bench --trestled "$D" --nodes 10 --rate max --duration 4s --json /tmp/l.json >/dev/null 2>&1
    sed "s/^{/{\"side\":\"$side\",\"run\":$i,/" /tmp/l.json >> "$OUT/closed.jsonl"
    "$B" bench --trestled "$D" --nodes 10 --rate 1000 --duration 4s --json /tmp/l.json >/dev/null 2>&1
    sed "s/^{/{\"side\":\"$side\",\"run\":$i,/" /tmp/l.json >> "$OUT/open.jsonl"
  done
done
