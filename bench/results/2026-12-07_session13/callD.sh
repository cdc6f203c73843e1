#!/usr/bin/env bash
# Session 13's third device call: unroll 2 / 4 and 256-thread blocks on the table patterns and
# the corpus' large pointwise fusions (unroll_prep.sh), against this tree's choice.
#   bash bench/results/2026-12-07_session13/callD.sh .carry/f13 .carry/u13
set -uo pipefail
f13=${1:?} u13=${2:?}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
FUSER_DLPACK_INCLUDE=$f13/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el built
rm -rf /tmp/u13 && mkdir -p /tmp/u13 && xz -dc "$u13/ab.tar.xz" | tar xf - -C /tmp/u13
for side in base new; do sed "s| BASE/| /tmp/u13/ab/base/|; s| NEW/| /tmp/u13/ab/new/|" "/tmp/u13/ab/$side.manifest" > "/tmp/u13/$side.manifest"; done
timeout 130 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/u13/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/u13/new.manifest" --mode bench --calls 30 --rounds 7 --deadline 90 --out /tmp/uout > "$OUT/unroll.txt" 2>&1
el "ab exit $?"
python3 bench/gpu/compare_base.py /tmp/uout/base.jsonl /tmp/uout/new.jsonl > "$OUT/unroll_table.md" 2>&1; cut -c1-150 "$OUT/unroll_table.md"
tar czf "$OUT/raw.tgz" -C /tmp/uout .
el "all done"
