#!/bin/bash
# Federation against one daemon, one trestled build: two daemons across and
# any (closed loop, window 32) and across (open loop, 1,000 msg/s), with the
# memory-store and Redis-store daemons alone as references; each
# configuration three times, in turn.
# Usage: gap.sh OUT_DIR [REDIS_PORT]   (a redis-server without persistence on the port)
#   TRESTLE=path of trestle (default: build/tools/trestle/trestle)
set -euo pipefail
out=$1 port=${2:-6399}
B=${TRESTLE:-build/tools/trestle/trestle}
R="redis://127.0.0.1:$port/0"
common=(--nodes 10 --size 64 --warmup 1s --duration 3s)
mkdir -p "$out"; : > "$out/gap.jsonl"
run() {  # NAME ARGS...
  local name=$1; shift
  redis-cli -p "$port" flushall >/dev/null
  "$B" bench "${common[@]}" "$@" --json /tmp/gap.json >/dev/null 2>&1
  sed "s/^{/{\"config\":\"$name\",\"rep\":$rep,/" /tmp/gap.json >> "$out/gap.jsonl"
}
for rep in 1 2 3; do
  run across-closed --daemons 2 --peers across --store "$R" --rate max --window 32
  run any-closed --daemons 2 --peers any --store "$R" --rate max --window 32
  run memory-closed --store memory --rate max --window 32
  run across-open --daemons 2 --peers across --store "$R" --rate 1000
  run redis-open --store "$R" --rate 1000
done
