# Sourced by the lockstep benchmarks (run.sh, contention.sh, live_vs_sweep.sh,
# scale.sh): starting trestled and a simulator adapter, and stopping every
# process a run started. The caller sets $build (the build directory) and
# $work (a scratch directory), and traps EXIT to call cleanup.

pids=()

# Stops (SIGTERM) and reaps every process started here since the last call.
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}

# start_daemon ARG...: trestled on a free loopback port with these arguments,
# once it has written its port; sets $daemon (HOST:PORT) and $daemon_pid.
start_daemon() {
  rm -f "$work/port"
  "$build/daemon/trestled" --listen 127.0.0.1:0 --port-file "$work/port" --log-level warn "$@" &
  daemon_pid=$!
  pids+=("$daemon_pid")
  for _ in $(seq 200); do [[ -s "$work/port" ]] && break; sleep 0.05; done
  daemon="127.0.0.1:$(head -n1 "$work/port")"
}

# start_sim KIND ARG...: trestle-sim KIND --daemon $daemon ARG..., once it
# says it is connected (its stderr in $work/sim.log); sets $sim_pid.
start_sim() {
  local kind=$1
  shift
  rm -f "$work/sim.log"
  "$build/sim-adapters/trestle-sim" "$kind" --daemon "$daemon" "$@" 2>"$work/sim.log" &
  sim_pid=$!
  pids+=("$sim_pid")
  for _ in $(seq 400); do grep -q connected "$work/sim.log" 2>/dev/null && break; sleep 0.05; done
}

# field NAME TEXT: the value of NAME=value in TEXT.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | head -n1; }
