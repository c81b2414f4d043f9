#!/usr/bin/env bash
# Runs the bridge-overhead benchmarks of docs/benchmarks.md and writes their
# output to OUT_DIR: Markdown tables (*.md), JSON Lines (*.jsonl), progress
# (*.log) and the machine's load before and after each step (load.txt).
#
#   bench/load/run_all.sh BUILD_DIR [DURATION] [OUT_DIR]
#
# DURATION applies to each configuration (default 10s); OUT_DIR defaults to
# a new directory under /tmp, printed at the start.
set -uo pipefail
build=${1:?usage: run_all.sh BUILD_DIR [DURATION] [OUT_DIR]}
duration=${2:-10s}
out=${3:-$(mktemp -d /tmp/trestle-bench.XXXXXX)}
mkdir -p "$out"
echo "run_all.sh: output in $out"
trestle="$build/tools/trestle/trestle"

step() {
  local name=$1; shift
  echo "$name before: $(uptime)" >> "$out/load.txt"
  "$trestle" bench "$@" --json "$out/$name.jsonl" > "$out/$name.md" 2> "$out/$name.log"
  echo "$name exit $?" >> "$out/load.txt"
  echo "$name after: $(uptime)" >> "$out/load.txt"
}

: > "$out/load.txt"
step nsb2 --matrix nsb2 --duration "$duration"
# The same grid in PUSH, for comparison (NSB's figures are PULL's).
step nsb2-push --matrix nsb2 --mode push --duration "$duration"
# scale and cliff give each client one shared connection (PUSH): 10,000
# clients with three each would need 30,000 descriptors in the daemon.
step scale --matrix scale --duration "$duration"
# The cliff target at one message rate: 100 up to 10,000 clients. Single
# runs of it disagree several-fold on this machine: the median of three.
step cliff --matrix cliff --repeat 3 --duration "$duration"
# Idle CPU with every client in PULL mode (long-polls outstanding). PULL
# apps cannot share a connection, so 5,000 is the most 20,000 files allow.
step idle-pull --nodes 5000 --rate 100 --duration 1s --mode pull --idle 5s

# The nsb2 grid with the payloads in a private redis-server.
redis_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis_dir=$(mktemp -d)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$redis_dir" --daemonize no > "$redis_dir/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 50); do redis-cli -p "$redis_port" ping > /dev/null 2>&1 && break; sleep 0.1; done
step nsb2-redis --matrix nsb2 --duration "$duration" --store "redis://127.0.0.1:$redis_port/0"
kill "$redis_pid"; wait "$redis_pid" 2> /dev/null; rm -rf "$redis_dir"
echo "daemon_bench before: $(uptime)" >> "$out/load.txt"
"$build/bench/daemon/daemon_bench" --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true > "$out/daemon_bench.txt" 2>&1
echo "daemon_bench after: $(uptime)" >> "$out/load.txt"
