#!/usr/bin/env bash
# make demo: starts trestled on a free loopback port, the ghost simulator and
# the ping-pong example, prints a short summary; then, in lockstep time, a ring
# all-reduce of ranks on a dragonfly and on a torus through the fabric model,
# with their modelled times and the offline sweep's, and the same all-reduce by
# an unmodified mpi4py program through trestle mpirun; then (as root) ping
# between two gateway nodes over the simulated dragonfly; stops what it started.
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

# Lockstep time: a ring all-reduce through the fabric model, on two networks.
ranks=${DEMO_RANKS:-16}
ar_size=${DEMO_AR_SIZE:-1MiB}
for ((i = 0; i < ranks; i++)); do echo "rank-$i: $i"; done >"$work/map.yaml"
allreduce() {  # topology: a fresh lockstep daemon and adapter, the ranks on one loop
  rm -f "$work/port2"
  "$build/daemon/trestled" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 \
    --port-file "$work/port2" --log-level warn --time-mode lockstep --lockstep-apps "$ranks" &
  pids+=($!)
  for _ in $(seq 200); do [[ -s "$work/port2" ]] && break; sleep 0.05; done
  local d="127.0.0.1:$(head -n1 "$work/port2")"
  "$build/sim-adapters/trestle-sim" fabric --daemon "$d" --topology "$1" --map "$work/map.yaml" \
    --link-bw 400Gbps --link-latency 500ns 2>"$work/fabric.log" &
  pids+=($!)
  for _ in $(seq 200); do grep -q connected "$work/fabric.log" && break; sleep 0.05; done
  local live offline
  live=$("$build/examples/ring-allreduce/trestle-ring-allreduce" --daemon "$d" --ranks "$ranks" \
    --size "$ar_size" --quiet | sed -n 's/.* max_t_ns=\([0-9]*\).*/\1/p')
  offline=$("$build/sim-adapters/trestle-sim" sweep --backend fabric --topology "$1" \
    --collective allreduce --algorithm ring --sizes "$ar_size" --ranks "$ranks" \
    --link-bw 400Gbps --link-latency 500ns --csv "$work/sweep.csv" >/dev/null &&
    tail -n1 "$work/sweep.csv" | sed 's/.*,//')
  printf '  %-26s live (lockstep) %8.3f us   offline sweep %8.3f us\n' "$1" \
    "$(awk "BEGIN {print $live / 1000}")" "$(awk "BEGIN {print $offline / 1000}")"
}
echo
echo "Lockstep time: $ranks ranks (rank-i on endpoint i) run a ring all-reduce of $ar_size,"
echo "2 x $((ranks - 1)) steps, through trestled and the fabric model (400 Gbps, 500 ns links):"
allreduce "dragonfly:p=4,a=4,h=2,g=5"
allreduce "torus:4x4x4"
echo
echo "(the sweep replays the ranks as they run live, each waiting for the data it needs,"
echo " through the same model: the two times are equal)"

# An unmodified MPI program on the dragonfly: mpi4py ranks preloaded with
# libtrestle-mpi by trestle mpirun (docs/mpi.md), timing themselves with MPI.Wtime.
if [[ -e "$build/mpi/libtrestle-mpi.so" ]] && command -v mpirun >/dev/null &&
   /usr/bin/python3 -c 'import mpi4py' 2>/dev/null; then
  echo
  echo "An unmodified MPI program: $ranks mpi4py ranks (examples/mpi/allreduce.py) all-reduce"
  echo "1 MiB with MPI_Allreduce through trestle mpirun, the ring mirrored on the same dragonfly:"
  "$build/tools/trestle/trestle" mpirun --topology "dragonfly:p=4,a=4,h=2,g=5" \
    --link-bw 400Gbps --link-latency 500ns --coll allreduce=ring -- \
    mpirun --allow-run-as-root --oversubscribe -np "$ranks" \
    /usr/bin/python3 "$(dirname "$0")/mpi/allreduce.py" 1048576 |
    sed -n 's/.* max_t_ns=\([0-9]*\).* data=\(.*\)/\1 \2/p' |
    awk '{printf "  MPI.Wtime of the slowest rank %8.3f us, data %s (the same as the live ring and the sweep)\n", $1 / 1000, $2}'
fi

# The namespace gateway: ping through the simulated dragonfly (root only).
bash "$(dirname "$0")/gateway-demo.sh" "$build"
