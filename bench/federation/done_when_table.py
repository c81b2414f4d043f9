#!/usr/bin/env python3
"""Medians per (side, config) of runs.jsonl: throughput, stayed and crossed
throughput, e2e p50, and whether every run was exact (lost, duplicated,
per-daemon balance as the bench checked it: its 'error' field)."""
import collections, json, statistics, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
groups = collections.defaultdict(list)
for r in rows:
    groups[(r["config"], r["side"])].append(r)
print("| config | side | runs | msg/s (each run) | median msg/s | stayed msg/s | crossed msg/s | e2e p50 µs | lost+dup | errors |")
print("|---|---|---:|---|---:|---:|---:|---:|---:|---|")
for (config, side), rs in sorted(groups.items()):
    t = [r["throughput_msg_s"] for r in rs]
    stayed = [(r.get("stayed") or {}).get("throughput_msg_s") or 0 for r in rs]
    crossed = [(r.get("crossed") or {}).get("throughput_msg_s") or 0 for r in rs]
    p50 = [r["e2e_p50_us"] for r in rs]
    bad = sum(r["lost"] + r["duplicated"] for r in rs)
    errors = sorted({r["error"] for r in rs if r.get("error")})
    print(f"| {config} | {side} | {len(rs)} | {' '.join(f'{x/1000:.1f}k' for x in t)} | "
          f"{statistics.median(t)/1000:.1f}k | {statistics.median(stayed)/1000:.1f}k | "
          f"{statistics.median(crossed)/1000:.1f}k | {statistics.median(p50):.0f} | {bad} | "
          f"{'; '.join(errors) or '-'} |")
