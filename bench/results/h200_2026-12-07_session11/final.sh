#!/usr/bin/env bash
# Session 11's second device call (~260 s), from the checkout's root, results in $OUT (carry
# .carry/f11 and .carry/py11, made by final_prep.sh):
#  1. ab_bench.py: the corpus against d7d5b52; the funnel shift against the pair loads' i64
#     shift (`.fshr`, a8a1c26);
#  2. vs_compile.py: the small twins (the binding now compiles small calls' extents as
#     constants, FUSER_SPECIALIZE_SMALL) with their floors, and the ragged tile;
#  3. memcheck of the shifted loads' tests and the misaligned small layouts.
#   bash bench/results/h200_2026-12-07_session11/final.sh .carry/f11 .carry/py11
set -uo pipefail
c=${1:?F11 carry} py=${2:?PY carry}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
FUSER_DLPACK_INCLUDE=$c/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el "runtime built"
rm -rf /tmp/ab && xz -dc "$c/ab.tar.xz" | tar xf - -C /tmp
for side in base new; do
  sed "s| BASE/| /tmp/ab/base/|; s| PAIR/| /tmp/ab/pair/|; s| NEW/| /tmp/ab/new/|" "/tmp/ab/$side.manifest" > /tmp/$side.manifest
done
timeout 90 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/new.manifest" --mode bench --calls 30 --rounds 10 --deadline 55 --out "$OUT/ab" \
  > "$OUT/ab.txt" 2>&1
el "ab exit $?"
python3 bench/gpu/compare_base.py "$OUT/ab/base.jsonl" "$OUT/ab/new.jsonl" > "$OUT/ab_table.md" 2>&1; cut -c1-160 "$OUT/ab_table.md"
grep -h "check:" "$OUT"/ab/*.log | sed "s/(fnv1a.*//" | sort | uniq -c | sort -rn | head -5; rm -f "$OUT"/ab/*.log
S=$c/scripts
PYTHONPATH=$py/python timeout 110 python3 bench/gpu/vs_compile.py --rounds 5 --peers-dir "$c" \
  $S/two_inputs_small.py $S/slice1_small.py $S/transpose_add_small.py $S/permute_small.py $S/transpose_small.py \
  $S/tadd_ragged_bf16_large.py \
  > "$OUT/vs_compile.jsonl" 2> "$OUT/vs_compile.err"
el "vs_compile exit $?"; cut -c1-330 "$OUT/vs_compile.jsonl"
timeout 60 bash bench/gpu/memcheck.sh "$c/mc" /tmp/rt/fuser-run > "$OUT/memcheck.txt" 2>&1
el "memcheck exit $?"; grep -c "ERROR SUMMARY: 0 errors" "$OUT/memcheck.txt"; grep -v "ERROR SUMMARY: 0 errors" "$OUT/memcheck.txt" | cut -c1-200 | head
el "all done"
