#!/usr/bin/env bash
# Session 11's device call (one call, ~550 s), from the checkout's root, results in $OUT (carry
# .carry/s11 and .carry/py11, made by prep.sh):
#  1. ab_bench.py (prep.sh says what each pair is): the corpus against d7d5b52 (before the pad
#     split and segments); the issued pairs of shifted loads against 3df7ddf (`.pair`); the
#     tile's finish before or after phase 2's loads (`.early`); block sizes 32 and 64 and
#     specialized shapes on small fusions (`.b32`, `.b64`, `.spec`);
#  2. vs_compile.py: the issue-15 table (large and small), the weak layouts (tadd_skinny,
#     tadd_ragged, shift_pad, slice_end); small rows with their floors (an empty launch, a copy
#     of the same bytes) and their graphs' nodes;
#  3. memcheck of every small layout and the layout/shift tests' inputs, aligned and one
#     element off;
#  4. ncu of fuser's kernels: three small twins and the ragged tile (duration, instructions,
#     warp stalls, registers; caches warm as in a graph's replay).
#   bash bench/results/h200_2026-12-07_session11/call.sh .carry/s11 .carry/py11
set -uo pipefail
c=${1:?S11 carry} py=${2:?PY carry}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
FUSER_DLPACK_INCLUDE=$c/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el "runtime built"
rm -rf /tmp/ab && xz -dc "$c/ab.tar.xz" | tar xf - -C /tmp
for side in base new; do
  sed "s| BASE/| /tmp/ab/base/|; s| HEAD/| /tmp/ab/head/|; s| NEW/| /tmp/ab/new/|; s| X/| /tmp/ab/x/|" "/tmp/ab/$side.manifest" > /tmp/$side.manifest
done
timeout 170 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/new.manifest" --mode bench --calls 30 --rounds 10 --deadline 120 --out "$OUT/ab" \
  > "$OUT/ab.txt" 2>&1
el "ab exit $?"
python3 bench/gpu/compare_base.py "$OUT/ab/base.jsonl" "$OUT/ab/new.jsonl" > "$OUT/ab_table.md" 2>&1; cut -c1-160 "$OUT/ab_table.md"
grep -h "check" "$OUT"/ab/*.log | sort | uniq -c | sort -rn | head -6
S=$c/scripts
PYTHONPATH=$py/python timeout 230 python3 bench/gpu/vs_compile.py --rounds 5 --peers-dir "$c" --dump-graphs "$OUT/graphs" \
  $S/two_inputs_small.py $S/slice1_small.py $S/transpose_add_small.py $S/permute_small.py $S/transpose_small.py \
  $S/tadd_ragged_bf16_large.py $S/tadd_skinny_bf16_large.py $S/shift_pad_bf16_large.py $S/slice_end_bf16_large.py \
  $S/two_inputs_large.py $S/slice1_large.py $S/transpose_large.py $S/permute_large.py $S/transpose_add_large.py \
  > "$OUT/vs_compile.jsonl" 2> "$OUT/vs_compile.err"
el "vs_compile exit $?"; cut -c1-400 "$OUT/vs_compile.jsonl"
timeout 80 bash bench/gpu/memcheck.sh "$c/mc" /tmp/rt/fuser-run > "$OUT/memcheck.txt" 2>&1
el "memcheck exit $?"; grep -c "ERROR SUMMARY: 0 errors" "$OUT/memcheck.txt"; grep -v "ERROR SUMMARY: 0 errors" "$OUT/memcheck.txt" | cut -c1-200 | head
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
[ -n "$ncu" ] || { el "no ncu"; exit 0; }
S2="--cache-control none --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section InstructionStats"
mkdir -p "$OUT/ncu"
for n in two_inputs_small slice1_small transpose_add_small tadd_ragged_bf16_large; do
  [ $(( $(date +%s) - start )) -lt 540 ] || break
  # shellcheck disable=SC2086
  timeout 25 "$ncu" $S2 -k regex:fusion -s 2 -c 1 /tmp/rt/fuser-run --artifact "$c/arts/$n.fart" --bench 3 > "$OUT/ncu/fuser_$n.txt" 2>&1
  el "ncu fuser $n exit $?"
done
grep -h -E "^  [a-z_]+.*\(|Duration|Executed Ipc A|Executed Instructions  |Registers Per|Grid Size|Block Size|Warp Cycles Per Issued|DRAM Throughput|Achieved Occupancy" "$OUT"/ncu/*.txt | cut -c1-150
el "all done"
