#!/usr/bin/env bash
# The gateway's own cost (docs/benchmarks.md, "Namespace gateway"), as root:
#   1. ping round trip through the ghost simulator (no modelled time): the
#      bridge's floor for a packet, both ways;
#   2. ping over modelled 6 ms legs (fabric, dragonfly, 2 ms links): how far
#      above the modelled 12 ms the round trip is;
#   3. iperf3 TCP throughput through the ghost: packets per second the
#      bridge carries for one stream.
#
#   bench/gateway/run.sh [BUILD_DIR]   (PINGS=1000 SECONDS_IPERF=10)
set -euo pipefail

build=${1:-build}
pings=${PINGS:-1000}
iperf_seconds=${SECONDS_IPERF:-10}
[[ $(id -u) -eq 0 && -c /dev/net/tun ]] || { echo "needs root and /dev/net/tun" >&2; exit 1; }
work=$(mktemp -d /tmp/trestle-gateway-bench.XXXXXX)
prefix="gwb$$-"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
printf 'n0: 10.77.0.1\nn1: 10.77.0.2\n' >"$work/gateway.yaml"
printf 'n0: 0\nn1: 2\n' >"$work/endpoints.yaml"
in_node() { local n=$1; shift; "$build/tools/trestle/trestle" gateway run "$n" --netns-prefix "$prefix" -- "$@"; }

# setup SIM_ARGS...: a fresh daemon, simulator and two gateways.
setup() {
  cleanup_run
  rm -f "$work/port"
  "$build/daemon/trestled" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 \
    --port-file "$work/port" --time-mode wallclock --log-level warn &
  pids+=($!)
  for _ in $(seq 200); do [[ -s "$work/port" ]] && break; sleep 0.05; done
  daemon="127.0.0.1:$(head -n1 "$work/port")"
  "$build/sim-adapters/trestle-sim" "$@" --daemon "$daemon" 2>"$work/sim.log" &
  pids+=($!)
  for _ in $(seq 200); do grep -q connected "$work/sim.log" && break; sleep 0.05; done
  for node in n0 n1; do
    "$build/gateway/trestle-gateway" --node "$node" --config "$work/gateway.yaml" --daemon "$daemon" \
      --netns-prefix "$prefix" >"$work/gw-$node.log" 2>&1 &
    pids+=($!)
  done
  for node in n0 n1; do
    for _ in $(seq 100); do [[ -n $(ip -n "$prefix$node" link show trestle0 up 2>/dev/null) ]] && break; sleep 0.05; done
  done
}
cleanup_run() {
  for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
ping_line() { in_node n0 ping -n -q -c "$pings" -i 0.005 10.77.0.2 | tail -n 1; }

setup ghost
echo "ghost, $pings pings:        $(ping_line)"
in_node n1 iperf3 -s -1 -B 10.77.0.2 >/dev/null 2>&1 &
pids+=($!)
sleep 0.3
echo "ghost, iperf3 ${iperf_seconds} s:      $(in_node n0 iperf3 -c 10.77.0.2 -t "$iperf_seconds" | grep receiver)"
setup fabric --topology dragonfly:p=2,a=2,h=1,g=3 --link-latency 2ms --map "$work/endpoints.yaml"
echo "fabric 2 x 6 ms, $pings pings: $(ping_line)"
cleanup_run
grep -h '^gateway' "$work"/gw-*.log
