#!/usr/bin/env bash
# Lockstep under contention: the ring all-reduce as one process per
# rank (trestle-ring-allreduce --rank K), through trestled and
# `trestle-sim fabric --model flow`, in lockstep and in virtual time,
# alternated, RUNS times each, on each topology given. Every run gets a fresh
# daemon and simulator, so the daemon's counters (rank 0's --stats) describe
# that run alone; time-control frames per message = (grants + reached + clocks
# + wakes) / delivered.
#
#   bench/lockstep/contention.sh BUILD_DIR [RUNS] [TOPOLOGY...]
#
# TOPOLOGY defaults to "dragonfly:p=4,a=4,h=2,g=5" and "torus:4x4".
# Env: RANKS (default 16), SIZE (default 1MiB), LINK_BW (400Gbps),
# LINK_LATENCY (500ns).
# Prints one line per run, then the medians per topology and mode:
#   TOPOLOGY MODE wall_ms=... frames_per_msg=... grants=... delivered=... t_ns=... verified=K/N
# wall_ms is from the moment every rank is started until every rank has exited;
# verified counts the ranks whose reduced data is right (virtual time is not
# causal, so a chunk can overtake the one before it: expect fewer there).
set -euo pipefail

build=${1:?usage: contention.sh BUILD_DIR [RUNS] [TOPOLOGY...]}
runs=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
topologies=("$@")
[[ ${#topologies[@]} -gt 0 ]] || topologies=("dragonfly:p=4,a=4,h=2,g=5" "torus:4x4")
ranks=${RANKS:-16}
size=${SIZE:-1MiB}
work=$(mktemp -d /tmp/trestle-lockstep-contention.XXXXXX)
source "$(dirname "$0")/processes.sh"
trap 'cleanup; [[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT INT TERM

one() {  # topology mode
  local args=(--admin-listen 127.0.0.1:0 --time-mode "$2")
  [[ $2 == lockstep ]] && args+=(--lockstep-apps "$ranks")
  start_daemon "${args[@]}"
  start_sim fabric --model flow --topology "$1" \
    --link-bw "${LINK_BW:-400Gbps}" --link-latency "${LINK_LATENCY:-500ns}"
  local t0 t1 k rank_pids=()
  t0=$(date +%s%N)
  for ((k = 0; k < ranks; k++)); do
    local extra=()
    ((k == 0)) && extra=(--stats)
    "$build/examples/ring-allreduce/trestle-ring-allreduce" --daemon "$daemon" --ranks "$ranks" \
      --size "$size" --rank "$k" --time-mode "$2" "${extra[@]}" >"$work/rank$k.out" \
      2>"$work/rank$k.err" &
    rank_pids+=($!)
  done
  for pid in "${rank_pids[@]}"; do wait "$pid" || true; done
  t1=$(date +%s%N)
  cleanup
  # A rank exits 1 when its data did not verify (virtual time is not causal:
  # a later chunk can overtake an earlier one), and on any failure, which it
  # prints.
  if cat "$work"/rank*.err | grep -q . || ! grep -q '^summary:' "$work/rank0.out"; then
    echo "$1 $2 FAILED:" >&2; cat "$work"/rank*.err >&2; return 1
  fi
  local summary stats
  summary=$(grep '^summary:' "$work/rank0.out"); stats=$(grep '^stats:' "$work/rank0.out" || true)
  printf '%s %-8s wall_ms=%.1f frames_per_msg=%s grants=%s delivered=%s t_ns=%s verified=%s\n' \
    "$1" "$2" "$(awk "BEGIN {print ($t1 - $t0) / 1e6}")" "$(field per_message "$stats")" \
    "$(field grants "$stats")" "$(field delivered "$stats")" "$(field max_t_ns "$summary")" \
    "$(cat "$work"/rank*.out | grep -c 'verified=yes')/$ranks"
}

results="$work/results"
for ((r = 0; r < runs; r++)); do
  if ((r % 2 == 0)); then order=(virtual lockstep); else order=(lockstep virtual); fi
  for topo in "${topologies[@]}"; do
    for m in "${order[@]}"; do one "$topo" "$m" | tee -a "$results"; done
  done
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "== medians of $runs runs ($ranks ranks, $size)"
for topo in "${topologies[@]}"; do
  for m in virtual lockstep; do
    lines=$(grep -F "$topo $m " "$results" || true)
    [[ -n $lines ]] || continue
    printf '%s %-8s' "$topo" "$m"
    for key in wall_ms frames_per_msg grants delivered t_ns; do
      printf ' %s=%s' "$key" "$(sed -n "s/.* $key=\([^ ]*\).*/\1/p" <<<"$lines" | grep -v '^$' | median)"
    done
    echo
  done
done
