#!/usr/bin/env bash
# The namespace gateway (issue 22): a TCP transfer of 10 MB completes intact
# over a lossy ns-3 link.
#
#   gateway_tcp_netns_test.sh TRESTLED TRESTLE_SIM TRESTLE TRESTLE_GATEWAY
#
# A trestled in wallclock time, trestle-sim ns3 on switch:2 (1 Gbps, 1 ms
# links; UDP transport, so each IP packet is one ns-3 datagram) with
# --loss-rate LOSS (default 0.02, drawn from seed 7; which packets it hits
# depends on the traffic, which TCP's timing changes run to run), and
# gateways n0 and n1. A Python receiver in n1
# hashes what it reads; a sender in n0 writes BYTES (default 10,000,000)
# random bytes. Checks: the receiver got every byte with the sender's
# SHA-256; the model really dropped packets (the adapter's "dropped (loss)"
# above 0, and equal to what the gateways sent minus what was delivered to
# them), so the kernel's TCP recovered them; nothing was dropped anywhere
# else. Exit codes and cleanup as gateway_ping_netns_test.sh.
set -euo pipefail

if [[ $# -ne 4 ]]; then
  echo "usage: $0 TRESTLED TRESTLE_SIM TRESTLE TRESTLE_GATEWAY" >&2
  exit 2
fi
readonly trestled=$1 sim=$2 cli=$3 gateway=$4
readonly tag="tgw$$"
readonly bytes=${BYTES:-10000000} loss=${LOSS:-0.02}
# shellcheck source=gateway_test_lib.sh
source "$(dirname "$0")/gateway_test_lib.sh"
gw_install_traps
for binary in "$trestled" "$sim" "$cli" "$gateway"; do
  [[ -x $binary ]] || fail "binary not found or not executable: $binary"
done
gw_require_root_and_tun
command -v python3 >/dev/null || fail "'python3' not found"

printf 'n0: 10.77.0.1\nn1: 10.77.0.2\n' >"$work/gateway.yaml"
printf 'n0: 0\nn1: 1\n' >"$work/endpoints.yaml"
head -c "$bytes" /dev/urandom >"$work/blob"
sent_sha=$(sha256sum "$work/blob" | cut -d' ' -f1)

gw_start_daemon
log "trestled at $daemon (wallclock); ns-3 on switch:2, 1 Gbps 1 ms links, udp, loss $loss"
start ns3 "$sim" ns3 --daemon "$daemon" --topology switch:2 --link-bw 1Gbps --link-latency 1ms \
  --transport udp --mtu 1600 --loss-rate "$loss" --seed 7 --map "$work/endpoints.yaml"
wait_until 10 "the ns-3 adapter to connect" grep -q connected "$work/ns3.log"
for node in n0 n1; do gw_start_gateway "$node"; done

# The receiver prints "BYTES SHA256" when the sender closes.
receiver='
import hashlib, socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.77.0.2", 5001)); s.listen(1)
print("listening", flush=True)
c, _ = s.accept(); h = hashlib.sha256(); n = 0
while True:
    b = c.recv(1 << 16)
    if not b: break
    h.update(b); n += len(b)
print(n, h.hexdigest(), flush=True)
'
sender='
import socket, sys
s = socket.create_connection(("10.77.0.2", 5001), timeout=10)
with open(sys.argv[1], "rb") as f: s.sendall(f.read())
s.close()
'
start receiver "$cli" gateway run n1 --config "$work/gateway.yaml" --netns-prefix "$tag-" -- \
  timeout 50 python3 -c "$receiver"
wait_until 10 "the receiver to listen in n1" grep -q listening "$work/receiver.log"
log "sending $bytes bytes n0 -> n1 over TCP"
t0=$SECONDS
in_node n0 timeout 50 python3 -c "$sender" "$work/blob" >"$work/sender.log" 2>&1 ||
  fail "step 'transfer': the sender failed: $(tail -n 3 "$work/sender.log" | tr '\n' ' ')"
wait_until 20 "the receiver to finish" grep -Eq '^[0-9]+ [0-9a-f]{64}$' "$work/receiver.log"
read -r got_bytes got_sha < <(grep -E '^[0-9]+ [0-9a-f]{64}$' "$work/receiver.log")
log "received $got_bytes bytes in about $((SECONDS - t0)) s"
[[ $got_bytes == "$bytes" && $got_sha == "$sent_sha" ]] ||
  fail "step 'transfer': received $got_bytes bytes with SHA-256 $got_sha, sent $bytes with $sent_sha"

for node in n0 n1; do stop "gw-$node"; done
stop ns3
for name in gw-n0 gw-n1 ns3; do log "$name: $(tail -n 1 "$work/$name.log")"; done

ns3_field() {  # ns3_field LABEL: the count before "LABEL" in the adapter's summary
  sed -n "s/.* \([0-9]*\) $1.*/\1/p" "$work/ns3.log" | tail -n 1
}
lost=$(ns3_field 'dropped (loss)')
network=$(ns3_field 'dropped (network)')
transits=$(sed -n 's/.*stopped after \([0-9]*\) transits.*/\1/p' "$work/ns3.log")
sent=$(($(counter n0 sent) + $(counter n1 sent)))
delivered=$(($(counter n0 delivered) + $(counter n1 delivered)))
mismatches=()
[[ ${lost:-0} -gt 0 ]] || mismatches+=("the model dropped no packet (dropped (loss) '$lost'): the link was not lossy")
[[ $transits == "$sent" ]] || mismatches+=("the adapter saw $transits transits, the gateways sent $sent")
[[ $((sent - delivered)) == "${lost:-x}" ]] ||
  mismatches+=("sent $sent - delivered $delivered is not the $lost the model dropped")
[[ $network == 0 ]] || mismatches+=("ns-3 itself dropped $network (queues), expected 0")
for node in n0 n1; do
  for field in not_ipv4 unknown_destination send_refused rejected misaddressed held_full write_failed; do
    got=$(counter "$node" "$field")
    [[ $got == 0 ]] || mismatches+=("$node $field is '$got', expected 0")
  done
  [[ $(counter "$node" delivered) == "$(counter "$node" written)" ]] ||
    mismatches+=("$node delivered $(counter "$node" delivered) but wrote $(counter "$node" written)")
done
if ((${#mismatches[@]})); then
  printf -v report '  %s\n' "${mismatches[@]}"
  fail "step 'checks': ${#mismatches[@]} check(s) failed:"$'\n'"$report"
fi
log "$bytes bytes intact (SHA-256 $sent_sha); the model dropped $lost of $sent packets, TCP recovered"
passed=1
log "PASS"
