#!/usr/bin/env bash
# Live equals offline: the all-reduce example with every rank in
# one process, in lockstep time (`trestle-ring-allreduce --ranks N --size S
# --algorithm A --time-mode lockstep --stats` against `trestled --time-mode
# lockstep --lockstep-apps N` and `trestle-sim fabric --link-bw --link-latency
# --topology T --model M`, no --map), against `trestle-sim sweep` (dataflow
# timing) on the same topology and model, RUNS times per case. Every run gets
# a fresh daemon and adapter.
#
#   bench/lockstep/live_vs_sweep.sh BUILD_DIR [RUNS] [CASE...]
#
# CASE is RANKS/ALGORITHM/MODEL/TOPOLOGY, e.g. 64/ring/flow/torus:8x8. The
# default cases: 64 ranks of ring, halving-doubling and direct, unaware and
# flow, on torus:8x8; 256 ranks of ring, flow, on torus:16x16, fattree:k=16
# and slingshot-1k.
# Env: SIZE (1MiB), LINK_BW (400Gbps), LINK_LATENCY (500ns), ORDERING
# (connection: the adapter's and the sweep's --ordering), TIMEOUT_MS
# (3600000: the example's wall-clock bound), SWEEP_ONLY=1 (no live runs).
# Prints one line per run:
#   CASE run=K live_ns=... sweep_ns=... diff=...% verified=yes|no wall_s=... sweep_s=... frames_per_msg=...
# and one per case: identical over its runs or not, and the largest |diff|.
# Exits 1 if a live run failed or did not verify (with --ordering message
# that is what it shows).
set -euo pipefail

build=${1:?usage: live_vs_sweep.sh BUILD_DIR [RUNS] [CASE...]}
runs=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
cases=("$@")
if [[ ${#cases[@]} -eq 0 ]]; then
  for model in unaware flow; do
    for algorithm in ring halving-doubling direct; do cases+=("64/$algorithm/$model/torus:8x8"); done
  done
  cases+=(256/ring/flow/torus:16x16 256/ring/flow/fattree:k=16 256/ring/flow/slingshot-1k)
fi
size=${SIZE:-1MiB}
links=(--link-bw "${LINK_BW:-400Gbps}" --link-latency "${LINK_LATENCY:-500ns}")
ordering=${ORDERING:-connection}
work=$(mktemp -d /tmp/trestle-live-vs-sweep.XXXXXX)
failed=0
source "$(dirname "$0")/processes.sh"
trap 'cleanup; [[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT INT TERM
seconds_since() { awk "BEGIN {printf \"%.2f\", ($(date +%s%N) - $1) / 1e9}"; }

sweep() {  # ranks algorithm model topology -> prints time_ns
  "$build/sim-adapters/trestle-sim" sweep --backend fabric --collective allreduce \
    --algorithm "$2" --model "$3" --topology "$4" --ranks "$1" --sizes "$size" \
    --ordering "$ordering" "${links[@]}" --csv "$work/sweep.csv" >/dev/null
  tail -n1 "$work/sweep.csv" | awk -F, '{print $NF}'
}

live() {  # ranks algorithm model topology -> prints the example's output
  start_daemon --admin-listen "" --time-mode lockstep --lockstep-apps "$1"
  start_sim fabric --model "$3" --topology "$4" --ordering "$ordering" "${links[@]}"
  "$build/examples/ring-allreduce/trestle-ring-allreduce" --daemon "$daemon" --ranks "$1" \
    --size "$size" --algorithm "$2" --time-mode lockstep --stats --quiet \
    --timeout-ms "${TIMEOUT_MS:-3600000}" 2>&1 && echo "exit=0" || echo "exit=$?"
  cleanup
}

for c in "${cases[@]}"; do
  IFS=/ read -r ranks algorithm model topology <<<"$c"
  times=()
  worst=0
  for ((run = 1; run <= runs; run++)); do
    t0=$(date +%s%N)
    sweep_ns=$(sweep "$ranks" "$algorithm" "$model" "$topology")
    sweep_s=$(seconds_since "$t0")
    if [[ -n ${SWEEP_ONLY:-} ]]; then
      echo "$c run=$run sweep_ns=$sweep_ns sweep_s=$sweep_s"
      times+=("$sweep_ns")
      continue
    fi
    t0=$(date +%s%N)
    out=$(live "$ranks" "$algorithm" "$model" "$topology")
    wall_s=$(seconds_since "$t0")
    summary=$(grep '^summary:' <<<"$out" || true)
    stats=$(grep '^stats:' <<<"$out" || true)
    live_ns=$(field max_t_ns "$summary")
    verified=no
    # The example exits 0 only if every rank finished and its data added up.
    if [[ -n $live_ns ]] && grep -q '^exit=0$' <<<"$out"; then verified=yes; fi
    [[ $verified == yes ]] || { failed=1; live_ns=${live_ns:-0}; echo "$out" | tail -n 3 >&2; }
    diff=$(awk "BEGIN {printf \"%.4f\", ($live_ns - $sweep_ns) / $sweep_ns * 100}")
    worst=$(awk "BEGIN {d = $diff < 0 ? -$diff : $diff; print (d > $worst ? d : $worst)}")
    echo "$c run=$run live_ns=$live_ns sweep_ns=$sweep_ns diff=$diff% verified=$verified" \
         "wall_s=$wall_s sweep_s=$sweep_s frames_per_msg=$(field per_message "$stats")"
    times+=("$live_ns/$sweep_ns")
  done
  distinct=$(printf '%s\n' "${times[@]}" | sort -u | wc -l)
  echo "$c: $([[ $distinct -eq 1 ]] && echo identical || echo DIFFERENT) over $runs runs," \
       "largest |diff| ${worst}%"
done
exit "$failed"
