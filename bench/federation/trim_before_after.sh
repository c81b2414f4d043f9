#!/bin/bash
# Peer streams: an XDEL per acknowledged entry (before) against one XTRIM MINID per
# 100 ms (after), alternated; the same trestle and trestle-sim; a private redis-server.
# Usage: trim_before_after.sh BEFORE_TRESTLED AFTER_TRESTLED OUT_DIR [PORT]
#   TRESTLE=path of trestle (default: build/tools/trestle/trestle)
set -euo pipefail
before=$1 after=$2 out=$3 port=${4:-6399}
B=${TRESTLE:-build/tools/trestle/trestle}
mkdir -p "$out"; : > "$out/closed.jsonl"; : > "$out/open.jsonl"; : > "$out/redis.txt"
for i in 1 2 3 4 5; do
  for side in before after; do
    d=$before; [ $side = after ] && d=$after
    redis-cli -p "$port" flushall >/dev/null; redis-cli -p "$port" config resetstat >/dev/null
    "$B" bench --trestled "$d" --daemons 2 --peers across --store "redis://127.0.0.1:$port/0" \
      --nodes 10 --rate max --window 32 --duration 3s --warmup 1s --json /tmp/ft.json >/dev/null 2>&1
    sed "s/^{/{\"side\":\"$side\",\"run\":$i,/" /tmp/ft.json >> "$out/closed.jsonl"
    echo "$side $i $(redis-cli -p "$port" info commandstats | grep -E 'xdel|xtrim|xadd|eval:|xack' | tr '\r\n' '  ')" >> "$out/redis.txt"
    "$B" bench --trestled "$d" --daemons 2 --peers across --store "redis://127.0.0.1:$port/0" \
      --nodes 10 --rate 1000 --duration 3s --warmup 1s --json /tmp/ft.json >/dev/null 2>&1
    sed "s/^{/{\"side\":\"$side\",\"run\":$i,/" /tmp/ft.json >> "$out/open.jsonl"
  done
done
