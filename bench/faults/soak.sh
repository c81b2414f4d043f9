#!/usr/bin/env bash
# Runs each fault test of the federation and the daemon (kills, restarts,
# Redis away, a simulator or an app gone) N times in a row, alone, and prints
# the failures per test: a fault test that fails 1 run in 30 fails CI at
# random. Not part of `make test` (30 runs of every test take 15-25 minutes).
#
#   bench/faults/soak.sh                 # 30 runs of every test below
#   bench/faults/soak.sh -n 100 Receivers   # 100 runs of the tests whose name matches
#   bench/faults/soak.sh -j 2            # two runs at once, as ctest -j 2 in CI
#
# Options: -n RUNS (30), -b BUILD_DIR (build), -j PARALLEL (1), -o LOG_DIR
# (a new directory under /tmp). Every failed run's output is kept in LOG_DIR.
# Exit status: 0 if no run failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

runs=30
build=build
parallel=1
logs=""
while getopts "n:b:j:o:h" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    b) build=$OPTARG ;;
    j) parallel=$OPTARG ;;
    o) logs=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
match="${1:-}"
[[ "$runs" =~ ^[0-9]+$ && "$runs" -gt 0 ]] || { echo "soak.sh: -n wants a positive count, not '$runs'" >&2; exit 2; }
[[ "$parallel" =~ ^[0-9]+$ && "$parallel" -gt 0 ]] || { echo "soak.sh: -j wants a positive count, not '$parallel'" >&2; exit 2; }
[ -n "$logs" ] || logs=$(mktemp -d /tmp/trestle-soak-XXXXXX)
mkdir -p "$logs"

# binary (under $build/tests/integration) and gtest filter: every test that
# kills or restarts a daemon, Redis or a simulator, or takes an app away
# mid-run.
tests=(
  "federation_faults_test Federation.*"
  "federation_lockstep_test FederationLockstep.TheAppsOfAKilledPeerDaemonLeaveTheRun"
  "federation_flow_test Federation.AReportOfAPayloadLostInTheStoreReachesItsSenderOnAnotherDaemon"
  "dead_daemon_test DeadDaemon.*"
  "delivery_ack_test DeliveryAck.AfterADaemonRestartMessagesWithIdsSeenBeforeAreNotDropped"
  "redis_store_test RedisStore.TrafficResumesAfterARedisRestartWithAGapOfRefusedConnects"
  "redis_store_test RedisStore.PayloadsLostInRedisFailOnlyTheirMessagesAndAreReported"
  "sim_failover_test SimFailover.*"
  "app_disconnect_test AppDisconnect.*"
)

# One line per test case: "binary Suite.Name".
cases=()
for entry in "${tests[@]}"; do
  read -r binary filter <<<"$entry"
  path="$build/tests/integration/$binary"
  [ -x "$path" ] || { echo "soak.sh: $path is not built (make build, or -b)" >&2; exit 2; }
  suite=""
  while IFS= read -r line; do
    if [[ "$line" != " "* ]]; then suite=${line%%#*}; suite=${suite// /}; continue; fi
    name=${line## }; name=${name%%#*}; name=${name// /}
    cases+=("$binary $suite$name")
  done < <("$path" --gtest_list_tests --gtest_filter="$filter")
done
[ -z "$match" ] || mapfile -t cases < <(printf '%s\n' "${cases[@]}" | grep -- "$match")
[ ${#cases[@]} -gt 0 ] || { echo "soak.sh: no test matches '$match'" >&2; exit 2; }

echo "soak: ${#cases[@]} tests x $runs runs, $parallel at a time; logs of failed runs in $logs"
total_failed=0
summary=()
for c in "${cases[@]}"; do
  read -r binary name <<<"$c"
  start=$(date +%s)
  failed=0
  for ((i = 1; i <= runs; i += parallel)); do
    pids=()
    for ((k = i; k < i + parallel && k <= runs; k++)); do
      out="$logs/${name}.run$k.log"
      ( "$build/tests/integration/$binary" --gtest_filter="$name" >"$out" 2>&1 && rm -f "$out" ) &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
  done
  secs=$(( $(date +%s) - start ))
  first=""
  if [ "$failed" -gt 0 ]; then
    log=$(ls "$logs/${name}".run*.log 2>/dev/null | head -n 1)
    first=$(grep -m 1 -A 3 "Failure" "$log" | tr '\n' ' ' | cut -c1-160)
  fi
  line=$(printf '%-90s %3d/%d failed  %4ds  %s' "$name" "$failed" "$runs" "$secs" "$first")
  echo "$line"
  summary+=("$line")
  total_failed=$((total_failed + failed))
done
echo
echo "soak: $total_failed failed runs of $(( ${#cases[@]} * runs )) (commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
[ "$total_failed" -eq 0 ]
