#!/usr/bin/env bash
# Session 10's device call (~400 s), from the checkout's root, results in $OUT:
#  1. A/B of the mixed variant's loads (AB: .carry/ab10, made by ab_prep.sh): base = this
#     tree's artifacts, new = the same built with FUSER_SHIFT_ONLY=1 (a tensor with in-kernel
#     checks is always loaded through kg_shift_load, whose own mis == 0 branch takes one
#     aligned vector load, instead of `ok ? vector load : shift load`, which LLVM folds into
#     element loads for a provably aligned tensor: two_inputs_small's aligned input read
#     with 8 ld.global.b16); one runtime, both sides in one ab_bench.py process pair;
#  2. profile.sh (vs_compile of the small twins with their graphs, of tadd_skinny (gather),
#     tadd_ragged and shift_pad (the pad split); memcheck of the pad split; ncu).
#   bash bench/results/h200_2026-12-07_session10/call.sh .carry/ab10 .carry/prof10 .carry/py10   (made by prep.sh)
set -uo pipefail
ab=${1:?AB carry} prof=${2:?PROF carry} py=${3:?PY carry}
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
FUSER_DLPACK_INCLUDE=$prof/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
for side in base new; do sed "s| arts/| $ab/$side/|" "$ab/list" > /tmp/$side.manifest; done
timeout 120 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/new.manifest" --mode bench --calls 30 --rounds 6 --deadline 70 --out "$OUT/ab" \
  > "$OUT/ab.txt" 2>&1
echo "ab exit $? at $(( $(date +%s) - start )) s"
python3 bench/gpu/compare_base.py "$OUT/ab/base.jsonl" "$OUT/ab/new.jsonl" | tee "$OUT/ab_table.md"
grep -h "check" "$OUT"/ab/*.log | sort | uniq -c | head -30
bash bench/results/h200_2026-12-07_session10/profile.sh "$prof" "$py"
echo "all done at $(( $(date +%s) - start )) s"
