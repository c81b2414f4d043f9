#!/usr/bin/env bash
# make demo: starts trestled on a free loopback port, the ghost simulator and
# the ping-pong example, prints a short summary, and stops what it started.
set -euo pipefail

build=${1:-build}
count=${DEMO_COUNT:-2000}
size=${DEMO_SIZE:-64}
work=$(mktemp -d /tmp/trestle-demo.XXXXXX)
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$build/daemon/trestled" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 \
  --port-file "$work/port" --log-level warn &
pids+=($!)
for _ in $(seq 200); do [[ -s "$work/port" ]] && break; sleep 0.05; done
[[ -s "$work/port" ]] || { echo "demo: trestled did not start" >&2; exit 1; }
daemon="127.0.0.1:$(head -n1 "$work/port")"

"$build/sim-adapters/trestle-sim" ghost --daemon "$daemon" 2>"$work/ghost.log" &
pids+=($!)

run() {  # mode flag...
  "$build/examples/ping-pong/trestle-ping-pong" --daemon "$daemon" --count "$count" \
    --size "$size" --quiet --ping-id "ping-$1" --pong-id "pong-$1" "${@:2}" | grep '^summary:'
}

echo "Trestle demo: two apps bounce $count messages of $size bytes through trestled"
echo "and the ghost simulator (which adds no simulated time), daemon at $daemon."
push=$(run push)
pull=$(run pull --pull)

summarize() {  # label summary-line
  local line=$2
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
  printf '  %-5s messages=%-6s lost=%-3s round trip p50=%7s us  p99=%7s us\n' \
    "$1" "$(field count)" "$(field lost)" "$(field p50_us)" "$(field p99_us)"
}
echo
summarize PUSH "$push"
summarize PULL "$pull"
echo
echo "(each round trip crosses the bridge twice: app -> daemon -> simulator -> daemon -> app)"
