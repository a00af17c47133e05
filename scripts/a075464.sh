#!/usr/bin/env bash
# Fewest presses from all black to all white on n x n (OEIS A075464), each proven by the
# exhaustive search (symmetric where it applies), with the nullity and the wall time.
# Usage: scripts/a075464.sh [FROM [TO]]   (default 1..78; 79x79 has nullity 64, past a mask)
set -euo pipefail
cd "$(dirname "$0")/.."
from=${1:-1}
to=${2:-78}
cargo build --release --quiet
bin=target/release/lightsout
printf 'n\tnullity\tpresses\tproven\tseconds\n'
for n in $(seq "$from" "$to"); do
    start=$(date +%s.%N)
    line=$("$bin" --generate all-black --rows "$n" --cols "$n" --target white --max-nullity 63 --format json)
    end=$(date +%s.%N)
    python3 - "$line" "$n" "$start" "$end" <<'PY'
import json, sys
answer, n, start, end = json.loads(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
white = answer["white"]
print(f"{n}\t{answer['nullity']}\t{white['presses']}\t{str(white['proven_minimal']).lower()}\t{end - start:.2f}")
PY
done
