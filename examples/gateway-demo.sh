#!/usr/bin/env bash
# The gateway part of `make demo` (docs/gateway.md): real ping between two
# network namespaces whose packets cross a simulated dragonfly. A wallclock
# trestled, trestle-sim fabric on dragonfly:p=2,a=2,h=1,g=3 with 2 ms links,
# and three trestle-gateway nodes; ping from n0 to a node in its group (3
# links each way: 12 ms modelled round trip) and to one in another group,
# with the round trips the model gave. Needs root and /dev/net/tun: without
# them it says so and exits 0. Stops what it started.
#
#   examples/gateway-demo.sh [BUILD_DIR]
set -euo pipefail

build=${1:-build}
if [[ $(id -u) -ne 0 || ! -c /dev/net/tun ]]; then
  echo "gateway demo skipped: it needs root and /dev/net/tun (network namespaces and TUN devices)"
  exit 0
fi
work=$(mktemp -d /tmp/trestle-gateway-demo.XXXXXX)
prefix="demo$$-"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

printf 'n0: 10.77.0.1\nn1: 10.77.0.2\nn2: 10.77.0.3\n' >"$work/gateway.yaml"
printf 'n0: 0\nn1: 2\nn2: 11\n' >"$work/endpoints.yaml"
"$build/daemon/trestled" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 \
  --port-file "$work/port" --time-mode wallclock --log-level warn &
pids+=($!)
for _ in $(seq 200); do [[ -s "$work/port" ]] && break; sleep 0.05; done
daemon="127.0.0.1:$(head -n1 "$work/port")"
"$build/sim-adapters/trestle-sim" fabric --daemon "$daemon" --topology dragonfly:p=2,a=2,h=1,g=3 \
  --link-latency 2ms --map "$work/endpoints.yaml" 2>"$work/fabric.log" &
pids+=($!)
for _ in $(seq 200); do grep -q connected "$work/fabric.log" && break; sleep 0.05; done
for node in n0 n1 n2; do
  "$build/gateway/trestle-gateway" --node "$node" --config "$work/gateway.yaml" --daemon "$daemon" \
    --netns-prefix "$prefix" >"$work/gw-$node.log" 2>&1 &
  pids+=($!)
done
for node in n0 n1 n2; do
  for _ in $(seq 100); do [[ -n $(ip -n "$prefix$node" link show trestle0 up 2>/dev/null) ]] && break; sleep 0.05; done
done

echo
echo "Gateway: ping between network namespaces over a simulated dragonfly"
echo "(dragonfly:p=2,a=2,h=1,g=3, 2 ms links; n0 on endpoint 0, n1 on 2 (same group), n2 on 11)."
pings=()
for target in "n1 10.77.0.2" "n2 10.77.0.3"; do
  read -r node ip <<<"$target"
  pings+=("$("$build/tools/trestle/trestle" gateway run n0 --netns-prefix "$prefix" -- \
    ping -n -q -c 10 -i 0.05 "$ip" | tail -n 1)")
done
for pid in "${pids[@]:2}"; do kill -INT "$pid"; wait "$pid" 2>/dev/null || true; done
pids=("${pids[@]:0:2}")
i=0
for node in n1 n2; do
  # The paths are symmetric: the way back costs what the way there did.
  mean_ms=$(sed -n 's/.* latency_mean_us=\([^ ]*\).*/\1/p' "$work/gw-$node.log" | awk '{print $1 / 1000}')
  echo "  n0 -> $node: modelled round trip 2 x $mean_ms ms; ping: ${pings[$i]}"
  i=$((i + 1))
done
echo "(each packet is written into the destination's TUN at t_send + its modelled latency;"
echo " the bridge's own delay is hidden inside that)"
