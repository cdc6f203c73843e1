#!/usr/bin/env bash
# Session 13's device call (all in one: starts were scarce). From the checkout's root; carries
#   $1 .carry/f13 (peers.py, nvfuser_torch.py, dlpack.h, scripts/: the layout scripts)
#   $2 .carry/s13 (small_prep.sh: the small transposes against 32 x 32 tiles at any size, .t32;
#      ncu/ta_*.fart)
#   $3 .carry/py13 (python_run.sh prepare: this tree's binding)
#   $4 .carry/m13 (final_prep.sh: memcheck's artifacts, the corpus against d7d5b52)
# Steps: fuser (binding) against torch.compile in one process on the four table
# patterns, the ragged transpose and the small layouts; the corpus A/B; memcheck; the small A/B; ncu of
# transpose_add_small's kernels and torch.compile's. Raw output in $OUT/raw.tgz, tables beside it.
#   bash bench/results/2026-12-07_session13/callB.sh .carry/f13 .carry/s13 .carry/py13 .carry/m13
set -uo pipefail
f13=${1:?} s13=${2:?} py=${3:?} m13=${4:?}
start=$(date +%s)
R=/tmp/res && rm -rf $R && mkdir -p $R
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
keep() { tar czf "$OUT/raw.tgz" -C $R .; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
FUSER_DLPACK_INCLUDE=$f13/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
el built
ab() { # NAME TARBALL DEADLINE ROUNDS
  rm -rf "/tmp/$1" && mkdir -p "/tmp/$1" && xz -dc "$2" | tar xf - -C "/tmp/$1"
  for side in base new; do sed "s| BASE/| /tmp/$1/ab/base/|; s| NEW/| /tmp/$1/ab/new/|" "/tmp/$1/ab/$side.manifest" > "/tmp/$1/$side.manifest"; done
  timeout $(( $3 + 40 )) python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/$1/base.manifest" \
    --side "new=/tmp/rt/fuser-run:/tmp/$1/new.manifest" --mode bench --calls 30 --rounds "$4" --deadline "$3" --out "$R/$1" > "$R/$1.txt" 2>&1
  el "$1 exit $?"
  python3 bench/gpu/compare_base.py "$R/$1/base.jsonl" "$R/$1/new.jsonl" > "$OUT/${1}_table.md" 2>&1; cut -c1-150 "$OUT/${1}_table.md"
  grep -h "check:" "$R/$1"/*.log | sed "s/(fnv1a.*//" | awk '{print $1, $2, $3}' | sort | uniq -c | sort -rn | head -4
  keep
}
S=$f13/scripts
PYTHONPATH=$py/python timeout 200 python3 bench/gpu/vs_compile.py --rounds 3 --peers-dir "$f13" \
  $S/transpose_large.py $S/permute_large.py $S/two_inputs_large.py $S/slice1_large.py $S/tadd_ragged_bf16_large.py \
  $S/two_inputs_small.py $S/slice1_small.py $S/permute_small.py $S/transpose_small.py $S/transpose_add_small.py \
  $S/t021_add_bf16_small.py $S/tadd_ragged_bf16_small.py $S/nchw_nhwc_bf16_small.py $S/from_last_bf16_small.py $S/tout_f32_small.py \
  > "$OUT/vs_compile.jsonl" 2> "$R/vs_compile.err"
el "vs_compile exit $?"; tail -2 "$R/vs_compile.err"; cut -c1-330 "$OUT/vs_compile.jsonl"; keep
ab corpus "$m13/corpus.tar.xz" 40 5
MEMCHECK_JOBS=12 timeout 70 bash bench/gpu/memcheck.sh "$m13/mc" /tmp/rt/fuser-run > "$R/memcheck.txt" 2>&1
el "memcheck exit $?"; grep -c "ERROR SUMMARY: 0 errors" "$R/memcheck.txt"; grep -v "ERROR SUMMARY: 0 errors" "$R/memcheck.txt" | cut -c1-200 | head; keep
ab small "$s13/ab.tar.xz" 30 7
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
sec=(--section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis)
if [ -n "$ncu" ] && [ $(( $(date +%s) - start )) -lt 500 ]; then
  for t in base t32; do
    echo "== ours $t"
    timeout 20 "$ncu" --cache-control none "${sec[@]}" -k regex:fusion -s 3 -c 1 /tmp/rt/fuser-run --artifact "$s13/ncu/ta_$t.fart" --bench 5 2>&1
  done > $R/ncu.txt
  el "ncu ours"
  (TORCHINDUCTOR_CACHE_DIR=/tmp/ind timeout 50 "$ncu" --cache-control none "${sec[@]}" --profile-from-start off -k regex:triton \
    python3 bench/gpu/ncu_peers.py "$f13" $S/transpose_add_small.py 2>&1 | sed 's/^/[peer] /') >> $R/ncu.txt
  el "ncu peers"
  grep -E "^== |\[peer\]   [a-z_]+.*\(|Duration|Grid Size|Block Size|Registers Per|Achieved Occupancy|DRAM Throughput|L1/TEX Hit|L2 Hit|Mem Busy|fusion_[a-z_0-9]*__[a-z0-9_]* " $R/ncu.txt | cut -c1-120 | head -60
  for f in $(grep -l "def triton" -r /tmp/ind --include=*.py 2> /dev/null | head -3); do echo "== $f"; grep -E "XBLOCK|YBLOCK|numel|num_warps|tl.load|tl.store|def triton_" "$f" | head -20; done > $R/inductor.txt 2>&1
  cut -c1-160 $R/inductor.txt | head -30; keep
fi
el "all done"
