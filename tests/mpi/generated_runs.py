"""Runs a generated MPI program (program_generator.py) under `trestle mpirun`
in the configurations that must agree, and says how it went.

For seed S, on a switch of the program's rank count with `--compute none`:
- `whole`, twice: the default mirror (collectives whole, unaware model),
  default ordering: both runs end, with the same clock readings;
- `steps`: collectives step by step (whole ones share the model's
  connections with point-to-point messages too): the same readings;
- `flow`, twice, and `flow/steps` (FLOW_PAIRS): the flow model, collectives
  whole and step by step: the same.
A run that does not end within its bound is a hang; the verdict names it.

Also a command, for soaks (bench/faults/mpi_programs.sh):
  generated_runs.py --seeds 1-500 [--flow] [--keep DIR]
with TRESTLE_CLI set to the `trestle` binary."""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bounded_run import run_bounded  # noqa: E402
from program_generator import generate  # noqa: E402

LINKS = ["--link-bw", "400Gbps", "--link-latency", "500ns"]
CONFIGS = {
    "whole": ["--mirror", "collectives"],
    "steps": ["--mirror", "steps"],
    "flow": ["--model", "flow", "--mirror", "collectives"],
    "flow/steps": ["--model", "flow", "--mirror", "steps"],
}
# The pairs that must agree: (first, second) run names.
PAIRS = [("whole", "whole#2"), ("whole", "steps")]
FLOW_PAIRS = [("flow", "flow#2"), ("flow", "flow/steps")]
TIMEOUT_S = 120


def run(trestle_cli, ranks, script, config, timeout=TIMEOUT_S):
    """(readings by rank, output, verdict): verdict is None when the run
    ended well, else what went wrong."""
    args = [trestle_cli, "mpirun", "--quiet", "--topology", f"switch:{ranks}", *LINKS,
            "--compute", "none", *CONFIGS[config], "--",
            "mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(ranks),
            "/usr/bin/python3", script]
    returncode, out = run_bounded(args, timeout)
    if returncode is None:
        return {}, out, f"hang: {config} did not end within {timeout} s"
    readings = {int(m.group(1)): m.group(2)
                for m in re.finditer(r"^rank (\d+): (.*)$", out, re.MULTILINE)}
    if returncode != 0:
        return readings, out, f"{config} exited {returncode}"
    if sorted(readings) != list(range(ranks)):
        return readings, out, f"{config} printed the readings of ranks {sorted(readings)} only"
    return readings, out, None


def check_seed(trestle_cli, seed, pairs=PAIRS, keep=None):
    """None if program `seed` passes the checks of `pairs`, else the verdict
    with the outputs that explain it."""
    ranks, source = generate(seed)
    work = keep or tempfile.mkdtemp(prefix=f"trestle-mpi-gen-{seed}-")
    os.makedirs(work, exist_ok=True)
    script = os.path.join(work, f"program_{seed}.py")
    with open(script, "w") as f:
        f.write(source)
    runs = {}
    for first, second in pairs:
        for name in (first, second):
            if name in runs:
                continue
            readings, out, verdict = run(trestle_cli, ranks, script, name.split("#")[0])
            if verdict is not None:
                return f"seed {seed} ({script}): {verdict}\n{out}"
            runs[name] = (readings, out)
        if runs[first][0] != runs[second][0]:
            diff = [f"  rank {k}: {first}: {runs[first][0][k]}\n  rank {k}: {second}: "
                    f"{runs[second][0][k]}" for k in range(ranks)
                    if runs[first][0][k] != runs[second][0][k]]
            return (f"seed {seed} ({script}): {first} and {second} read different times:\n"
                    + "\n".join(diff))
    return None


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds += list(range(int(lo), int(hi or lo) + 1))
    return seeds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-100", help="e.g. 1-500 or 3,7,10-20")
    parser.add_argument("--flow", action="store_true", help="also run the flow model twice")
    parser.add_argument("--keep", help="keep the programs in this directory")
    a = parser.parse_args()
    cli = os.environ.get("TRESTLE_CLI")
    if not cli:
        sys.exit("generated_runs.py: set TRESTLE_CLI to the trestle binary")
    failed = []
    seeds = parse_seeds(a.seeds)
    for i, seed in enumerate(seeds, 1):
        verdict = check_seed(cli, seed, PAIRS + (FLOW_PAIRS if a.flow else []), a.keep)
        print(f"[{i}/{len(seeds)}] seed {seed}: {'ok' if verdict is None else 'FAILED'}",
              flush=True)
        if verdict is not None:
            failed.append(seed)
            print(verdict, flush=True)
    print(f"{len(seeds) - len(failed)} passed, {len(failed)} failed"
          + (f" (seeds {','.join(map(str, failed))})" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
