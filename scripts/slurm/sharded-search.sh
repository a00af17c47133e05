#!/usr/bin/env bash
# A sharded minimum-weight search as a Slurm job array, checked against the
# single-process answer, on a throwaway one-node cluster (start-cluster.sh).
#
#   scripts/slurm/sharded-search.sh [ROWS [COLS [SHARDS]]]     (default 61 61 4)
#
# 1. builds lightsout (cargo build --release);
# 2. starts munged, slurmctld and slurmd (installing slurm-wlm and munge if
#    missing); they are stopped by pid when this script ends;
# 3. all-black ROWSxCOLS -> white: `sbatch --wait --array=1-SHARDS job.sh`,
#    one slice of the null space per task, then `lightsout merge`; the merged
#    answer must equal the unsharded command's (JSON, press grid included;
#    the default format's press count);
# 4. the same for `lightsout table --rows TABLE_ROWS --cols TABLE_COLS`
#    (default 1..1000 each), merged and compared with the unsharded table
#    (JSON, one line per size).
# MAX_NULLITY (default 63: every null space a mask holds) is passed as --max-nullity.
# Exits 1 if any answer differs. Needs root (slurmd). Not part of CI.
# LIGHTSOUT=path uses that binary instead of building one.
set -Eeuo pipefail
cd "$(dirname "$0")/../.."
rows=${1:-61}
cols=${2:-61}
shards=${3:-4}
table_rows=${TABLE_ROWS:-1..1000}
table_cols=${TABLE_COLS:-1..1000}
here=$PWD

if [[ -n ${LIGHTSOUT:-} ]]; then
    bin=$(realpath "$LIGHTSOUT")
else
    cargo build --release --quiet --bin lightsout
    bin=$here/target/release/lightsout
fi

# shellcheck source=scripts/slurm/start-cluster.sh
source scripts/slurm/start-cluster.sh
cluster_start
trap 'echo "sharded-search: failed at line $LINENO" >&2' ERR
work=$cluster_dir/jobs

# The log goes to fd 3, this script's standard output, so that it stays on
# screen when a command's own output is sent to a file.
exec 3>&1

# A command line as a user would type it: the binary as `lightsout`, the
# temporary folder as $work.
show() {
    local line="\$ $*"
    line=${line//$bin/lightsout}
    echo "${line//$work/\$work}" >&3
}

elapsed_since() {
    awk -v s="$1" -v e="$EPOCHREALTIME" 'BEGIN { printf "  (%.1f s)\n", e - s }' >&3
}

# Show a command, run it, say how long it took.
run() {
    show "$@"
    local start=$EPOCHREALTIME status=0
    "$@" || status=$?
    if ((status != 0)); then
        echo "sharded-search: exit $status from: $(show "$@" 3>&1)" >&2
        exit 1
    fi
    elapsed_since "$start"
}

# Run `lightsout ARGS...` as a job array of $shards tasks writing into $1,
# showing the queue once while it runs and each task's record when done.
run_array() {
    local parts=$1
    shift
    mkdir -p "$parts"
    show sbatch --wait --array="1-$shards" job.sh "$shards" "$parts" "$bin" "$@"
    local start=$EPOCHREALTIME
    sbatch --wait --array="1-$shards" --output="$work/slurm-%A_%a.out" \
        scripts/slurm/job.sh "$shards" "$parts" "$bin" "$@" &
    local sbatch_pid=$! status=0
    sleep 3
    squeue
    wait "$sbatch_pid" || status=$?
    elapsed_since "$start"
    # Accounting (sacct) needs slurmdbd; the job completion log says as much.
    sed -E 's/.*JobState=([A-Z]+).*StartTime=([^ ]+) EndTime=([^ ]+).*ArrayJobId=([0-9]+) ArrayTaskId=([0-9]+).*ExitCode=([0-9:]+).*/  task \5 of job \4: \1 exit \6, \2 .. \3/' \
        "$cluster_dir/log/jobcomp.txt" | sort -k2,2n
    if ((status != 0)); then
        tail -n 5 "$work"/slurm-*.out >&2
        echo "sharded-search: the job array failed (sbatch exit $status)" >&2
        exit 1
    fi
    : >"$cluster_dir/log/jobcomp.txt"
}

# Compare a merged answer with the single-process one, byte for byte.
same() {
    local what=$1 merged=$2 single=$3
    if cmp -s "$merged" "$single"; then
        echo "same: $what"
    else
        echo "DIFFERENT: $what" >&2
        diff "$merged" "$single" | head -n 10 >&2
        exit 1
    fi
}

# The press count the default format prints, from a JSON answer.
best_presses() {
    python3 -c 'import json, sys; b = json.load(sys.stdin)["best"]; print(b["presses"] if b else "Impossible")'
}

sinfo
search=(--generate all-black --rows "$rows" --cols "$cols" --target white --max-nullity "${MAX_NULLITY:-63}")
run_array "$work/search" "${search[@]}"
run "$bin" merge "$work"/search/part-*.json >"$work/merged.txt"
run "$bin" merge --format json "$work"/search/part-*.json >"$work/merged.json"
# One single-process search (the expensive part): its JSON answer, and the
# press count read from it.
run "$bin" "${search[@]}" --format json >"$work/single.json"
best_presses <"$work/single.json" >"$work/single.txt"
same "all-black ${rows}x${cols} -> white: $(cat "$work/merged.txt") presses" "$work/merged.txt" "$work/single.txt"
same "all-black ${rows}x${cols} -> white: the JSON answer, press grid included ($(wc -c <"$work/single.json") bytes)" \
    "$work/merged.json" "$work/single.json"

table=(table --rows "$table_rows" --cols "$table_cols")
run_array "$work/table" "${table[@]}"
run "$bin" merge --format json "$work"/table/part-*.json >"$work/table-merged.txt"
run "$bin" "${table[@]}" --format json >"$work/table-single.txt"
same "table --rows $table_rows --cols $table_cols: $(wc -l <"$work/table-single.txt") lines" \
    "$work/table-merged.txt" "$work/table-single.txt"
echo "all sharded answers equal the single-process ones"
