#!/bin/bash
# Two trestled builds on the federation configurations of docs/benchmarks.md
# (two daemons across and any, closed and open loop; each daemon with its own
# simulator), alternated (before, after, before, after...), the same trestle
# and trestle-sim, a private redis-server without persistence on PORT; then,
# with the after build, the references: one daemon with the memory store
# (closed loop), one with the Redis store (open loop), a federated daemon
# alone. Closed loops use the bench's default window (256).
# done_when_table.py OUT_DIR/runs.jsonl tabulates the medians.
# Usage: done_when_before_after.sh BEFORE_TRESTLED AFTER_TRESTLED OUT_DIR [PORT] [REPS]
#   TRESTLE=path of trestle (default: build/tools/trestle/trestle)
set -euo pipefail
before=$1 after=$2 out=$3 port=${4:-6399} reps=${5:-5}
B=${TRESTLE:-build/tools/trestle/trestle}
R="redis://127.0.0.1:$port/0"
mkdir -p "$out"; : > "$out/runs.jsonl"
{
  echo "# $(date -u +%FT%TZ), $(nproc) cores; trestle $B"
  echo "# before $before $(sha256sum "$before" | cut -c1-16)"
  echo "# after  $after $(sha256sum "$after" | cut -c1-16)"
} > "$out/runs.log"
run() {  # SIDE TRESTLED CONFIG ARGS...
  local side=$1 d=$2 config=$3; shift 3
  redis-cli -p "$port" flushall >/dev/null
  echo "## $side $config rep $rep: trestle bench --trestled $d $*" >> "$out/runs.log"
  "$B" bench --trestled "$d" --nodes 10 --size 64 --warmup 1s --duration 3s "$@" \
    --json /tmp/done-when.json >> "$out/runs.log" 2>&1 || true
  sed "s/^{/{\"side\":\"$side\",\"config\":\"$config\",\"rep\":$rep,/" /tmp/done-when.json \
    >> "$out/runs.jsonl"
}
for rep in $(seq "$reps"); do
  for side in before after; do
    d=$before; [ $side = after ] && d=$after
    run $side "$d" across-closed --daemons 2 --peers across --store "$R" --rate max
    run $side "$d" any-closed --daemons 2 --peers any --store "$R" --rate max
    run $side "$d" across-open --daemons 2 --peers across --store "$R" --rate 1000
    run $side "$d" within-each-closed --daemons 2 --simulators each --peers within \
      --store "$R" --rate max
    run $side "$d" any-each-closed --daemons 2 --simulators each --peers any --store "$R" \
      --rate max
  done
  run ref "$after" memory-closed --store memory --rate max
  run ref "$after" redis-open --store "$R" --rate 1000
  run ref "$after" federated-alone-closed --store "$R" --rate max --trestled-arg=--federate
done
