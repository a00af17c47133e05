#!/usr/bin/env bash
# Our sparse elimination against M4RI on the same flip matrices, in one run.
#
#   scripts/bench-m4ri.sh [SIZES...]     (default: 64 128 200)
#
# Needs libm4ri-dev (apt-get install -y libm4ri-dev) and ../shared/bench.
# M4RI's figure is `solve_s`: echelon form of [A | b] with the right-hand side
# (its `rank_s`, echelon form without it, is printed too). Ours is
# `total_s`: factoring plus solving. Both exclude building the matrix.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-64 128 200}")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
make -s -C ../shared/bench OUT="$out" >/dev/null
cargo build --release --quiet --example dense_timing
for n in ${sizes[@]}; do
    ours=$(target/release/examples/dense_timing "$n" "$n")
    theirs=$("$out/m4ri_lightsout" full "$n" "$n")
    t_ours=$(grep -o 'total_s=[0-9.]*' <<< "$ours" | cut -d= -f2)
    t_theirs=$(grep -o 'solve_s=[0-9.]*' <<< "$theirs" | cut -d= -f2)
    r_theirs=$(grep -o 'rank_s=[0-9.]*' <<< "$theirs" | cut -d= -f2)
    nul_ours=$(grep -o 'nullity=[0-9]*' <<< "$ours")
    nul_theirs=$(grep -o 'nullity=[0-9]*' <<< "$theirs")
    [ "$nul_ours" = "$nul_theirs" ] || { echo "nullity differs: $nul_ours vs $nul_theirs" >&2; exit 1; }
    python3 -c "print(f'{$n}x{$n} ({$n}*{$n} unknowns, $nul_ours): ours {$t_ours*1000:.1f} ms, M4RI solve {$t_theirs*1000:.1f} ms (rank only {$r_theirs*1000:.1f} ms), M4RI/ours {$t_theirs/$t_ours:.1f}x')"
done
