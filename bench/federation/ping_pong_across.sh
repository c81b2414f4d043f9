#!/usr/bin/env bash
# Ping-pong round trips (64 B, N=2000) through one
# daemon (memory store, Redis store) and across two federated daemons sharing
# one Redis (the ghost on the ping side), three alternating repetitions.
# Usage: bench/federation/ping_pong_across.sh  (BUILD_DIR=build N=2000 SIZE=64)
set -euo pipefail
B=${BUILD_DIR:-build}
N=${N:-2000}; SIZE=${SIZE:-64}
rport=$((20000 + RANDOM % 20000))
redis-server --port $rport --save '' --appendonly no --daemonize yes --logfile /tmp/fedbench-redis.log >/dev/null
sleep 0.3
cleanup() { kill $(cat ${TMPDIR:-/tmp}/fb-pids 2>/dev/null) 2>/dev/null || true; rm -f ${TMPDIR:-/tmp}/fb-pids; redis-cli -p $rport shutdown nosave >/dev/null 2>&1 || true; }
trap cleanup EXIT
start_daemon() { # port-file args...
  local pf=$1; shift
  $B/daemon/trestled --listen 127.0.0.1:0 --admin-listen "" --port-file $pf --log-level warn "$@" >>/tmp/fedbench-daemons.log 2>&1 &
  echo $! >> ${TMPDIR:-/tmp}/fb-pids
  for i in $(seq 50); do [ -s $pf ] && break; sleep 0.1; done
  head -1 $pf
}
run() { # label, ping daemon port, pong daemon port, sim daemon port
  local label=$1 pp=$2 po=$3 sp=$4
  $B/sim-adapters/trestle-sim ghost --daemon 127.0.0.1:$sp >/dev/null 2>&1 & local g=$!
  sleep 0.8
  $B/examples/ping-pong/trestle-ping-pong --daemon 127.0.0.1:$po --role pong --count $N --quiet >/dev/null 2>&1 & local p=$!
  sleep 0.3
  echo "$label: $($B/examples/ping-pong/trestle-ping-pong --daemon 127.0.0.1:$pp --role ping --count $N --size $SIZE --quiet 2>&1 | tail -2 | tr '\n' ' ')"
  wait $p || true; kill $g 2>/dev/null; wait $g 2>/dev/null || true
}
for rep in 1 2 3; do
  rm -f ${TMPDIR:-/tmp}/fb-*.port
  m=$(start_daemon ${TMPDIR:-/tmp}/fb-m.port); run "one daemon, memory" $m $m $m
  r=$(start_daemon ${TMPDIR:-/tmp}/fb-r.port --store redis://127.0.0.1:$rport/0); run "one daemon, redis" $r $r $r
  a=$(start_daemon ${TMPDIR:-/tmp}/fb-a.port --store redis://127.0.0.1:$rport/0 --federate --run b$rep --daemon-id 1)
  b=$(start_daemon ${TMPDIR:-/tmp}/fb-b.port --store redis://127.0.0.1:$rport/0 --federate --run b$rep --daemon-id 2)
  run "two daemons (sim on ping's)" $a $b $a
  kill $(cat ${TMPDIR:-/tmp}/fb-pids) 2>/dev/null || true; rm -f ${TMPDIR:-/tmp}/fb-pids; sleep 0.5
done
