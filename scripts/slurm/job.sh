#!/bin/bash
# One shard of a lightsout search, as a task of a Slurm job array.
#
#   sbatch --array=1-N job.sh N OUTDIR LIGHTSOUT [ARGS...]
#
# Task K runs `LIGHTSOUT ARGS... --shard K/N --format json` and leaves its
# partial result in OUTDIR/part-K.json; `lightsout merge OUTDIR/part-*.json`
# then gives the proven answer. N is passed rather than read from
# SLURM_ARRAY_TASK_COUNT so that a rerun of a few failed shards
# (`--array=3,7`) still searches slice 3 of N, not 3 of 2.
#
#SBATCH --job-name=lightsout-shard
#SBATCH --cpus-per-task=1
set -euo pipefail
shards=$1
out=$2
shift 2
task=${SLURM_ARRAY_TASK_ID:?"run me with sbatch --array=1-$shards"}
# One search thread per CPU Slurm gave this task, not one per core of the node.
export RAYON_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
# Written aside and renamed, so a task that fails or is cancelled leaves no
# part file for merge to trip over, and a rerun never appends to an old one.
"$@" --shard "$task/$shards" --format json >"$out/part-$task.json.tmp"
mv "$out/part-$task.json.tmp" "$out/part-$task.json"
