#!/usr/bin/env bash
# libtrestle-mpi's own cost (docs/mpi.md, docs/benchmarks.md): a program of
# ITERS small MPI_Allreduce calls (one double) on RANKS ranks, under plain
# mpirun and under `trestle mpirun` (lockstep time, the congestion-unaware
# fabric model on a switch of RANKS endpoints, 400 Gbit/s and 500 ns links),
# RUNS times each, the two alternating so that drift in the machine's load
# hits both. Prints one line per run, then the medians, their ratio, and
# the layer's cost per mirrored message (each recursive-doubling all-reduce
# mirrors log2(RANKS) messages per rank, whole or step by step).
#
#   bench/mpi/layer_cost.sh BUILD_DIR [RUNS]
#
# Env: RANKS (default 16), ITERS (default 10000), MIRROR (trestle mpirun
# --mirror: auto, the default, mirrors collectives whole; steps), MODEL
# (trestle mpirun --model: unaware, the default, or flow), FLAGS (more
# trestle mpirun flags, e.g. "--timeline /tmp/t.json").
set -euo pipefail

build=${1:?usage: layer_cost.sh BUILD_DIR [RUNS]}
runs=${2:-3}
ranks=${RANKS:-16}
iters=${ITERS:-10000}
mirror=${MIRROR:-auto}
model=${MODEL:-unaware}
read -r -a flags <<< "${FLAGS:-}"
work=$(mktemp -d /tmp/trestle-layer-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/small_allreduce" "$(dirname "$0")/small_allreduce.c"
mpirun=(mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$work/small_allreduce" "$iters")

wall() { sed -n 's/.* wall_s=\([0-9.]*\).*/\1/p'; }
plain=() layered=()
for ((i = 1; i <= runs; i++)); do
  p=$("${mpirun[@]}" | wall)
  l=$("$build/tools/trestle/trestle" mpirun --topology "switch:$ranks" --link-bw 400Gbps \
        --link-latency 500ns --model "$model" --mirror "$mirror" --quiet "${flags[@]}" -- "${mpirun[@]}" | wall)
  echo "run $i: plain mpirun ${p} s, trestle mpirun ${l} s"
  plain+=("$p") layered+=("$l")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
mp=$(median "${plain[@]}") ml=$(median "${layered[@]}")
steps=$(awk -v n="$ranks" 'BEGIN {k = 0; while (2 ^ k < n) k++; print k}')
awk -v mp="$mp" -v ml="$ml" -v it="$iters" -v r="$ranks" -v k="$steps" 'BEGIN {
  printf "median: plain %.3f s (%.1f us per call), trestle mpirun %.3f s (%.1f us per call): %.2fx\n",
         mp, mp / it * 1e6, ml, ml / it * 1e6, ml / mp
  printf "layer cost: %.1f us per call, %.1f us per mirrored message of a rank, %.2f us per mirrored message of the run\n",
         (ml - mp) / it * 1e6, (ml - mp) / it / k * 1e6, (ml - mp) / it / (k * r) * 1e6
}'
