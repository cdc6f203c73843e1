#!/usr/bin/env bash
# Session 10: session 9's profile (~300 s), shift_pad vectorized (the pad split), slice_end (segments); results in $OUT/prof.tgz and stdout:
#  1. vs_compile.py --dump-graphs on the small twins behind torch.compile: each side's CUDA graph
#     as DOT and its nodes by kind (does fuser's graph through the binding hold more than its
#     kernel: memsets, allocation nodes?), beside fuser-run's own timing of the same artifacts;
#     then vs_compile of tadd_skinny (the `gather` variant since 4ac196d) and tadd_ragged;
#  2. ncu (SpeedOfLight, MemoryWorkloadAnalysis, Occupancy, LaunchStats) of fuser's kernel and of
#     torch.compile's for tadd_skinny (15% of copy), tadd_ragged (56%), shift_pad (20%) and the
#     small twins.
#   bash bench/results/h200_2026-12-07_session10/profile.sh .carry/prof10 .carry/py10
# (carry [".carry/prof10", ".carry/py10"]; made by prep.sh)
set -uo pipefail
c=${1:?PROF carry} py=${2:?PY carry}
start=$(date +%s)
res=/tmp/prof; rm -rf $res && mkdir -p $res   # archived into $OUT/prof.tgz (the device tool returns few files)
save() { tar czf "$OUT/prof.tgz" -C $res .; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
([ -x /tmp/rt/fuser-run ] || FUSER_DLPACK_INCLUDE=$c/include bash scripts/build-runtime.sh /tmp/rt) > /tmp/rt.log 2>&1 & rb=$!
small="$c/scripts/two_inputs_small.py $c/scripts/transpose_add_small.py $c/scripts/slice1_small.py"
# shellcheck disable=SC2086
PYTHONPATH=$py/python timeout 110 python3 bench/gpu/vs_compile.py --peers-dir "$c" --dump-graphs $res/graphs $small \
  > $res/vs_compile.jsonl 2> $res/vs_compile.err
echo "vs_compile exit $? at $(( $(date +%s) - start )) s"; cut -c1-600 $res/vs_compile.jsonl; save
# the gather variant (merged after session 9's run) on the skinny transpose, and the ragged one
PYTHONPATH=$py/python timeout 110 python3 bench/gpu/vs_compile.py --peers-dir "$c" \
  "$c/scripts/tadd_skinny_bf16_large.py" "$c/scripts/tadd_ragged_bf16_large.py" "$c/scripts/shift_pad_bf16_large.py" "$c/scripts/slice_end_bf16_large.py" > $res/vs_compile_large.jsonl 2>> $res/vs_compile.err
cut -c1-600 $res/vs_compile_large.jsonl; save
wait $rb || { tail /tmp/rt.log; exit 1; }
for f in "$c"/arts/*_small.fart; do timeout 30 /tmp/rt/fuser-run --artifact "$f" --bench 30 | grep '^{' | cut -c1-300; done
# memcheck of the straddle split (aligned, and every input one element off)
bash bench/gpu/memcheck.sh "$c/mc" /tmp/rt/fuser-run
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
[ -n "$ncu" ] || { echo "no ncu"; save; exit 0; }
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
for f in "$c"/arts/*.fart; do
  n=$(basename "$f" .fart)
  # shellcheck disable=SC2086
  timeout 60 "$ncu" $S -k regex:fusion -c 1 /tmp/rt/fuser-run --artifact "$f" > $res/ncu_fuser_$n.txt 2>&1
  echo "ncu fuser $n: exit $? at $(( $(date +%s) - start )) s"
  # shellcheck disable=SC2086
  (cd "$c" && timeout 90 "$ncu" --profile-from-start off $S -k regex:triton -c 2 python3 ncu_peers.py . "scripts/$n.py") \
    > $res/ncu_compile_$n.txt 2>&1
  echo "ncu torch.compile $n: exit $? at $(( $(date +%s) - start )) s"
  save
done
grep -h -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Grid Size|Block Size" \
  $res/ncu_*.txt | cut -c1-160
