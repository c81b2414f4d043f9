#!/bin/bash
# Two trestled builds on the federation configurations (two daemons across
# and any, closed loop with window 32; across, open loop at 1,000 msg/s),
# alternated; the same trestle and trestle-sim; a private redis-server without
# persistence on PORT; Redis's command counts per run in OUT_DIR/redis.txt.
# The memory-store and Redis-store daemons alone are the references.
# Usage: tiers_before_after.sh BEFORE_TRESTLED AFTER_TRESTLED OUT_DIR [PORT] [REPS]
#   TRESTLE=path of trestle (default: build/tools/trestle/trestle)
set -euo pipefail
before=$1 after=$2 out=$3 port=${4:-6399} reps=${5:-3}
B=${TRESTLE:-build/tools/trestle/trestle}
R="redis://127.0.0.1:$port/0"
mkdir -p "$out"; : > "$out/runs.jsonl"; : > "$out/redis.txt"
run() {  # SIDE TRESTLED CONFIG ARGS...
  local side=$1 d=$2 config=$3; shift 3
  redis-cli -p "$port" flushall >/dev/null; redis-cli -p "$port" config resetstat >/dev/null
  "$B" bench --trestled "$d" --nodes 10 --size 64 --warmup 1s --duration 3s "$@" \
    --json /tmp/tiers.json >/dev/null 2>&1
  sed "s/^{/{\"side\":\"$side\",\"config\":\"$config\",\"rep\":$rep,/" /tmp/tiers.json >> "$out/runs.jsonl"
  echo "$side $config $rep $(redis-cli -p "$port" info commandstats | grep -E 'cmdstat_' | cut -d, -f1-2 | tr '\r\n' '  ')" >> "$out/redis.txt"
}
for rep in $(seq "$reps"); do
  for side in before after; do
    d=$before; [ $side = after ] && d=$after
    run $side "$d" across-closed --daemons 2 --peers across --store "$R" --rate max --window 32
    run $side "$d" any-closed --daemons 2 --peers any --store "$R" --rate max --window 32
    run $side "$d" across-open --daemons 2 --peers across --store "$R" --rate 1000
  done
  run ref "$after" memory-closed --store memory --rate max --window 32
  run ref "$after" redis-open --store "$R" --rate 1000
done
