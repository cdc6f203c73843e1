#!/usr/bin/env bash
# Session 14's second device call: the tile twins (64e7795) measured, and the issue-15 table.
#   $1 .carry/f14 (prep1.sh: peers.py, nvfuser_torch.py, dlpack.h, scripts/)
#   $2 .carry/a14 (prep2.sh: the A/B against 6689f30, memcheck's artifacts)
#   $3 .carry/py14b (python_run.sh prepare: this tree's binding)
# Steps: the A/B (ab_bench, 5 rounds); fuser (binding) against torch.compile in one process
# (vs_compile, 3 rounds) on the table patterns and the small layouts; memcheck of every small
# layout and layout test input, aligned and one element off; peers.py (eager and torch.compile)
# on the table patterns (not with SKIP_PEERS set). Raw output in $OUT/raw.tgz, tables beside it.
#   bash bench/results/2026-12-07_session14/call2.sh .carry/f14 .carry/a14 .carry/py14b
set -uo pipefail
f=${1:?} a=${2:?} py=${3:?}
. bench/gpu/call_setup.sh /tmp/res raw.tgz "$f" "$py"
bash bench/gpu/ab_tarball.sh "$a/ab.tar.xz" /tmp/rt/fuser-run $R/ab "$OUT/ab_table.md" 50 5
el "ab done"; keep
S=$f/scripts
table="$S/transpose_large.py $S/permute_large.py $S/two_inputs_large.py $S/slice1_large.py"
small="$S/transpose_add_small.py $S/tout_f32_small.py $S/from_last_bf16_small.py $S/tadd_ragged_bf16_small.py \
  $S/t210_mul_f16_small.py $S/tbcast_bf16_small.py $S/tadd_f32_small.py $S/two_inputs_small.py $S/permute_small.py \
  $S/slice1_small.py $S/transpose_small.py $S/nchw_nhwc_bf16_small.py $S/t021_add_bf16_small.py"
PYTHONPATH=$py/python timeout 220 python3 bench/gpu/vs_compile.py --rounds 3 --peers-dir "$f" \
  $table $S/transpose_add_large.py $S/tadd_ragged_bf16_large.py $small > "$OUT/vs_compile.jsonl" 2> "$R/vs_compile.err"
el "vs_compile exit $?"; tail -2 "$R/vs_compile.err"; cut -c1-330 "$OUT/vs_compile.jsonl"; keep
MEMCHECK_JOBS=12 timeout 100 bash bench/gpu/memcheck.sh "$a/mc" /tmp/rt/fuser-run > "$R/memcheck.txt" 2>&1
el "memcheck exit $?"; echo "runs: $(grep -c 'ERROR SUMMARY' $R/memcheck.txt), clean: $(grep -c 'ERROR SUMMARY: 0 errors' $R/memcheck.txt)"
grep -v "ERROR SUMMARY: 0 errors" "$R/memcheck.txt" | cut -c1-200 | head; keep
[ -n "${SKIP_PEERS:-}" ] && { el "all done"; exit 0; }
(TORCHINDUCTOR_CACHE_DIR=/tmp/ind2 timeout 120 python3 "$f/peers.py" $table > "$OUT/peers.jsonl" 2> $R/peers.err)
el "peers exit $?"; cut -c1-300 "$OUT/peers.jsonl"; keep
el "all done"
