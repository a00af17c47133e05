#!/usr/bin/env bash
# Whole-process throughput, measured side by side in one run (shared machines
# are noisy: compare the ratio, not the absolute times).
#
#   scripts/bench-cli.sh [RUNS]
#
# 1. all 65,536 4x4 boards piped through `lightsout` vs a plain per-board BFS
#    (examples/bfs_flip_game.rs), outputs compared line by line;
# 2. a few large generated boards.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
cargo build --release --quiet --bin lightsout --example bfs_flip_game
bin=target/release/lightsout
bfs=target/release/examples/bfs_flip_game
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/all-4x4-boards.py > "$work/all4x4.txt"

"$bin" < "$work/all4x4.txt" > "$work/ours.txt"
"$bfs" < "$work/all4x4.txt" > "$work/bfs.txt"
cmp -s "$work/ours.txt" "$work/bfs.txt" || { echo "outputs differ!" >&2; exit 1; }
echo "outputs identical on all 65,536 boards"

# median wall time of RUNS runs of a command, in milliseconds; with a third
# argument, also the peak resident memory of the runs, in MiB
median_ms() {
    python3 - "$runs" "$1" "${2:-}" <<'PY'
import resource, shlex, subprocess, sys, time, statistics
runs, cmd, memory = int(sys.argv[1]), sys.argv[2], sys.argv[3]
times = []
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
    times.append((time.perf_counter() - t) * 1000)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{statistics.median(times):.1f}" + (f" ms, peak {peak:.0f} MiB" if memory else ""))
PY
}

ours=$(median_ms "$bin < $work/all4x4.txt")
theirs=$(median_ms "$bfs < $work/all4x4.txt")
python3 -c "print(f'all 65,536 4x4 boards: lightsout {$ours} ms, per-board BFS {$theirs} ms, ratio {$theirs/$ours:.0f}x (median of $runs)')"

for spec in "all-black 200 200 white" "random 1000 1000 either --seed 1"; do
    read -r kind rows cols target seed <<< "$spec"
    t=$(median_ms "$bin --generate $kind --rows $rows --cols $cols --target $target --format text $seed")
    echo "$kind ${rows}x${cols} to $target, full minimum-press grid: $t ms (median of $runs, whole process)"
done

"$bin" generate random --rows 10000 --cols 10000 --seed 1 --pbm raw > "$work/random10k.pbm"
t=$(median_ms "$bin $work/random10k.pbm" memory)
echo "random 10000x10000 read from PBM (12.5 MB), either target: $t (median of $runs, whole process)"

runs=3
t=$(median_ms "$bin --generate all-black --rows 100000 --cols 100000 --target white" memory)
echo "all-black 100000x100000 to white, press count: $t (median of $runs, whole process)"
