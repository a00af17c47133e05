#!/bin/sh
# Writes the search and table records in records/ that the corpus merges and
# resumes: shard parts, partial checkpoints, damaged and stopped records.
# They were made once, by the binary of main at 9afd868, and are kept as
# that binary wrote them: merging them after a change proves old records
# still read. Do not run this again unless records change on purpose.
# The partial ones (--time-limit) depend on the thread count and the machine;
# what resuming them prints does not.
set -eu
cd "$(dirname "$0")/../../../.."
L=${LIGHTSOUT:-target/release/lightsout}
R=tests/data/corpus/records
I=tests/data/corpus/inputs
rm -rf $R && mkdir -p $R/w47 $R/b30 $R/branch19 $R/k3-26 $R/hypercube $R/k3-hypercube $R/table $R/table-torus $R/bad
for k in 1 2 3 4; do $L -g all-black -r 47 -c 47 -t white --shard $k/4 > $R/w47/part-$k.json; done
for k in 1 2 3; do $L $I/b-30x30.txt --shard $k/3 > $R/b30/part-$k.json; done
for k in 1 2 3; do $L -g all-black -r 19 -c 19 -t white --engine branch --shard $k/3 > $R/branch19/part-$k.json; done
for k in 1 2 3; do $L --states 3 $I/k3-26x26.txt --target 0 --shard $k/3 > $R/k3-26/part-$k.json; done
for k in 1 2; do $L --graph hypercube:5 $I/b-hypercube5.txt --shard $k/2 > $R/hypercube/part-$k.json; done
for k in 1 2; do $L --graph hypercube:5 --states 3 $I/k3-hypercube5.txt --shard $k/2 > $R/k3-hypercube/part-$k.json; done
for k in 1 2; do $L table -r 1..20 -c 1..20 --shard $k/2 > $R/table/part-$k.json; done
for k in 1 2 3; do $L table -r 1..12 -c 1..12 --torus --shard $k/3 > $R/table-torus/part-$k.json; done
# Another split of w47, and a slice stopped before its end.
$L -g all-black -r 47 -c 47 -t white --shard 1/2 > $R/bad/w47-1of2.json
$L -g all-black -r 47 -c 47 -t white --shard 2/4 --time-limit 0.000001 > $R/bad/w47-2of4-stopped.json 2>/dev/null
# A record edited by hand without sealing it again: its weight 979 -> 978.
sed 's/"weight":979/"weight":978/' $R/w47/part-1.json > $R/bad/w47-1of4-edited.json
grep -q '"weight":978' $R/bad/w47-1of4-edited.json
printf '{"hello": "world"}\n' > $R/bad/not-a-record.json
# Checkpoints of searches stopped at once, to resume.
rm -f $R/cp-w47.json $R/cp-k3-26.json $R/cp-b30.json
$L -g all-black -r 47 -c 47 -t white --time-limit 0.000001 --checkpoint $R/cp-w47.json > /dev/null 2>&1
$L --states 3 $I/k3-26x26.txt --target 0 --time-limit 0.000001 --checkpoint $R/cp-k3-26.json > /dev/null 2>&1
$L $I/b-30x30.txt --shard 2/3 --time-limit 0.000001 --checkpoint $R/cp-b30-2of3.json > /dev/null 2>&1
