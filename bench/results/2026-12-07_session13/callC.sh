#!/usr/bin/env bash
# Session 13's second device call: the small tiles (smalltile_prep.sh) against the per-point
# kernels they replace; fuser (this tree's binding) against torch.compile on the small transposes
# and twins, and again on two_inputs_large and permute_large (5 rounds); memcheck of the small
# tiles, aligned and misaligned by one element.
#   bash bench/results/2026-12-07_session13/callC.sh .carry/f13 .carry/t13 .carry/py13c
set -uo pipefail
f13=${1:?} t13=${2:?} py=${3:?}
start=$(date +%s)
R=/tmp/res && rm -rf $R && mkdir -p $R
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
keep() { tar czf "$OUT/raw.tgz" -C $R .; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
FUSER_DLPACK_INCLUDE=$f13/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el built
rm -rf /tmp/t13 && mkdir -p /tmp/t13 && xz -dc "$t13/ab.tar.xz" | tar xf - -C /tmp/t13
for side in base new; do sed "s| BASE/| /tmp/t13/ab/base/|; s| NEW/| /tmp/t13/ab/new/|" "/tmp/t13/ab/$side.manifest" > "/tmp/t13/$side.manifest"; done
timeout 80 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/t13/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/t13/new.manifest" --mode bench --calls 30 --rounds 9 --deadline 40 --out "$R/small" > "$R/small.txt" 2>&1
el "small exit $?"
python3 bench/gpu/compare_base.py "$R/small/base.jsonl" "$R/small/new.jsonl" > "$OUT/small_table.md" 2>&1; cut -c1-150 "$OUT/small_table.md"
grep -h "check:" "$R/small"/*.log | sed "s/(fnv1a.*//" | awk '{print $1, $2, $3}' | sort | uniq -c | sort -rn | head -4; keep
S=$f13/scripts
PYTHONPATH=$py/python timeout 200 python3 bench/gpu/vs_compile.py --rounds 5 --peers-dir "$f13" \
  $S/two_inputs_large.py $S/permute_large.py \
  $S/transpose_add_small.py $S/t210_mul_f16_small.py $S/tadd_f32_small.py $S/tadd_ragged_bf16_small.py $S/tbcast_bf16_small.py \
  $S/tout_f32_small.py $S/two_inputs_small.py $S/permute_small.py $S/from_last_bf16_small.py \
  > "$OUT/vs_compile.jsonl" 2> "$R/vs_compile.err"
el "vs_compile exit $?"; tail -2 "$R/vs_compile.err"; cut -c1-330 "$OUT/vs_compile.jsonl"; keep
MEMCHECK_JOBS=12 timeout 60 bash bench/gpu/memcheck.sh "$t13/mc" /tmp/rt/fuser-run > "$R/memcheck.txt" 2>&1
el "memcheck exit $?"; grep -c "ERROR SUMMARY: 0 errors" "$R/memcheck.txt"; grep -v "ERROR SUMMARY: 0 errors" "$R/memcheck.txt" | cut -c1-200 | head; keep
el "all done"
