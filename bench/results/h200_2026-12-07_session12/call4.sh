#!/usr/bin/env bash
# Session 12's last device call: the final tree's Python binding (.carry/py12, python_run.sh
# prepare) against torch.compile in one process, on the issue-15 table's four patterns, the
# ragged bf16 transpose (256-thread tiles) and the small twins.
#   bash bench/results/h200_2026-12-07_session12/call4.sh .carry/f11 .carry/py12
set -uo pipefail
f11=${1:?} py=${2:?}
start=$(date +%s)
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
S=$f11/scripts
PYTHONPATH=$py/python timeout 170 python3 bench/gpu/vs_compile.py --rounds 3 --peers-dir "$f11" \
  $S/transpose_large.py $S/permute_large.py $S/two_inputs_large.py $S/slice1_large.py \
  $S/tadd_ragged_bf16_large.py \
  $S/two_inputs_small.py $S/slice1_small.py $S/permute_small.py $S/transpose_small.py $S/transpose_add_small.py \
  > "$OUT/vs_compile.jsonl" 2> /tmp/vs.err
el "vs_compile exit $?"; tail -3 /tmp/vs.err; cut -c1-400 "$OUT/vs_compile.jsonl"
