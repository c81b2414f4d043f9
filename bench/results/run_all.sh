#!/usr/bin/env bash
# Runs the bridge-overhead benchmarks of docs/benchmarks.md and keeps their
# output here: Markdown tables (*.md), JSON Lines (*.jsonl), progress (*.log)
# and the machine's load before and after each step (load.txt).
#
#   bench/results/run_all.sh BUILD_DIR [DURATION]
#
# DURATION applies to each configuration (default 10s).
set -uo pipefail
build=${1:?usage: run_all.sh BUILD_DIR [DURATION]}
duration=${2:-10s}
out=$(cd "$(dirname "$0")" && pwd)
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
step scale --matrix scale --duration "$duration"
# The cliff target at one message rate: 100 clients up to the most this
# machine's open-file limit allows (6,500; see docs/benchmarks.md).
step cliff --matrix cliff --duration "$duration"
# Idle CPU with every client in PULL mode (long-polls outstanding).
step idle-pull --nodes 5000 --rate 100 --duration 1s --mode pull --idle 5s
echo "daemon_bench before: $(uptime)" >> "$out/load.txt"
"$build/bench/daemon/daemon_bench" --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true > "$out/daemon_bench.txt" 2>&1
echo "daemon_bench after: $(uptime)" >> "$out/load.txt"
