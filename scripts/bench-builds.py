#!/usr/bin/env python3
"""Whole-process times of several builds side by side, alternating, median of RUNS.

    scripts/bench-builds.py [--runs N] [--only WORD] REV [REV ...]

Each REV (a commit, a branch, or "." for the working tree) is resolved to its commit and built
in a worktree of this repository named after that commit, under target/bench-builds/ (reused by
later runs; `git worktree prune` after deleting the folder; a new one starts from a copy of this
tree's target/release, so that its build is incremental), then every command runs under each
build in turn, so that a shared machine's load falls on all of them alike. Each line gives, per
build, the median wall time and the median CPU time (user + system, all threads) and, in
brackets, the speed-up of each against the first REV: on a loaded machine the CPU time is the
steadier figure. --only keeps the commands whose name holds WORD (e.g. `analyze`, `K=`).
Outputs are compared (JSON without its timing fields); a command that fails under a build stops
the run.
"""
import argparse, json, os, resource, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "bench-builds")
COMMANDS = {
    # Two states.
    "61x61 slice 1/16": "-g all-black -r 61 -c 61 -t white --max-nullity 40 --shard 1/16 --format json",
    "65x65 slice 1/64": "-g all-black -r 65 -c 65 -t white --max-nullity 48 --shard 1/64 --format json",
    "47x47": "-g all-black -r 47 -c 47 -t white",
    "4x4 batch": f"{WORK}/all4.txt",
    "analyze 127x127 torus": "analyze -r 127 -c 127 --torus",
    "analyze 128x128": "analyze -r 128 -c 128",
    # K states: exact minima (the folded engine), a slice of the sliced one, and an analysis
    # given its budget (the K-state default changed on purpose in issue 21: 28, then 24).
    "K=3 12x12 torus": "--states 3 -r 12 -c 12 --torus -g all-black -t 0",
    "K=5 24x24": "--states 5 -r 24 -c 24 -g all-black -t 0",
    "K=5 24x24 slice 1/16": "--states 5 -r 24 -c 24 -g all-black -t 0 --shard 1/16 --format json",
    "analyze K=3 12x12 torus": "analyze --states 3 -r 12 -c 12 --torus --max-nullity 28",
    # The smallest orders walked inner (issue 25 items 2 and 6): a kernel of many small orders.
    "analyze K=128 9x9": "analyze --states 128 -r 9 -c 9",
    "K=255 17x19 to 0": "--states 255 -r 17 -c 19 -g all-black -t 0",
    # Graphs: two states (nullity 0, 8192 vertices) and K = 3.
    "graph hypercube:13": "--graph hypercube:13 -g all-black -t white",
    "graph hypercube:11 K=3": "--graph hypercube:11 --states 3 -g all-black -t 0",
}


def build(rev):
    """The commit of `rev` and its binary, built."""
    if rev == ".":
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "lightsout"], cwd=ROOT, check=True)
        return "the working tree", os.path.join(ROOT, "target/release/lightsout")
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    tree = os.path.join(WORK, commit)
    if not os.path.isdir(tree):
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", tree, commit], cwd=ROOT, check=True)
        seed = os.path.join(ROOT, "target", "release")
        if os.path.isdir(seed):
            shutil.copytree(seed, os.path.join(tree, "target", "release"), symlinks=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "lightsout"], cwd=tree, check=True)
    return commit, os.path.join(tree, "target/release/lightsout")


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


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command):
    """Runs `command` in a shell: (wall seconds, CPU seconds of its processes, the finished run)."""
    cpu, start = children_cpu(), time.perf_counter()
    done = subprocess.run(command, shell=True, capture_output=True, text=True)
    return time.perf_counter() - start, children_cpu() - cpu, done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="run only the commands whose name holds this")
    parser.add_argument("revs", nargs="+")
    args = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    boards = os.path.join(WORK, "all4.txt")
    if not os.path.exists(boards):
        with open(boards, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/all-4x4-boards.py")], stdout=f, check=True)
    built = {rev: build(rev) for rev in args.revs}
    binaries = {rev: binary for rev, (_, binary) in built.items()}
    commits = ", ".join(f"{rev} = {commit[:9]}" for rev, (commit, _) in built.items())
    print(f"{commits}; load {os.getloadavg()[0]:.1f}; median of {args.runs} runs each (wall, CPU)", flush=True)
    first = args.revs[0]
    for name, command in COMMANDS.items():
        if args.only not in name:
            continue
        walls, cpus = {rev: [] for rev in binaries}, {rev: [] for rev in binaries}
        outputs = {}
        for _ in range(args.runs):
            for rev, binary in binaries.items():
                wall, cpu, done = timed(f"{binary} {command}")
                walls[rev].append(wall)
                cpus[rev].append(cpu)
                if done.returncode != 0:
                    sys.exit(f"{name} failed under {rev} (exit {done.returncode}): {done.stderr.strip()}")
                outputs[rev] = normal(done.stdout)
        wall = {rev: statistics.median(t) for rev, t in walls.items()}
        cpu = {rev: statistics.median(t) for rev, t in cpus.items()}
        cells = ", ".join(
            f"{rev} {wall[rev]:.2f} s ({wall[first] / wall[rev]:.2f}x), CPU {cpu[rev]:.2f} s "
            f"({cpu[first] / max(cpu[rev], 1e-3):.2f}x)"
            for rev in binaries
        )
        same = "same output" if len(set(outputs.values())) == 1 else "OUTPUTS DIFFER"
        print(f"{name}: {cells}; {same}; load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
