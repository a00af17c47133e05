#!/usr/bin/env python3
"""Whole-process times of several builds side by side, alternating, median of RUNS.

    scripts/bench-builds.py [--runs N] REV [REV ...]

Each REV (a commit, a branch, or "." for the working tree) is resolved to its commit and built
in a worktree of this repository named after that commit, under target/bench-builds/ (reused by
later runs; `git worktree prune` after deleting the folder), then every command runs under each
build in turn, so that a shared machine's load falls on all of them alike. Each line gives the
median time of every build and, in brackets, its speed-up against the first REV. Outputs are
compared (JSON without its timing fields); a command that fails under a build stops the run.
"""
import argparse, json, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "bench-builds")
COMMANDS = {
    "61x61 slice 1/16": "-g all-black -r 61 -c 61 -t white --max-nullity 40 --shard 1/16 --format json",
    "65x65 slice 1/64": "-g all-black -r 65 -c 65 -t white --max-nullity 48 --shard 1/64 --format json",
    "47x47": "-g all-black -r 47 -c 47 -t white",
    "4x4 batch": f"{WORK}/all4.txt",
}


def build(rev):
    if rev == ".":
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "lightsout"], cwd=ROOT, check=True)
        return os.path.join(ROOT, "target/release/lightsout")
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    tree = os.path.join(WORK, commit)
    if not os.path.isdir(tree):
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", tree, commit], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "lightsout"], cwd=tree, check=True)
    return os.path.join(tree, "target/release/lightsout")


def normal(out):
    try:
        record = json.loads(out)
    except ValueError:
        return out
    if not isinstance(record, dict):
        return out
    for key in ("milliseconds", "checksum"):
        record.pop(key, None)
    return json.dumps(record, sort_keys=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("revs", nargs="+")
    args = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    boards = os.path.join(WORK, "all4.txt")
    if not os.path.exists(boards):
        with open(boards, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/all-4x4-boards.py")], stdout=f, check=True)
    binaries = {rev: build(rev) for rev in args.revs}
    print(f"load {os.getloadavg()[0]:.1f}; median of {args.runs} runs each", flush=True)
    for name, command in COMMANDS.items():
        times = {rev: [] for rev in binaries}
        outputs = {}
        for _ in range(args.runs):
            for rev, binary in binaries.items():
                start = time.perf_counter()
                done = subprocess.run(f"{binary} {command}", shell=True, capture_output=True, text=True)
                times[rev].append(time.perf_counter() - start)
                if done.returncode != 0:
                    sys.exit(f"{name} failed under {rev} (exit {done.returncode}): {done.stderr.strip()}")
                outputs[rev] = normal(done.stdout)
        medians = {rev: statistics.median(t) for rev, t in times.items()}
        first = args.revs[0]
        cells = ", ".join(f"{rev} {m:.2f} s ({medians[first] / m:.1f}x)" for rev, m in medians.items())
        same = "same output" if len(set(outputs.values())) == 1 else "OUTPUTS DIFFER"
        print(f"{name}: {cells}; {same}", flush=True)


if __name__ == "__main__":
    main()
