#!/usr/bin/env bash
# Federation across real separate hosts (issue 13, "Real separate hosts").
#
#   federation_netns_test.sh TRESTLED TRESTLE_SIM TRESTLE TRESTLE_PING_PONG
#
# Three network namespaces, created here and named per run (trestle-<pid>-*):
#
#   host1 10.77.1.2 --veth-- 10.77.1.1 redis 10.77.2.1 --veth-- 10.77.2.2 host2
#
#   redis: redis-server, bound to its two addresses
#   host1: trestled --daemon-id 1, trestle-sim ghost, ping of pair A, pong of pair B
#   host2: trestled --daemon-id 2,                    pong of pair A, ping of pair B
#
# The redis namespace does not forward, so the hosts reach Redis and nothing
# else: every message between the pairs crosses the daemons through Redis
# streams over the veths (the test checks that host1 cannot reach host2).
# Both pairs run ROUNDS round trips at the same time; then `trestle status`
# on each daemon (run inside its host's namespace) must show every count
# exactly, the bridge's included, and Redis's streams must have carried every
# forwarded message and hold none.
#
# Exit 0: passed. Exit 77: skipped, with the reason (not root, or namespaces
# not permitted here); TRESTLE_NETNS_REQUIRED=1 turns a skip into a failure
# (for CI, which runs as root). Anything else: failed, naming the step and the
# count, after the daemons' and apps' logs. Every wait is bounded; everything
# started here (processes, namespaces and the veths in them) is removed on
# exit, on failure and on SIGINT/SIGTERM too.
#
# Environment: ROUNDS (default 200) round trips per pair; PAYLOAD_BYTES
# (default 1024).
set -euo pipefail

readonly rounds=${ROUNDS:-200}
readonly payload_bytes=${PAYLOAD_BYTES:-1024}
readonly log_tag=netns
# shellcheck source=netns_verdicts.sh
source "$(dirname "$0")/netns_verdicts.sh"

if [[ $# -ne 4 ]]; then
  echo "usage: $0 TRESTLED TRESTLE_SIM TRESTLE TRESTLE_PING_PONG" >&2
  exit 2
fi
readonly trestled=$1 sim=$2 cli=$3 ping_pong=$4
for binary in "$trestled" "$sim" "$cli" "$ping_pong"; do
  [[ -x $binary ]] || fail "binary not found or not executable: $binary"
done

# Root first: without it nothing below can work, and that is a skip. Missing
# tools as root are a broken install (deploy/install-deps.sh), not a skip.
if [[ $(id -u) -ne 0 ]]; then
  skip "needs root to create network namespaces and veth pairs (ip netns add);" \
    "running as uid $(id -u) ($(id -un))"
fi
for tool in ip redis-server redis-cli timeout; do
  command -v "$tool" >/dev/null ||
    fail "'$tool' not found in PATH (deploy/install-deps.sh installs iproute2, redis-server, coreutils)"
done

readonly tag="trestle-$$"
readonly ns_redis="$tag-redis" ns_host1="$tag-host1" ns_host2="$tag-host2"
readonly redis_on_host1=10.77.1.1 host1_ip=10.77.1.2
readonly redis_on_host2=10.77.2.1 host2_ip=10.77.2.2
readonly redis_port=6379 listen_port=7878 admin_port=7879
# Fixed ports are safe: each namespace has its own port space.
readonly run="netns-$$"
token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
readonly token
export TRESTLE_TOKEN=$token  # the SDK's apps and the simulator read it

work=$(mktemp -d "${TMPDIR:-/tmp}/$tag.XXXXXX")
namespaces=()
pids=()      # every process started here, in start order
names=()     # its name, for the messages and the logs
passed=0

# Logs of everything started here, on failure.
print_logs() {
  local f
  for f in "$work"/*.log; do
    [[ -e $f ]] || continue
    echo "----- $(basename "$f") (last 80 lines) -----" >&2
    tail -n 80 "$f" >&2
  done
}

# Stops what this run started: its processes by pid (TERM, then KILL after
# 3 s), anything else left in its namespaces (by pid, from `ip netns pids`),
# then the namespaces, which takes their veths with them; only then prints
# the logs (on failure), so that a reader that goes away (SIGPIPE) cannot
# stop the cleanup halfway.
cleanup() {
  local rc=$?
  set +e
  trap - EXIT
  trap '' INT TERM HUP PIPE
  local pid ns i alive
  for pid in "${pids[@]}"; do [[ -n $pid ]] && kill -TERM "$pid" 2>/dev/null; done
  for ((i = 0; i < 30; ++i)); do
    alive=0
    for pid in "${pids[@]}"; do [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; done
  for ns in "${namespaces[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
  done
  wait 2>/dev/null
  for ns in "${namespaces[@]}"; do
    ip netns del "$ns" 2>/dev/null || echo "cleanup: could not delete namespace $ns" >&2
  done
  if [[ $rc -eq 0 && $passed -ne 1 ]]; then rc=1; fi
  if [[ $rc -ne 0 && $rc -ne $kSkipCode ]]; then print_logs; fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT
trap 'echo "terminated" >&2; exit 143' TERM
trap 'exit 129' HUP
trap 'exit 141' PIPE

# start NAME NS COMMAND...: runs COMMAND in NS in the background, output to
# $work/NAME.log; records its pid (ip netns exec execs the command itself).
start() {
  local name=$1 ns=$2
  shift 2
  ip netns exec "$ns" "$@" >"$work/$name.log" 2>&1 &
  pids+=("$!")
  names+=("$name")
}

# Fails naming NAME if its process has exited.
expect_running() {
  local i
  for i in "${!names[@]}"; do
    if [[ ${names[$i]} == "$1" ]]; then
      kill -0 "${pids[$i]}" 2>/dev/null && return 0
      fail "$1 exited early (see $1.log below)"
    fi
  done
  fail "internal: no process named $1"
}

# wait_until SECONDS WHAT COMMAND...: retries COMMAND every 0.1 s until it
# succeeds, or fails naming WHAT after SECONDS.
wait_until() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || fail "timed out after ${seconds} s waiting for $what"
    sleep 0.1
  done
}

# wait_exit NAME DEADLINE: waits for NAME's process to exit, until $SECONDS
# reaches DEADLINE, and reaps it; sets exit_code. A reaped pid is forgotten, so cleanup never signals a pid
# the system may have given to another process since.
exit_code=0
wait_exit() {
  local name=$1 deadline=$2 i
  for i in "${!names[@]}"; do [[ ${names[$i]} == "$name" ]] && break; done
  [[ ${names[$i]} == "$name" && -n ${pids[$i]} ]] || fail "internal: no running process named $name"
  local pid=${pids[$i]}
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || fail "$name still running ${rounds_budget} s after the pairs started"
    sleep 0.1
  done
  exit_code=0
  wait "$pid" || exit_code=$?
  pids[i]=""
}

# A RESP PING to Redis from inside NS, over bash's /dev/tcp (2 s bound).
redis_ping_from() {
  local ns=$1 ip=$2
  timeout 2 ip netns exec "$ns" bash -c \
    "exec 3<>/dev/tcp/$ip/$redis_port && printf 'PING\r\n' >&3 && read -r -t 1 reply <&3 && [[ \$reply == +PONG* ]]"
}

tcp_open_from() {
  local ns=$1 ip=$2 port=$3
  timeout 2 ip netns exec "$ns" bash -c "exec 3<>/dev/tcp/$ip/$port"
}

status_of() {  # status_of NS ADMIN_IP: `trestle status` from inside NS
  timeout 5 ip netns exec "$1" "$cli" status --admin "$2:$admin_port" --token "$token"
}

clients_of() {
  timeout 5 ip netns exec "$1" "$cli" clients --admin "$2:$admin_port" --token "$token"
}

# The value of row NAME in a `trestle status` table (field, two or more
# spaces, value).
field() {
  local table=$1 name=$2
  sed -nE "s/^${name} {2,}(.*[^ ]) *\$/\\1/p" <<<"$table" | head -n 1
}

lists_both_daemons() {  # lists_both_daemons NS ADMIN_IP
  status_of "$1" "$2" | grep -q "daemons 1, 2 "
}

# CLIENT is listed as connected by the daemon whose admin is at IP, in NS.
client_connected() {
  local ns=$1 ip=$2 client=$3
  clients_of "$ns" "$ip" | grep -Eq "^$client +[A-Z]+ +[a-z]+ +connected "
}

# ---- The three hosts --------------------------------------------------------

log "creating namespaces $ns_redis, $ns_host1, $ns_host2"
if ! err=$(ip netns add "$ns_redis" 2>&1); then
  skip "cannot create a network namespace here: ip netns add $ns_redis: $err"
fi
namespaces+=("$ns_redis")
for ns in "$ns_host1" "$ns_host2"; do
  ip netns add "$ns" || fail "step 'create namespaces': ip netns add $ns"
  namespaces+=("$ns")
done

# The veths are created inside the namespaces, so no name ever exists in the
# root namespace (no collision with other runs or the machine's interfaces).
ip link add r-h1 netns "$ns_redis" type veth peer name h1-r netns "$ns_host1" ||
  fail "step 'veth redis<->host1': ip link add"
ip link add r-h2 netns "$ns_redis" type veth peer name h2-r netns "$ns_host2" ||
  fail "step 'veth redis<->host2': ip link add"
ip -n "$ns_redis" addr add "$redis_on_host1/24" dev r-h1
ip -n "$ns_redis" addr add "$redis_on_host2/24" dev r-h2
ip -n "$ns_host1" addr add "$host1_ip/24" dev h1-r
ip -n "$ns_host2" addr add "$host2_ip/24" dev h2-r
for ns in "${namespaces[@]}"; do ip -n "$ns" link set lo up; done
ip -n "$ns_redis" link set r-h1 up
ip -n "$ns_redis" link set r-h2 up
ip -n "$ns_host1" link set h1-r up
ip -n "$ns_host2" link set h2-r up

# ---- Redis --------------------------------------------------------------------

log "starting redis-server on $redis_on_host1 and $redis_on_host2 port $redis_port"
start redis "$ns_redis" redis-server --bind "$redis_on_host1" "$redis_on_host2" \
  --port "$redis_port" --save '' --appendonly no --protected-mode no
wait_until 10 "Redis to answer PING from host1 at $redis_on_host1:$redis_port" \
  redis_ping_from "$ns_host1" "$redis_on_host1"
wait_until 10 "Redis to answer PING from host2 at $redis_on_host2:$redis_port" \
  redis_ping_from "$ns_host2" "$redis_on_host2"
# Separate hosts: host1 has no route to host2 (Redis does not forward).
if tcp_open_from "$ns_host1" "$host2_ip" "$redis_port" 2>/dev/null ||
  tcp_open_from "$ns_host1" "$host2_ip" "$listen_port" 2>/dev/null; then
  fail "step 'isolation': host1 reached host2 ($host2_ip) directly; only Redis may join them"
fi

# ---- The daemons and the simulator ---------------------------------------------

daemon() {  # daemon NAME NS ID IP REDIS_IP
  start "$1" "$2" "$trestled" --store "redis://$5:$redis_port/0" --federate --run "$run" \
    --daemon-id "$3" --listen "$4:$listen_port" --admin-listen "$4:$admin_port" \
    --auth-token "$token" --log-level info
}
log "starting trestled 1 on host1 ($host1_ip) and trestled 2 on host2 ($host2_ip), run '$run'"
daemon trestled-1 "$ns_host1" 1 "$host1_ip" "$redis_on_host1"
daemon trestled-2 "$ns_host2" 2 "$host2_ip" "$redis_on_host2"
for spec in "trestled-1 $ns_host1 $host1_ip" "trestled-2 $ns_host2 $host2_ip"; do
  read -r name ns ip <<<"$spec"
  wait_until 10 "$name to listen on $ip:$listen_port" tcp_open_from "$ns" "$ip" "$listen_port"
  wait_until 10 "$name's admin on $ip:$admin_port" status_of "$ns" "$ip"
  expect_running "$name"
done

log "starting trestle-sim ghost on host1, attached to trestled 1"
start ghost "$ns_host1" "$sim" ghost --daemon "$host1_ip:$listen_port" --token "$token"
wait_until 10 "the ghost simulator to attach to trestled 1" \
  client_connected "$ns_host1" "$host1_ip" ghost
ghost_attached_at=$SECONDS
# Daemon 2 learns from the heartbeat (0.5 s) that daemon 1 has a simulator.
wait_until 10 "trestled 2 to list daemons 1 and 2 in its bridge row" \
  lists_both_daemons "$ns_host2" "$host2_ip"

# ---- Two ping-pong pairs across the daemons, at the same time -------------------

pp() {  # pp NAME NS DAEMON_IP ROLE PING_ID PONG_ID
  start "$1" "$2" "$ping_pong" --daemon "$3:$listen_port" --role "$4" --ping-id "$5" \
    --pong-id "$6" --count "$rounds" --size "$payload_bytes" --timeout-ms 5000 --quiet
}
log "pair A: ping-a on host1 -> pong-a on host2; pair B: ping-b on host2 -> pong-b on host1;" \
  "$rounds round trips each, $payload_bytes B"
pp pong-a "$ns_host2" "$host2_ip" pong ping-a pong-a
pp pong-b "$ns_host1" "$host1_ip" pong ping-b pong-b
wait_until 10 "pong-a to attach to trestled 2" client_connected "$ns_host2" "$host2_ip" pong-a
wait_until 10 "pong-b to attach to trestled 1" client_connected "$ns_host1" "$host1_ip" pong-b
pp ping-a "$ns_host1" "$host1_ip" ping ping-a pong-a
pp ping-b "$ns_host2" "$host2_ip" ping ping-b pong-b

# One budget for all four (a round trip takes about a millisecond; a lost
# one fails its ping after --timeout-ms).
readonly rounds_budget=30
apps_deadline=$((SECONDS + rounds_budget))
for name in ping-a ping-b pong-a pong-b; do
  wait_exit "$name" "$apps_deadline"
  [[ $exit_code -eq 0 ]] || fail "$name exited with status $exit_code: $(tail -n 3 "$work/$name.log" | tr '\n' ' ')"
done
for name in ping-a ping-b; do
  grep -q "summary: count=$rounds lost=0 " "$work/$name.log" ||
    fail "$name: expected 'summary: count=$rounds lost=0', got: $(grep summary "$work/$name.log" || echo none)"
done
for name in pong-a pong-b; do
  grep -qx "pong: echoed $rounds payloads" "$work/$name.log" ||
    fail "$name: expected 'pong: echoed $rounds payloads', got: $(tail -n 1 "$work/$name.log")"
done
log "both pairs completed $rounds round trips"

# ---- The counts ------------------------------------------------------------------

# Per daemon: it accepts `rounds` from each of its two apps and delivers
# `rounds` to each; every message crosses once, so it forwards and takes over
# 2 x rounds. The bridge: 2 pairs x 2 messages x rounds.
readonly per_daemon=$((2 * rounds)) bridge_total=$((4 * rounds))
bridge_settled() {
  local table
  table=$(status_of "$ns_host1" "$host1_ip") || return 1
  [[ $(field "$table" "bridge delivered") == "$bridge_total" &&
    $(field "$table" "bridge in flight") == 0 ]]
}
# The bridge's sums come from the counters each daemon publishes every 0.5 s.
deadline=$((SECONDS + 10))
until bridge_settled; do
  ((SECONDS < deadline)) || break
  sleep 0.2
done

# Every mismatch of this step is collected, then reported together.
mismatches=()
check() {  # check WHO TABLE ROW EXPECTED
  local got
  got=$(field "$2" "$3")
  [[ $got == "$4" ]] || mismatches+=("$1: '$3' is '$got', expected $4")
}
status1=$(status_of "$ns_host1" "$host1_ip") || fail "step 'counts': trestle status on host1 failed"
status2=$(status_of "$ns_host2" "$host2_ip") || fail "step 'counts': trestle status on host2 failed"
echo "$status1" >"$work/status-1.log"
echo "$status2" >"$work/status-2.log"
for row in "bridge delivered $bridge_total" "bridge accepted $bridge_total" "bridge in flight 0" \
  "bridge dropped 0" "bridge expired 0" "bridge lost in store 0"; do
  check "trestled 1 (host1)" "$status1" "${row% *}" "${row##* }"
done
grep -q "run '$run', this daemon 1, daemons 1, 2 " <<<"$status1" ||
  mismatches+=("trestled 1 (host1): the bridge row does not read run '$run', daemons 1, 2")
for who in "1 status1" "2 status2"; do
  read -r id var <<<"$who"
  for row in "accepted $per_daemon" "delivered $per_daemon" "forwarded $per_daemon" \
    "from peers $per_daemon" "in flight 0" "dropped 0" "expired 0"; do
    check "trestled $id (host$id)" "${!var}" "${row% *}" "${row##* }"
  done
done

# Redis carried them: each daemon's stream had entries added, at most one per
# message it took over (the messages a loop pass hands to a daemon share an
# entry; from peers above counts the messages), and holds none now (each is
# deleted once finished).
stream_field() {  # stream_field DAEMON_ID FIELD
  timeout 5 ip netns exec "$ns_redis" redis-cli -h "$redis_on_host1" -p "$redis_port" \
    XINFO STREAM "trestle:$run:in:$1" | awk -v f="$2" 'prev == f { print; exit } { prev = $0 }'
}
for id in 1 2; do
  added=$(stream_field "$id" entries-added)
  length=$(stream_field "$id" length)
  [[ $added =~ ^[0-9]+$ ]] && ((added >= 1 && added <= per_daemon)) ||
    mismatches+=("Redis: stream trestle:$run:in:$id had '$added' entries added, expected 1 to $per_daemon")
  [[ $length == 0 ]] ||
    mismatches+=("Redis: stream trestle:$run:in:$id still holds '$length' entries, expected 0")
done

# The simulator serves the bridge for as long as it runs: still attached,
# with nothing in its log but its greeting, past handshake_timeout_ms (5 s)
# after it attached.
while ((SECONDS < ghost_attached_at + 7)); do sleep 0.2; done
client_connected "$ns_host1" "$host1_ip" ghost ||
  mismatches+=("simulator: the ghost is no longer attached to trestled 1, $((SECONDS - ghost_attached_at)) s after attaching")
[[ $(wc -l <"$work/ghost.log") -eq 1 ]] ||
  mismatches+=("simulator: the ghost reported: $(tail -n +2 "$work/ghost.log" | tr '\n' ' ')")

if ((${#mismatches[@]})); then
  printf -v report '  %s\n' "${mismatches[@]}"
  fail "step 'checks': ${#mismatches[@]} check(s) failed after $rounds round trips per pair:"$'\n'"$report"
fi
log "trestle status: bridge delivered $bridge_total, in flight 0; each daemon accepted," \
  "delivered, forwarded and took over $per_daemon; each stream took $per_daemon entries, holds none;" \
  "the ghost still attached"

for name in trestled-1 trestled-2 ghost redis; do expect_running "$name"; done

passed=1
log "PASS"
