#!/usr/bin/env bash
# The exact minimum, whole process, this build against a baseline build, side by side in one run
# (shared machines are noisy: compare the ratio, not the absolute times).
#
#   scripts/bench-search.sh [BASELINE_REV [RUNS]]
#
# BASELINE_REV defaults to 99cea00, the last build before the Walsh–Hadamard engine of
# src/solve/minimal/ (one-core transform with i32 counters, greedy descent past nullity 34).
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${1:-99cea00}
runs=${2:-3}
cargo build --release --quiet --bin lightsout
work=$(mktemp -d)
trap 'git worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach --quiet "$work/src" "$baseline"
CARGO_TARGET_DIR="$work/target" cargo build --release --quiet --bin lightsout --manifest-path "$work/src/Cargo.toml"
ours=target/release/lightsout
theirs=$work/target/release/lightsout

# median wall time of RUNS runs of a command, in seconds, and its output
median_s() {
    python3 - "$runs" "$1" <<'PY'
import subprocess, sys, time, statistics
runs, cmd = int(sys.argv[1]), sys.argv[2]
times, out = [], ""
for _ in range(runs):
    t = time.perf_counter()
    out = subprocess.run(cmd, shell=True, check=True, capture_output=True, text=True).stdout.strip()
    times.append(time.perf_counter() - t)
print(f"{statistics.median(times):.2f} s ({out})")
PY
}

for n in 47 39; do
    args="--generate all-black --rows $n --cols $n --target white"
    a=$(median_s "$ours $args")
    b=$(median_s "$theirs $args --max-nullity 34")
    echo "all-black ${n}x${n} -> white: this build $a, baseline $b (median of $runs)"
done
