#!/usr/bin/env python3
"""Python client overhead beside the C++ client, on points of the nsb2 grid.

For each (nodes, rate): a fresh trestled and ghost simulator, N Python apps
(AsyncAppClient, PUSH, three connections each) on one asyncio loop sending
SIZE-byte payloads to random peers, open loop at RATE msg/s in total, as
`trestle bench` does; then the same point through `trestle bench` (the C++
SDK). With --multiplex the Python apps are lanes of one connection instead
(ClientOptions.multiplex; client "python-lanes"). Every message must arrive
exactly once. Prints a Markdown table and writes JSON Lines (`trestle bench`
field names, plus "client").

  bench/python/python_client_bench.py --build BUILD [--nodes 10,100] \
      [--rates 100,1000] [--duration 3] [--multiplex] [--json out.jsonl]

e2e: app_sent -> app_received stamps (CLOCK_MONOTONIC), the SDKs' own
stamps on both sides; resident: (sim_handed - daemon_accepted) +
(daemon_delivered - sim_posted), as docs/benchmarks.md defines it. Python
rows also give daemon_cpu_us_per_msg: trestled's CPU time over the whole
point (connects to closes) per message sent.
"""
import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import trestle


def percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def cpu_seconds(pid):
    """User + system CPU time of process `pid` so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(args, out):
    return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)


def start_daemon(build, work):
    port_file = os.path.join(work, "port")
    log = open(os.path.join(work, "trestled.log"), "w")
    daemon = start([os.path.join(build, "daemon", "trestled"), "--listen", "127.0.0.1:0",
                    "--admin-listen", "", "--port-file", port_file, "--log-level", "warn"], log)
    while not (os.path.exists(port_file) and open(port_file).read().strip()):
        if daemon.poll() is not None:
            sys.exit("trestled did not start; see " + log.name)
        time.sleep(0.02)
    time.sleep(0.01)
    address = "127.0.0.1:" + open(port_file).read().split()[0]
    ghost = start([os.path.join(build, "sim-adapters", "trestle-sim"), "ghost", "--daemon", address],
                  open(os.path.join(work, "ghost.log"), "w"))
    time.sleep(0.3)
    return daemon, ghost, address


async def python_point(address, nodes, rate, duration, size, seed, multiplex):
    apps = [trestle.AsyncAppClient(trestle.ClientOptions(daemon=address, client_id=f"app-{i}",
                                                         multiplex=multiplex))
            for i in range(nodes)]
    connect_start = time.monotonic()
    await asyncio.gather(*(a.connect() for a in apps))
    connect_s = time.monotonic() - connect_start
    e2e, resident, seen = [], [], set()
    to_daemon, to_app = [], []
    duplicated = 0

    def taken(m):
        nonlocal duplicated
        if m.id in seen:
            duplicated += 1
        seen.add(m.id)
        s = m.stamps
        e2e.append((s.app_received - s.app_sent) / 1000)
        to_daemon.append((s.daemon_accepted - s.app_sent) / 1000)
        to_app.append((s.app_received - s.daemon_delivered) / 1000)
        resident.append(((s.sim_handed - s.daemon_accepted) + (s.daemon_delivered - s.sim_posted)) / 1000)

    for a in apps:
        a.on_message(taken)
    rng = random.Random(seed)
    payload = b"p" * size
    loop = asyncio.get_running_loop()
    total = int(rate * duration)
    cpu0 = time.process_time()
    begin = loop.time()
    for k in range(total):
        delay = begin + k / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        src = rng.randrange(nodes)
        dst = (src + 1 + rng.randrange(nodes - 1)) % nodes
        await apps[src].send(f"app-{dst}", payload)
    sent_s = loop.time() - begin
    drain_deadline = loop.time() + 30
    while len(seen) < total and loop.time() < drain_deadline:
        await asyncio.sleep(0.01)
    cpu = time.process_time() - cpu0
    await asyncio.gather(*(a.close() for a in apps), return_exceptions=True)
    for values in (e2e, resident, to_daemon, to_app):
        values.sort()
    return {"client": "python-lanes" if multiplex else "python", "nodes": nodes, "rate": rate,
            "mode": "push", "size": size,
            "duration_s": duration, "sent": total, "delivered": len(seen), "lost": total - len(seen),
            "duplicated": duplicated, "connect_s": connect_s,
            "e2e_p50_us": percentile(e2e, 0.5), "e2e_p99_us": percentile(e2e, 0.99),
            "resident_p50_us": percentile(resident, 0.5), "resident_p99_us": percentile(resident, 0.99),
            "throughput_msg_s": total / sent_s,
            "stages": {"app_to_daemon": {"p50_us": percentile(to_daemon, 0.5)},
                       "daemon_to_app": {"p50_us": percentile(to_app, 0.5)}}, "generator_cpu_pct": 100 * cpu / sent_s}


def cpp_point(build, nodes, rate, duration, size, seed, work):
    out = os.path.join(work, "cpp.jsonl")
    subprocess.run([os.path.join(build, "tools", "trestle", "trestle"), "bench", "--nodes", str(nodes),
                    "--rate", str(rate), "--duration", f"{duration}s", "--size", str(size),
                    "--mode", "push", "--seed", str(seed), "--json", out,
                    "--trestled", os.path.join(build, "daemon", "trestled"),
                    "--trestle-sim", os.path.join(build, "sim-adapters", "trestle-sim")],
                   check=True, stdout=subprocess.DEVNULL, timeout=120)
    with open(out) as f:
        row = json.loads(f.readline())
    row["client"] = "cpp"
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", required=True, help="build directory (daemon/, sim-adapters/, tools/)")
    p.add_argument("--nodes", default="10,100")
    p.add_argument("--rates", default="100,1000")
    p.add_argument("--duration", type=float, default=3.0, help="seconds of sending per point")
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--multiplex", action="store_true",
                   help="the Python apps share one connection, a lane each")
    p.add_argument("--json", help="write one JSON object per point and client")
    a = p.parse_args()
    rows = []
    for nodes in map(int, a.nodes.split(",")):
        for rate in map(float, a.rates.split(",")):
            work = tempfile.mkdtemp(prefix="trestle-pybench-")
            daemon, ghost, address = start_daemon(a.build, work)
            try:
                cpu0 = cpu_seconds(daemon.pid)
                py = asyncio.run(python_point(address, nodes, rate, a.duration, a.size, a.seed,
                                              a.multiplex))
                py["daemon_cpu_us_per_msg"] = 1e6 * (cpu_seconds(daemon.pid) - cpu0) / py["sent"]
            finally:
                ghost.terminate()
                daemon.terminate()
                ghost.wait()
                daemon.wait()
            cpp = cpp_point(a.build, nodes, rate, a.duration, a.size, a.seed, work)
            rows += [py, cpp]
            print(f"nodes={nodes} rate={rate:g}: e2e p50 python {py['e2e_p50_us']:.1f} us, "
                  f"c++ {cpp['e2e_p50_us']:.1f} us; app_to_daemon p50 python "
                  f"{py['stages']['app_to_daemon']['p50_us']:.1f}, c++ "
                  f"{cpp['stages']['app_to_daemon']['p50_us']:.1f}; daemon_to_app p50 python "
                  f"{py['stages']['daemon_to_app']['p50_us']:.1f}, c++ "
                  f"{cpp['stages']['daemon_to_app']['p50_us']:.1f}", file=sys.stderr)
    if a.json:
        with open(a.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r, sort_keys=True) + "\n")
    print("| nodes | rate | client | sent | delivered | lost | dup | e2e p50 µs | e2e p99 µs | "
          "resident p50 µs | resident p99 µs | generator CPU % | e2e p50 Python / C++ |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for py, cpp in zip(rows[::2], rows[1::2]):
        for r in (py, cpp):
            ratio = f"{py['e2e_p50_us'] / cpp['e2e_p50_us']:.2f}x" if r is py else ""
            print(f"| {r['nodes']} | {r['rate']:g} | {r['client']} | {r['sent']} | {r['delivered']} | "
                  f"{r['lost']} | {r['duplicated']} | {r['e2e_p50_us']:.1f} | {r['e2e_p99_us']:.1f} | "
                  f"{r['resident_p50_us']:.1f} | {r['resident_p99_us']:.1f} | "
                  f"{r['generator_cpu_pct']:.1f} | {ratio} |")
    lost = sum(r["lost"] + r["duplicated"] for r in rows)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
