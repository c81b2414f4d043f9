#!/usr/bin/env bash
# Lockstep at scale: the ring all-reduce of SIZE bytes live (trestled
# --time-mode lockstep, trestle-sim fabric, trestle-ring-allreduce) at 16,
# 64, 256 and 1,024 ranks, all ranks in one process (a lane each of one
# connection) and one process per rank (up to PER_RANK_MAX ranks), with the
# unaware and the flow model, on a torus, a fat tree and a dragonfly; and the
# same collective priced offline (trestle-sim sweep) on the same model.
# Rank K sits on endpoint K in both (a --map file for the live adapter).
#
#   bench/lockstep/scale.sh BUILD_DIR [OUT_DIR]
#
# Env: RANKS ("16 64 256 1024"), MODELS ("unaware flow"), FAMILIES ("torus
# fattree dragonfly"), LAYOUTS ("one per-rank"), PER_RANK_MAX (64), SIZE
# (1MiB), LINK ("--link-bw 400Gbps --link-latency 500ns"), RUNS (1), TIMEOUT_S
# (600 per run).
# Per run, one line: wall time, CPU seconds of the daemon, the simulator and
# the ranks, the daemon's CPU per delivered message, time-control frames per
# message, the largest resident set of each process (the ranks' is their
# data too: SIZE per rank), how many ranks verified, and the modelled time
# live against offline. OUT_DIR/scale.md gets the table, scale.log the runs.
set -uo pipefail
build=${1:?usage: scale.sh BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d /tmp/trestle-scale.XXXXXX)}
RANKS=${RANKS:-16 64 256 1024}
MODELS=${MODELS:-unaware flow}
FAMILIES=${FAMILIES:-torus fattree dragonfly}
LAYOUTS=${LAYOUTS:-one per-rank}
PER_RANK_MAX=${PER_RANK_MAX:-64}
SIZE=${SIZE:-1MiB}
LINK=${LINK:---link-bw 400Gbps --link-latency 500ns}
RUNS=${RUNS:-1}
TIMEOUT_S=${TIMEOUT_S:-600}
for bin in daemon/trestled sim-adapters/trestle-sim examples/ring-allreduce/trestle-ring-allreduce; do
  [[ -x $build/$bin ]] || { echo "scale.sh: $build/$bin is not built" >&2; exit 2; }
done
mkdir -p "$out"
work=$(mktemp -d /tmp/trestle-scale-run.XXXXXX)
source "$(dirname "$0")/processes.sh"
trap 'cleanup; rm -rf "$work"' EXIT INT TERM

topology() {  # family ranks
  case $1/$2 in
    torus/16) echo torus:4x4 ;;
    torus/64) echo torus:8x8 ;;
    torus/256) echo torus:16x16 ;;
    torus/1024) echo torus:32x32 ;;
    fattree/16) echo fattree:k=4 ;;
    fattree/64) echo fattree:k=8 ;;
    fattree/*) echo fattree:k=16 ;;
    dragonfly/16 | dragonfly/64) echo dragonfly:p=4,a=4,h=2,g=5 ;;
    dragonfly/*) echo slingshot-1k ;;
  esac
}

cpu_s() {  # pid: user+system seconds so far (children included once reaped)
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15 + $16 + $17) / hz}' "/proc/$1/stat"
}
rss_kib() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }

# One run: sets $line.
run() {  # ranks family model layout
  local n=$1 family=$2 model=$3 layout=$4 topo
  topo=$(topology "$family" "$n")
  rm -f "$work/map.yaml"
  for ((k = 0; k < n; k++)); do echo "rank-$k: $k" >>"$work/map.yaml"; done
  start_daemon --admin-listen '' --time-mode lockstep --lockstep-apps "$n"
  local dpid=$daemon_pid
  # shellcheck disable=SC2086
  start_sim fabric --topology "$topo" --model "$model" --map "$work/map.yaml" $LINK
  local spid=$sim_pid
  local ar=("$build/examples/ring-allreduce/trestle-ring-allreduce" --daemon "$daemon" --ranks "$n"
            --size "$SIZE" --time-mode lockstep --timeout-ms $((TIMEOUT_S * 1000)))
  local t0 t1 summary stats ranks_cpu ranks_rss verified dcpu0 scpu0
  # The daemon's and the simulator's CPU from here on: the run's, not their start's.
  dcpu0=$(cpu_s "$dpid"); scpu0=$(cpu_s "$spid")
  t0=$(date +%s%N)
  if [[ $layout == one ]]; then
    /usr/bin/time -f "%U %S %M" -o "$work/time" "${ar[@]}" --stats >"$work/ranks.out" 2>&1
    ranks_cpu=$(awk '{printf "%.2f", $1 + $2}' "$work/time")
    ranks_rss=$(awk '{print $3}' "$work/time")
  else
    local rpids=()
    for ((k = 0; k < n; k++)); do
      local extra=()
      [[ $k == 0 ]] && extra=(--stats)
      /usr/bin/time -f "%U %S %M" -o "$work/time.$k" "${ar[@]}" --rank "$k" "${extra[@]}" \
        >"$work/ranks.$k.out" 2>&1 & rpids+=($!)
    done
    for p in "${rpids[@]}"; do wait "$p"; done
    cat "$work"/ranks.*.out >"$work/ranks.out"
    ranks_cpu=$(cat "$work"/time.* | awk '{s += $1 + $2} END {printf "%.2f", s}')
    ranks_rss=$(cat "$work"/time.* | awk '$3 > m {m = $3} END {print m}')
  fi
  t1=$(date +%s%N)
  local dcpu scpu drss srss
  dcpu=$(awk -v a="$(cpu_s "$dpid")" -v b="$dcpu0" 'BEGIN {printf "%.2f", a - b}')
  scpu=$(awk -v a="$(cpu_s "$spid")" -v b="$scpu0" 'BEGIN {printf "%.2f", a - b}')
  drss=$(rss_kib "$dpid"); srss=$(rss_kib "$spid")
  cleanup
  summary=$(grep -m1 '^summary:' "$work/ranks.out")
  stats=$(grep -m1 '^stats:' "$work/ranks.out")
  verified=$(grep -c 'verified=yes' "$work/ranks.out")
  local live delivered per_msg offline
  live=$(sed -n 's/.* max_t_ns=\([0-9]*\).*/\1/p' <<<"$summary")
  delivered=$(sed -n 's/.*delivered=\([0-9]*\).*/\1/p' <<<"$stats")
  per_msg=$(sed -n 's/.*per_message=\([0-9.]*\).*/\1/p' <<<"$stats")
  # shellcheck disable=SC2086
  offline=$("$build/sim-adapters/trestle-sim" sweep --backend fabric --model "$model" \
             --topology "$topo" --collective allreduce --algorithm ring --sizes "$SIZE" \
             --ranks "$n" $LINK 2>/dev/null | awk 'NR == 2 {print $5}')
  local wall_ms=$(((t1 - t0) / 1000000))
  line=$(awk -v n="$n" -v topo="$topo" -v model="$model" -v layout="$layout" -v wall="$wall_ms" \
             -v dcpu="$dcpu" -v scpu="$scpu" -v rcpu="$ranks_cpu" -v msgs="${delivered:-0}" \
             -v fpm="${per_msg:-?}" -v drss="$drss" -v srss="$srss" -v rrss="$ranks_rss" \
             -v ver="$verified" -v live="${live:-0}" -v off="${offline:-0}" 'BEGIN {
      us = msgs > 0 ? dcpu * 1e6 / msgs : 0
      ratio = off > 0 ? live / off : 0
      printf "| %d | %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %d | %d | %d | %d/%d | %d | %.1f | %.4f |",
        n, topo, model, layout, wall / 1000, dcpu, scpu, rcpu, us, fpm,
        drss / 1024, srss / 1024, rrss / 1024, ver, n, live, off, ratio }')
}

header="| ranks | topology | model | layout | wall s | daemon CPU s | sim CPU s | ranks CPU s | daemon µs/msg | frames/msg | daemon MiB | sim MiB | ranks MiB (max) | verified | live ns | offline ns | live/offline |"
sep="|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "$header" | tee "$out/scale.md"
echo "$sep" | tee -a "$out/scale.md"
for n in $RANKS; do
  for family in $FAMILIES; do
    for model in $MODELS; do
      for layout in $LAYOUTS; do
        [[ $layout == per-rank && $n -gt $PER_RANK_MAX ]] && continue
        for ((r = 1; r <= RUNS; r++)); do
          run "$n" "$family" "$model" "$layout"
          echo "$line" | tee -a "$out/scale.md"
          echo "$(date -Is) $line" >>"$out/scale.log"
        done
      done
    done
  done
done
echo "scale.sh: $out/scale.md"
