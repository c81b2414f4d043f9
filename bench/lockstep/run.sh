#!/usr/bin/env bash
# Lockstep against virtual time: ping-pong and the ring all-reduce through
# trestled and trestle-sim, RUNS times each, the two modes alternating (so
# drift in the machine's load hits both). Every run gets a fresh daemon and
# simulator, so the daemon's counters (--stats) describe that run alone.
#
#   bench/lockstep/run.sh BUILD_DIR [RUNS] [SIM...]
#
# SIM defaults to: fabric --topology ring:8 --link-bw 400Gbps --link-latency 500ns
# (unaware model, lookahead 500 ns); "ghost" gives zero lookahead.
# Env: PP_COUNT (round trips per ping-pong run, default 2000), AR_RANKS
# (default 8), AR_SIZE (default 64KiB).
# Prints one line per run and then the medians:
#   pingpong MODE wall_us_per_rtt=... p50_us=... frames_per_msg=...
#   allreduce MODE wall_ms=... wall_us_per_step=... frames_per_msg=... t_ns=...
set -euo pipefail

build=${1:?usage: run.sh BUILD_DIR [RUNS] [SIM...]}
runs=${2:-7}
shift $(( $# >= 2 ? 2 : 1 ))
sim=("$@")
[[ ${#sim[@]} -gt 0 ]] || sim=(fabric --topology ring:8 --link-bw 400Gbps --link-latency 500ns)
pp_count=${PP_COUNT:-2000}
ar_ranks=${AR_RANKS:-8}
ar_size=${AR_SIZE:-64KiB}
work=$(mktemp -d /tmp/trestle-lockstep-bench.XXXXXX)
source "$(dirname "$0")/processes.sh"
trap 'cleanup; rm -rf "$work"' EXIT INT TERM

start() {  # time-mode lockstep-apps: starts trestled and the simulator; sets $daemon
  local args=(--admin-listen 127.0.0.1:0 --time-mode "$1")
  [[ $1 == lockstep ]] && args+=(--lockstep-apps "$2")
  start_daemon "${args[@]}"
  start_sim "${sim[@]}"
}

pingpong() {  # mode
  start "$1" 2
  local flag=() t0 t1 out
  [[ $1 == lockstep ]] && flag=(--lockstep)
  t0=$(date +%s%N)
  out=$("$build/examples/ping-pong/trestle-ping-pong" --daemon "$daemon" --count "$pp_count" \
        --quiet --stats "${flag[@]}")
  t1=$(date +%s%N)
  cleanup
  local summary stats
  summary=$(grep '^summary:' <<<"$out"); stats=$(grep '^stats:' <<<"$out")
  # Wall time per round trip over the whole process (start and connect
  # included, once); p50_us is ping-pong's own median round trip.
  printf 'pingpong %-8s wall_us_per_rtt=%.1f p50_us=%s frames_per_msg=%s virtual_ns=%s\n' "$1" \
    "$(awk "BEGIN {print ($t1 - $t0) / 1000 / $pp_count}")" "$(field p50_us "$summary")" \
    "$(field per_message "$stats")" "$(field virtual_ns "$summary")"
}

allreduce() {  # mode
  start "$1" "$ar_ranks"
  local out
  out=$("$build/examples/ring-allreduce/trestle-ring-allreduce" --daemon "$daemon" \
        --ranks "$ar_ranks" --size "$ar_size" --time-mode "$1" --quiet --stats)
  cleanup
  local summary stats steps
  summary=$(grep '^summary:' <<<"$out"); stats=$(grep '^stats:' <<<"$out")
  steps=$(field steps "$summary")
  printf 'allreduce %-8s wall_ms=%s wall_us_per_step=%.1f frames_per_msg=%s t_ns=%s\n' "$1" \
    "$(field wall_ms "$summary")" "$(awk "BEGIN {print $(field wall_ms "$summary") * 1000 / $steps}")" \
    "$(field per_message "$stats")" "$(field max_t_ns "$summary")"
}

results="$work/results"
for ((r = 0; r < runs; r++)); do
  # Alternate which mode goes first.
  if ((r % 2 == 0)); then order=(virtual lockstep); else order=(lockstep virtual); fi
  for m in "${order[@]}"; do pingpong "$m" | tee -a "$results"; done
  for m in "${order[@]}"; do allreduce "$m" | tee -a "$results"; done
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "== medians of $runs runs (sim: ${sim[*]})"
for kind in pingpong allreduce; do
  for m in virtual lockstep; do
    lines=$(grep "^$kind $m " "$results")
    printf '%s %-8s' "$kind" "$m"
    for key in $(grep -o '[a-z0-9_]*=' <<<"$(head -n1 <<<"$lines")" | tr -d =); do
      printf ' %s=%s' "$key" "$(sed -n "s/.* $key=\([^ ]*\).*/\1/p" <<<"$lines" | median)"
    done
    echo
  done
done
