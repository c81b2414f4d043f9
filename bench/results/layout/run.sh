#!/bin/bash
# Layout before/after: trestled at b979dd5 (before the daemon/src move) vs main, alternated.
B=/work/main/build/tools/trestle/trestle
OUT=/work/main/bench/results/layout
mkdir -p $OUT; : > $OUT/closed.jsonl; : > $OUT/open.jsonl
for i in 1 2 3 4 5; do
  for side in before after; do
    if [ $side = before ]; then D=/work/wt-layout/build/daemon/trestled; else D=/work/main/build/daemon/trestled; fi
    $B bench --trestled $D --nodes 10 --rate max --duration 4s --json /tmp/l.json >/dev/null 2>&1
    sed "s/^{/{\"side\":\"$side\",\"run\":$i,/" /tmp/l.json >> $OUT/closed.jsonl
    $B bench --trestled $D --nodes 10 --rate 1000 --duration 4s --json /tmp/l.json >/dev/null 2>&1
    sed "s/^{/{\"side\":\"$side\",\"run\":$i,/" /tmp/l.json >> $OUT/open.jsonl
  done
done
