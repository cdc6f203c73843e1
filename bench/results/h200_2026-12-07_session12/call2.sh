#!/usr/bin/env bash
# Session 12's device call (from the checkout's root, results in $OUT). Carries:
#   $1 .carry/f11 (session 11's final_prep.sh: ab.tar.xz, corpus against d7d5b52 and the
#      funnel shift against a8a1c26; peers.py, nvfuser_torch.py, dlpack.h, scripts/)
#   $2 .carry/c12 (cols_prep.sh + tile0_prep.sh + mc_prep.sh: ab.tar.xz, the transpose
#      tile's columns form against the commit before it (NAME) and the tiles at any size
#      against the tiles from 2^18 points (NAME.t0, NAME.s.t0: extents static); mc/arts)
#   $3 .carry/py12 (python_run.sh prepare: the binding of this tree)
#   bash bench/results/h200_2026-12-07_session12/call2.sh .carry/f11 .carry/c12 .carry/py12
set -uo pipefail
f11=${1:?} c12=${2:?} py=${3:?}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
FUSER_DLPACK_INCLUDE=$f11/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el "runtime built"
ab() { # NAME CARRY DEADLINE
  rm -rf "/tmp/$1" && mkdir -p "/tmp/$1" && xz -dc "$2/ab.tar.xz" | tar xf - -C "/tmp/$1"
  for side in base new; do
    sed "s| BASE/| /tmp/$1/ab/base/|; s| PAIR/| /tmp/$1/ab/pair/|; s| NEW/| /tmp/$1/ab/new/|" "/tmp/$1/ab/$side.manifest" > "/tmp/$1/$side.manifest"
  done
  timeout $(( $3 + 40 )) python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/$1/base.manifest" \
    --side "new=/tmp/rt/fuser-run:/tmp/$1/new.manifest" --mode bench --calls 30 --rounds 10 --deadline "$3" --out "$OUT/$1" \
    > "$OUT/$1.txt" 2>&1
  el "$1 exit $?"
  python3 bench/gpu/compare_base.py "$OUT/$1/base.jsonl" "$OUT/$1/new.jsonl" > "$OUT/${1}_table.md" 2>&1; cut -c1-160 "$OUT/${1}_table.md"
  grep -h "check:" "$OUT/$1"/*.log | sed "s/(fnv1a.*//" | sort | uniq -c | sort -rn | head -5; rm -f "$OUT/$1"/*.log
}
ab cols "$c12" 60
ab corpus "$f11" 40
S=$f11/scripts
PYTHONPATH=$py/python timeout 150 python3 bench/gpu/vs_compile.py --rounds 5 --peers-dir "$f11" \
  $S/two_inputs_small.py $S/slice1_small.py $S/transpose_add_small.py $S/permute_small.py $S/transpose_small.py \
  $S/tadd_ragged_bf16_large.py $S/transpose_add_large.py \
  > "$OUT/vs_compile.jsonl" 2> "$OUT/vs_compile.err"
el "vs_compile exit $?"; cut -c1-330 "$OUT/vs_compile.jsonl"
timeout 70 bash bench/gpu/memcheck.sh "$c12/mc" /tmp/rt/fuser-run > "$OUT/memcheck.txt" 2>&1
el "memcheck exit $?"; grep -c "ERROR SUMMARY: 0 errors" "$OUT/memcheck.txt"; grep -v "ERROR SUMMARY: 0 errors" "$OUT/memcheck.txt" | cut -c1-200 | head
# the ragged tile's SASS (both forms), and ncu on one launch of it
art=/tmp/cols/ab/new/tadd_ragged_bf16_large.fart
if [ -f "$c12/ragged.ptx" ]; then
  ptxas -arch=sm_90 "$c12/ragged.ptx" -o /tmp/ragged.cubin && cuobjdump -sass -fun fusion_tadd_ragged_bf16_k0__tile /tmp/ragged.cubin > "$OUT/ragged_tile.sass" 2>&1
  wc -l "$OUT/ragged_tile.sass"
fi
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
if [ -n "$ncu" ] && [ $(( $(date +%s) - start )) -lt 420 ]; then
  timeout 40 "$ncu" --cache-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section InstructionStats \
    -k regex:tile -s 2 -c 1 /tmp/rt/fuser-run --artifact "$art" --bench 3 > "$OUT/ncu_ragged.txt" 2>&1
  el "ncu exit $?"
  grep -E "Duration|Executed Ipc A|Executed Instructions  |Registers Per|DRAM Throughput|Achieved Occupancy|Warp Cycles Per Issued" "$OUT/ncu_ragged.txt" | cut -c1-150
fi
left=$(( 560 - ($(date +%s) - start) ))
if [ "$left" -gt 40 ]; then
  timeout "$left" python3 "$f11/peers.py" $S/slice1_large.py $S/two_inputs_large.py $S/permute_large.py $S/transpose_large.py \
    $S/tadd_ragged_bf16_large.py > "$OUT/peers.jsonl" 2> "$OUT/peers.err"
  el "peers exit $?"; cut -c1-300 "$OUT/peers.jsonl"
fi
el "all done"
