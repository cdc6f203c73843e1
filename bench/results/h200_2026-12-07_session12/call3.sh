#!/usr/bin/env bash
# Session 12's second device call: 256-thread tiles against 128 (threads_prep.sh's carry),
# and ncu of the 256-thread ragged tile.
#   bash bench/results/h200_2026-12-07_session12/call3.sh .carry/f11 .carry/t12 .carry/py256
set -uo pipefail
f11=${1:?} t12=${2:?}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
FUSER_DLPACK_INCLUDE=$f11/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
rm -rf /tmp/t12 && mkdir -p /tmp/t12 && xz -dc "$t12/ab.tar.xz" | tar xf - -C /tmp/t12
for side in base new; do sed "s| BASE/| /tmp/t12/ab/base/|; s| NEW/| /tmp/t12/ab/new/|" "/tmp/t12/ab/$side.manifest" > "/tmp/t12/$side.manifest"; done
timeout 100 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/t12/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/t12/new.manifest" --mode bench --calls 30 --rounds 10 --deadline 60 --out /tmp/t12out > "$OUT/threads.txt" 2>&1
el "ab exit $?"
python3 bench/gpu/compare_base.py /tmp/t12out/base.jsonl /tmp/t12out/new.jsonl > "$OUT/threads_table.md" 2>&1; cut -c1-160 "$OUT/threads_table.md"
grep -h "check:" /tmp/t12out/*.log | sed "s/(fnv1a.*//" | sort | uniq -c | sort -rn | head -5
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
timeout 40 "$ncu" --cache-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis \
  -k regex:tile -s 2 -c 1 /tmp/rt/fuser-run --artifact "$t12/ragged_v256.fart" --bench 3 > "$OUT/ncu_ragged_v256.txt" 2>&1
el "ncu exit $?"
grep -E "Duration|Executed Instructions  |Registers Per|DRAM Throughput|L2 Cache Throughput|Achieved Occupancy|Warp Cycles Per Issued" "$OUT/ncu_ragged_v256.txt" | cut -c1-150
# $3: the binding of the 256-thread tree (/tmp/v256, python_run.sh prepare): vs torch.compile
py=${3:-}
if [ -n "$py" ]; then
  for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
  S=$f11/scripts
  PYTHONPATH=$py/python timeout 100 python3 bench/gpu/vs_compile.py --rounds 5 --peers-dir "$f11" \
    $S/tadd_ragged_bf16_large.py $S/transpose_add_large.py $S/transpose_add_small.py > "$OUT/vs_compile256.jsonl" 2> "$OUT/vs_compile256.err"
  el "vs_compile exit $?"; cut -c1-330 "$OUT/vs_compile256.jsonl"; rm -f "$OUT/vs_compile256.err"
fi
MEMCHECK_JOBS=12 timeout 90 bash bench/gpu/memcheck.sh "$t12/mc" /tmp/rt/fuser-run > "$OUT/memcheck256.txt" 2>&1
el "memcheck exit $?"; grep -c "ERROR SUMMARY: 0 errors" "$OUT/memcheck256.txt"; grep -v "ERROR SUMMARY: 0 errors" "$OUT/memcheck256.txt" | cut -c1-200 | head
el "all done"
