#!/usr/bin/env bash
# Session 14's first device call: what separates fuser from torch.compile where it is behind.
#   $1 .carry/f14 (prep1.sh)  $2 .carry/u14 (prep1.sh)  $3 .carry/n14 (prep1.sh)
#   $4 .carry/py14 (python_run.sh prepare: this tree's binding)
# 1. torch.compile's kernels of the slow fusions under ncu (instructions, cycles, memory), and
#    their Triton source and PTX (the inductor cache, $OUT/triton.tgz);
# 2. ours under ncu, the same sections;
# 3. two_inputs_large (slice1/permute_large) at unroll 2 / 4 and 256-thread blocks (ab_bench);
# 4. vs_compile on the same fusions, with their CUDA graphs' node kinds (not with SKIP_VS_COMPILE set:
#    call3.sh runs it in call2.sh). Raw output in $OUT/raw1.tgz.
#   bash bench/results/2026-12-07_session14/call1.sh .carry/f14 .carry/u14 .carry/n14 .carry/py14
set -uo pipefail
f=${1:?} u=${2:?} n=${3:?} py=${4:?}
. bench/gpu/call_setup.sh /tmp/res1 raw1.tgz "$f" "$py"
S=$f/scripts
small="$S/from_last_bf16_small.py $S/tout_f32_small.py $S/transpose_add_small.py"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
sec=(--section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis
     --section InstructionStats --section WarpStateStats
     --metrics smsp__inst_executed.sum,sm__cycles_elapsed.max,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum)
if [ -n "$ncu" ]; then
  (TORCHINDUCTOR_CACHE_DIR=/tmp/ind timeout 120 "$ncu" --cache-control none "${sec[@]}" --profile-from-start off -k regex:triton \
    python3 bench/gpu/ncu_peers.py "$f" $small $S/two_inputs_large.py 2>&1 | sed 's/^/[peer] /') > $R/ncu_peers.txt
  el "ncu peers"
  for a in "$n"/ncu/{from_last_bf16_small,tout_f32_small,transpose_add_small,two_inputs_large}.fart; do
    echo "== ours $(basename "$a" .fart)"
    timeout 40 "$ncu" --cache-control none "${sec[@]}" -k regex:fusion -s 3 -c 1 /tmp/rt/fuser-run --artifact "$a" --bench 5 2>&1
  done > $R/ncu_ours.txt
  el "ncu ours"
  keys="^== |\[peer\]   [a-z_]+.*\(|profiled|Duration|Elapsed Cycles|Grid Size|Block Size|Registers Per|Executed Instructions |smsp__inst_executed.sum|sm__cycles_elapsed.max|l1tex__t_(req|sec)|lts__t_(req|sec)|dram__bytes|Achieved Occupancy|DRAM Throughput|L2 Hit|L1/TEX Hit"
  grep -E "$keys" $R/ncu_peers.txt $R/ncu_ours.txt | sed 's/  */ /g' | cut -c1-130 | head -150
  (cd /tmp/ind 2> /dev/null && find . \( -name "*.py" -o -name "*.ptx" -o -name "*.ttgir" -o -name "*.json" \) -print0 | tar czf "$OUT/triton.tgz" --null -T -)
  keep
fi
bash bench/gpu/ab_tarball.sh "$u/ab.tar.xz" /tmp/rt/fuser-run $R/unroll "$OUT/unroll_table.md" 45 5
el "unroll done"; keep
[ -n "${SKIP_VS_COMPILE:-}" ] && { el "all done"; exit 0; }
PYTHONPATH=$py/python timeout 150 python3 bench/gpu/vs_compile.py --rounds 5 --peers-dir "$f" --dump-graphs $R/graphs \
  $S/two_inputs_large.py $small $S/two_inputs_small.py > "$OUT/vs_compile.jsonl" 2> "$R/vs_compile.err"
el "vs_compile exit $?"; tail -2 "$R/vs_compile.err"; cut -c1-330 "$OUT/vs_compile.jsonl"
keep
el "all done"
