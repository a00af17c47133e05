#!/bin/sh
# Writes the hardest-boards records in records/hardest/ that the corpus
# merges and resumes: the slices of `hardest --distribution --shard K/N`
# and two checkpoints stopped part way; and beside the older records a
# branch-and-bound (version 3) and a K-state (version 2) search checkpoint
# stopped part way. They were made once, by the binary of main at 2f97663,
# and are kept as that binary wrote them: merging and resuming them after
# a change proves old records still read. Do not run this again unless
# records change on purpose. How far the checkpoints got depends on the
# machine; what resuming them prints does not.
set -eu
cd "$(dirname "$0")/../../../.."
L=${LIGHTSOUT:-target/release/lightsout}
R=tests/data/corpus/records
H=$R/hardest
rm -rf $H && mkdir -p $H/w17 $H/torus4x6 $H/k3-4x4 $H/k6-any $H/k3-petersen
for k in 1 2 3; do $L hardest -r 17 -c 17 --distribution --shard $k/3 > $H/w17/part-$k.json; done
for k in 1 2; do $L hardest -r 4 -c 6 --torus --distribution --shard $k/2 > $H/torus4x6/part-$k.json; done
for k in 1 2 3; do $L hardest -r 4 -c 4 --states 3 --distribution --shard $k/3 > $H/k3-4x4/part-$k.json; done
for k in 1 2; do $L hardest -r 2 -c 5 --states 6 -t any --distribution --shard $k/2 > $H/k6-any/part-$k.json; done
for k in 1 2; do $L hardest --graph petersen --states 3 --distribution --shard $k/2 > $H/k3-petersen/part-$k.json; done
# Checkpoints stopped part way (a stopped slice exits 3 once it is saved).
$L hardest -r 6 -c 6 --torus --distribution --shard 5/40 --time-limit 0.08 --checkpoint $H/cp-torus6-5of40.json 2>/dev/null || true
$L hardest -r 4 -c 4 --states 4 -t 2 --distribution --shard 2/2 --time-limit 0.25 --checkpoint $H/cp-k4-2of2.json 2>/dev/null || true
rm -f $R/cp-branch19-2of3.json $R/cp-k3-26-part.json
$L -g all-black -r 19 -c 19 -t white --engine branch --shard 2/3 --time-limit 0.005 --checkpoint $R/cp-branch19-2of3.json > /dev/null 2>&1
$L --states 3 tests/data/corpus/inputs/k3-26x26.txt --target 0 --time-limit 0.005 --checkpoint $R/cp-k3-26-part.json > /dev/null 2>&1
for cp in $H/cp-*.json $R/cp-branch19-2of3.json $R/cp-k3-26-part.json; do
    echo "$cp: $(grep -o '"done":[0-9]*' "$cp" | tr '\n' ' ')"
done
