#!/usr/bin/env bash
# Never ran: every start failed; its A/B and ncu went into callB.sh (and its block-size
# candidates were dropped: session 11 had measured them, bench/results/h200_2026-12-07_session11).
# Session 13's first device call: what bounds the small fusions. The small fusions against
# three candidates (small_prep.sh: pointwise blocks of 64 or 32 threads, 32 x 32 tiles at any
# size), then ncu of transpose_add_small's four kernels and of torch.compile's, and
# torch.compile's generated code for it.
#   bash bench/results/2026-12-07_session13/callA.sh .carry/f11 .carry/s13
set -uo pipefail
f11=${1:?} s13=${2:?}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
FUSER_DLPACK_INCLUDE=$f11/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el built
rm -rf /tmp/s13 && mkdir -p /tmp/s13 && xz -dc "$s13/ab.tar.xz" | tar xf - -C /tmp/s13
for side in base new; do sed "s| BASE/| /tmp/s13/ab/base/|; s| NEW/| /tmp/s13/ab/new/|" "/tmp/s13/ab/$side.manifest" > "/tmp/s13/$side.manifest"; done
timeout 150 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/s13/base.manifest" \
  --side "new=/tmp/rt/fuser-run:/tmp/s13/new.manifest" --mode bench --calls 30 --rounds 7 --deadline 110 --out /tmp/s13out > "$OUT/small_ab.txt" 2>&1
el "ab exit $?"
python3 bench/gpu/compare_base.py /tmp/s13out/base.jsonl /tmp/s13out/new.jsonl > "$OUT/small_table.md" 2>&1; cut -c1-150 "$OUT/small_table.md"
grep -h "check:" /tmp/s13out/*.log | sed "s/(fnv1a.*//" | awk '{print $1, $2, $3}' | sort | uniq -c | sort -rn | head -4
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
sec=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis)
for t in base b64 b32 t32; do
  echo "== ours $t"
  timeout 30 "$ncu" --cache-control none "${sec[@]}" -k regex:fusion -s 3 -c 1 /tmp/rt/fuser-run --artifact "$s13/ncu/ta_$t.fart" --bench 5 2>&1
done > "$OUT/ncu.txt"
el "ncu ours"
mkdir -p /tmp/ind
S=$f11/scripts
(TORCHINDUCTOR_CACHE_DIR=/tmp/ind timeout 120 "$ncu" --cache-control none "${sec[@]}" --profile-from-start off -k regex:triton \
  python3 bench/gpu/ncu_peers.py "$f11" $S/transpose_add_small.py 2>&1 | sed 's/^/[peer] /') >> "$OUT/ncu.txt"
el "ncu peers"
grep -E "^== |\[peer\]   [a-z_]+.*\(|Duration|Grid Size|Block Size|Registers Per|Achieved Occupancy|DRAM Throughput|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|L1/TEX Cache Throughput|Warp Cycles Per Issued|fusion_[a-z_0-9]*__[a-z0-9_]*" "$OUT/ncu.txt" | cut -c1-140 | head -90
for f in $(grep -l "def triton" -r /tmp/ind --include=*.py | head -5); do echo "== $f"; grep -E "XBLOCK|YBLOCK|xnumel|ynumel|triton_heuristics|num_warps|tl.load|tl.store|def triton_" "$f" | head -30; done > "$OUT/inductor.txt" 2>&1
cut -c1-200 "$OUT/inductor.txt" | head -50
el "all done"
