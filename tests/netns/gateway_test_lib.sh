# shellcheck shell=bash
# shellcheck disable=SC2154  # trestled, sim, cli, gateway, tag: set by the sourcing script
# Shared by the gateway's namespace tests (gateway_*_netns_test.sh): skip and
# failure, background processes with logs, bounded waits, a trestled and the
# gateways of one run, and cleanup of all of it on any exit.
#
# The sourcing script sets: trestled, sim, cli, gateway (binaries), tag (a
# per-run name), and calls gw_require_root_and_tun before anything else.
# Namespaces are those of the gateways (named "$tag-NODE", created by them,
# removed by them on exit; cleanup removes any left behind).

readonly log_tag=gateway-netns
# shellcheck source=netns_verdicts.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_verdicts.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/trestle-gw.XXXXXX")
pids=()   # processes started here, in start order
names=()  # their names, for messages and logs
passed=0

# Stops what this run started (TERM, then KILL after 3 s), removes any
# namespace of this run left behind, prints the logs on failure.
gw_cleanup() {
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
  wait 2>/dev/null
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$tag-"); do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null || echo "cleanup: could not delete namespace $ns" >&2
  done
  if [[ $rc -eq 0 && $passed -ne 1 ]]; then rc=1; fi
  if [[ $rc -ne 0 && $rc -ne $kSkipCode ]]; then
    for f in "$work"/*.log; do
      [[ -e $f ]] || continue
      echo "----- $(basename "$f") (last 40 lines) -----" >&2
      tail -n 40 "$f" >&2
    done
  fi
  rm -rf "$work"
  exit "$rc"
}

gw_install_traps() {
  trap gw_cleanup EXIT
  trap 'echo "interrupted" >&2; exit 130' INT
  trap 'echo "terminated" >&2; exit 143' TERM
  trap 'exit 129' HUP
  trap 'exit 141' PIPE
}

# Root, a TUN driver and `ip`: without any of them the test cannot run here.
gw_require_root_and_tun() {
  if [[ $(id -u) -ne 0 ]]; then
    skip "needs root to create network namespaces and TUN devices; running as uid $(id -u) ($(id -un))"
  fi
  [[ -c /dev/net/tun ]] || skip "no /dev/net/tun here (the kernel's TUN driver: modprobe tun)"
  command -v ip >/dev/null || skip "no 'ip' in PATH (deploy/install-deps.sh installs iproute2)"
}

# start NAME COMMAND...: runs COMMAND in the background, output to
# $work/NAME.log; records its pid.
start() {
  local name=$1
  shift
  "$@" >"$work/$name.log" 2>&1 &
  pids+=("$!")
  names+=("$name")
}

pid_of() {
  local i
  for i in "${!names[@]}"; do [[ ${names[$i]} == "$1" ]] && { echo "${pids[$i]}"; return; }; done
}

expect_running() {
  local pid
  pid=$(pid_of "$1")
  if [[ -z $pid ]] || ! kill -0 "$pid" 2>/dev/null; then fail "$1 exited early (see $1.log below)"; fi
}

# wait_until SECONDS WHAT COMMAND...: retries COMMAND every 0.1 s.
wait_until() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || fail "timed out after ${seconds} s waiting for $what"
    sleep 0.1
  done
}

# stop NAME: SIGINT, then waits (5 s) for it to exit; its pid is forgotten.
stop() {
  local i pid
  for i in "${!names[@]}"; do [[ ${names[$i]} == "$1" ]] && break; done
  pid=${pids[$i]}
  [[ ${names[$i]} == "$1" && -n $pid ]] || fail "internal: no running process named $1"
  kill -INT "$pid" 2>/dev/null
  local deadline=$((SECONDS + 5))
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || fail "$1 did not stop within 5 s of SIGINT"
    sleep 0.1
  done
  wait "$pid" || fail "$1 exited with status $? on SIGINT"
  pids[i]=""
}

# A trestled in wallclock time on a free loopback port; sets daemon.
gw_start_daemon() {
  start trestled "$trestled" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 \
    --port-file "$work/port" --time-mode wallclock --log-level warn
  wait_until 10 "trestled to write its port" test -s "$work/port"
  daemon="127.0.0.1:$(head -n 1 "$work/port")"
}

tun_up() { [[ -n $(ip -n "$tag-$1" link show trestle0 up 2>/dev/null) ]]; }

# gw_start_gateway NODE [NAME [FLAG...]]: the node's gateway (process and
# log NAME, default gw-NODE), until its TUN is up.
gw_start_gateway() {
  local node=$1 name=${2:-gw-$1}
  shift $(($# < 2 ? $# : 2))
  start "$name" "$gateway" --node "$node" --config "$work/gateway.yaml" --daemon "$daemon" \
    --netns-prefix "$tag-" "$@"
  wait_until 10 "the gateway of $node to bring up its TUN" tun_up "$node"
  expect_running "$name"
}

# in_node NODE COMMAND...: COMMAND inside NODE's namespace, through the CLI.
in_node() {
  local node=$1
  shift
  "$cli" gateway run "$node" --config "$work/gateway.yaml" --netns-prefix "$tag-" -- "$@"
}

# counter NODE FIELD: a field of the summary of NODE's gateway (after stop);
# NODE may be a process name given to gw_start_gateway instead.
counter() {
  local log=$work/gw-$1.log
  [[ -e $log ]] || log=$work/$1.log
  sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$log" | tail -n 1
}
