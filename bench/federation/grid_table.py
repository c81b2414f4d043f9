#!/usr/bin/env python3
"""The before/after grid table: medians over the grid-<side>-<pass>/grid.jsonl
runs of grid_before_after.sh, per payload size, path and payload mode;
e2e p50 from the open-loop runs, throughput from the closed-loop ones."""
import collections, glob, json, os, statistics, sys

out = sys.argv[1]
runs = collections.defaultdict(list)
for side in ("before", "after"):
    for path in glob.glob(os.path.join(out, f"grid-{side}-*", "grid.jsonl")):
        for line in open(path):
            j = json.loads(line)
            runs[(side, j["grid_size"], j["grid_path"], j["grid_mode"], j["grid_kind"])].append(j)

def med(side, size, path, mode, kind, field):
    rs = runs.get((side, size, path, mode, kind), [])
    return statistics.median(r[field] for r in rs) if rs else None

names = {64: "64 B", 65536: "64 KiB", 4194304: "4 MiB"}
paths = {"one": "one daemon, memory", "redis": "one daemon, Redis", "across": "two daemons, across"}
print("| payload | path | payloads | e2e p50 µs before | after | throughput msg/s before | after | ratio | lost / dup (all runs) |")
print("|---|---|---|---:|---:|---:|---:|---:|---|")
for size in (64, 65536, 4194304):
    for path in ("one", "redis", "across"):
        for mode in (("inline",) if path == "one" else ("bykey", "inline")):
            lb, la = med("before", size, path, mode, "lat", "e2e_p50_us"), med("after", size, path, mode, "lat", "e2e_p50_us")
            tb, ta = med("before", size, path, mode, "max", "throughput_msg_s"), med("after", size, path, mode, "max", "throughput_msg_s")
            bad = sum(r["lost"] + r["duplicated"] for side in ("before", "after") for kind in ("lat", "max")
                      for r in runs.get((side, size, path, mode, kind), []))
            fmt = lambda x: "—" if x is None else f"{x:,.0f}"
            ratio = f"{ta / tb:.2f}×" if ta and tb else "—"
            print(f"| {names[size]} | {paths[path]} | {'—' if path == 'one' else ('by key' if mode == 'bykey' else 'inline')} "
                  f"| {fmt(lb)} | {fmt(la)} | {fmt(tb)} | {fmt(ta)} | {ratio} | {bad} |")
