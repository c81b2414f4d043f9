#!/usr/bin/env python3
"""Per-stage and per-process detail of `trestle bench --json` results.

Usage: summarize.py RESULTS.jsonl
Prints a Markdown table: one row per configuration with the p50/p99 of each
leg of the trip (µs), the CPU of the daemon, the ghost simulator and the
load generator, the daemon's idle CPU and the connect time.
"""
import json
import sys


def fmt(v, digits=1):
    return "n/a" if v is None else f"{v:.{digits}f}"


def main(path):
    legs = ["app_to_daemon", "daemon_to_sim", "in_sim", "sim_to_daemon_delivered", "daemon_to_app"]
    print("| nodes | rate | mode | " + " | ".join(f"{l} p50/p99 µs" for l in legs)
          + " | daemon CPU % | ghost CPU % | generator CPU % | idle CPU % | connect s |")
    print("|---:|---:|---|" + "---:|" * (len(legs) + 5))
    with open(path) as f:
        for line in f:
            j = json.loads(line)
            stages = j.get("stages", {})
            cells = [f"{fmt(stages.get(l, {}).get('p50_us'))} / {fmt(stages.get(l, {}).get('p99_us'))}"
                     for l in legs]
            rate = j["rate"] if isinstance(j["rate"], str) else f"{j['rate']:g}"
            print(f"| {j['nodes']} | {rate} | {j['mode']} | " + " | ".join(cells)
                  + f" | {fmt(j['cpu_pct'])} | {fmt(j['sim_cpu_pct'])} | {fmt(j['generator_cpu_pct'])}"
                  + f" | {fmt(j['idle_cpu_pct'])} | {fmt(j['connect_s'], 2)} |")


if __name__ == "__main__":
    main(sys.argv[1])
