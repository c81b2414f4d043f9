#!/usr/bin/env bash
# The federation benchmark grid. End-to-end latency (p50/p99, open
# loop) and throughput (closed loop, --rate max) app to app, `trestle bench`
# with
#   one   : one daemon, memory store
#   redis : one daemon, Redis store
#   across: two federated daemons sharing that Redis (--daemons 2), every
#           message to an app on the other daemon (--peers across)
# for payloads of 64 B, 64 KiB and 4 MiB; and, if trestled has
# --payload-by-key, the Redis paths once inline (--payload-by-key=false) and
# once by key (--payload-by-key-threshold=0). Without that flag: inline only,
# and the output says so.
#
# Each repetition runs every configuration once, in turn (alternated), so
# that a slow spell of the machine spreads over all of them; REPS (3)
# repetitions; the table is the median per configuration. A private
# redis-server on a free port; the Redis round trip is measured on it with
# redis-benchmark (one client, one PING at a time) before and after.
#
# Usage: bench/federation/grid.sh [OUT_DIR]   (default: a new directory under /tmp)
#   BUILD_DIR=build  REPS=3  LAT_DURATION=5s  MAX_DURATION=3s  WARMUP=1s
#   TRESTLED=PATH: this trestled instead of the build's (a before/after of the
#   daemon alone, with the same trestle and trestle-sim)
# Writes OUT_DIR/grid.jsonl (one `trestle bench --json` line per run, with
# "grid_*" labels), OUT_DIR/grid.log (tables and progress) and prints the
# median table (also OUT_DIR/grid.md).
set -euo pipefail
B=${BUILD_DIR:-build}
OUT=${1:-$(mktemp -d /tmp/trestle-federation-grid.XXXXXX)}
REPS=${REPS:-3}
LAT_DURATION=${LAT_DURATION:-5s}
MAX_DURATION=${MAX_DURATION:-3s}
WARMUP=${WARMUP:-1s}
T=$B/tools/trestle/trestle
TD=${TRESTLED:-$B/daemon/trestled}
for bin in "$T" "$TD" "$B/sim-adapters/trestle-sim"; do
  [ -x "$bin" ] || { echo "grid.sh: $bin not built (BUILD_DIR=$B)" >&2; exit 2; }
done
mkdir -p "$OUT"
JSONL=$OUT/grid.jsonl; LOG=$OUT/grid.log
: > "$JSONL"; : > "$LOG"

# A free loopback port for redis-server.
rport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rdir=$(mktemp -d /tmp/fedgrid-redis-XXXXXX)
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$rdir" --pidfile "$rdir/redis.pid" --logfile "$rdir/redis.log" >/dev/null
cleanup() { redis-cli -p "$rport" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$rdir"; }
trap cleanup EXIT
for _ in $(seq 50); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.1; done
STORE=redis://127.0.0.1:$rport/0

redis_rtt() {  # one client, one PING at a time: p50 of the round trip, both PING forms
  redis-benchmark -p "$rport" -c 1 -n 20000 -t ping -q 2>/dev/null | tr '\r' '\n' |
    grep 'requests per second' | tr '\n' ' '
}

# (The help is read whole first: grep -q would stop reading it, and with
# pipefail the broken pipe would count as "not found".)
if [[ "$("$TD" --help 2>&1)" == *--payload-by-key-threshold* ]]; then
  MODES="inline bykey"
else
  MODES="inline"
fi

# The binaries' source: the build's source tree, its commit, and how many
# tracked files of the code there differ from it (a tree that is not a git
# checkout, e.g. a `git archive` snapshot, may name its commit in
# .snapshot-commit).
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$B/CMakeCache.txt")
if commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null); then
  dirty=$(git -C "$src" status --porcelain --untracked-files=no -- daemon client-sdk proto bench \
          sim-adapters tools platform | wc -l)
else
  commit="$(cat "$src/.snapshot-commit" 2>/dev/null || echo unknown) (snapshot)"; dirty=0
fi
{
  echo "# binaries of $B, built from $src at $commit ($dirty tracked code files changed since)"
  [ -n "${TRESTLED:-}" ] && echo "# trestled: $TD (TRESTLED), $(sha256sum "$TD" | cut -c1-16)"
  echo "# $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# modes: $MODES; REPS=$REPS LAT_DURATION=$LAT_DURATION MAX_DURATION=$MAX_DURATION WARMUP=$WARMUP"
  echo "# redis RTT before: $(redis_rtt)"
} | tee -a "$LOG"

# Per payload: apps, open-loop rate (msg/s), closed-loop window per app.
params() {
  case $1 in
    64) echo "10 500 32" ;;
    65536) echo "10 100 4" ;;
    4194304) echo "4 4 1" ;;
  esac
}

# run REP PATH MODE SIZE KIND: one `trestle bench`, its JSON line labelled.
run() {
  local rep=$1 path=$2 mode=$3 size=$4 kind=$5
  read -r nodes rate window <<<"$(params "$size")"
  local args=(bench --trestled "$TD" --nodes "$nodes" --size "$size" --warmup "$WARMUP"
              --drain-timeout 60s)
  if [ "$kind" = lat ]; then
    args+=(--rate "$rate" --duration "$LAT_DURATION")
  else
    args+=(--rate max --window "$window" --duration "$MAX_DURATION")
  fi
  case $path in
    one) args+=(--store memory) ;;
    redis) args+=(--store "$STORE") ;;
    across) args+=(--store "$STORE" --daemons 2 --peers across) ;;
  esac
  if [ "$path" != one ] && [[ " $MODES " == *" bykey "* ]]; then
    if [ "$mode" = bykey ]; then
      args+=(--trestled-arg=--payload-by-key-threshold=0)
    else
      args+=(--trestled-arg=--payload-by-key=false)
    fi
  fi
  local tmp=$OUT/run.jsonl
  echo "## rep $rep $path $mode $size $kind: $T ${args[*]}" >>"$LOG"
  local status=ok
  "$T" "${args[@]}" --json "$tmp" >>"$LOG" 2>&1 || status=failed
  if [ -s "$tmp" ]; then
    python3 - "$tmp" "$rep" "$path" "$mode" "$size" "$kind" "$status" "${args[*]}" >>"$JSONL" <<'EOF'
import json, sys
tmp, rep, path, mode, size, kind, status, command = sys.argv[1:]
for line in open(tmp):
    j = json.loads(line)
    j.update(grid_rep=int(rep), grid_path=path, grid_mode=mode, grid_size=int(size),
             grid_kind=kind, grid_status=status, grid_command="trestle " + command)
    print(json.dumps(j))
EOF
  fi
  rm -f "$tmp"
  echo "rep $rep $path/$mode $size $kind: $status" | tee -a "$LOG" >&2
}

for rep in $(seq "$REPS"); do
  for size in 64 65536 4194304; do
    for kind in lat max; do
      run "$rep" one inline "$size" "$kind"
      for mode in $MODES; do
        run "$rep" redis "$mode" "$size" "$kind"
        run "$rep" across "$mode" "$size" "$kind"
      done
    done
  done
done
echo "# redis RTT after: $(redis_rtt)" | tee -a "$LOG"

python3 - "$JSONL" "$MODES" <<'EOF' | tee "$OUT/grid.md"
import json, statistics, sys
path, modes = sys.argv[1], sys.argv[2].split()
runs = [json.loads(l) for l in open(path)]
def med(xs):
    return statistics.median(xs) if xs else float("nan")
names = {"one": "one daemon, memory", "redis": "one daemon, Redis", "across": "two daemons, across"}
sizes = {64: "64 B", 65536: "64 KiB", 4194304: "4 MiB"}
print("| payload | path | payloads | e2e p50 µs | e2e p99 µs | throughput msg/s | MB/s | runs (lat+max) | sent / delivered / lost / dup |")
print("|---|---|---|---:|---:|---:|---:|---:|---|")
for size in sizes:
    for p in ("one", "redis", "across"):
        for mode in (["inline"] if p == "one" else modes):
            sel = [r for r in runs if r["grid_size"] == size and r["grid_path"] == p and r["grid_mode"] == mode]
            lat = [r for r in sel if r["grid_kind"] == "lat" and r["grid_status"] == "ok"]
            mx = [r for r in sel if r["grid_kind"] == "max" and r["grid_status"] == "ok"]
            if not sel:
                continue
            tput = med([r["throughput_msg_s"] for r in mx])
            counts = "%d / %d / %d / %d" % tuple(sum(r[k] for r in sel) for k in ("sent", "delivered", "lost", "duplicated"))
            failed = len(sel) - len(lat) - len(mx)
            print("| %s | %s | %s | %.1f | %.1f | %.0f | %.1f | %d+%d%s | %s |" % (
                sizes[size], names[p], "—" if p == "one" else ("by key" if mode == "bykey" else "inline"),
                med([r["e2e_p50_us"] for r in lat]), med([r["e2e_p99_us"] for r in lat]),
                tput, tput * size / 1e6, len(lat), len(mx),
                (", %d failed" % failed) if failed else "", counts))
EOF
