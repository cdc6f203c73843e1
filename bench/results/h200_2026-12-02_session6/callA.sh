#!/usr/bin/env bash
# Session 6 final call A (device command: bash .carry/final/src/bench/results/h200_2026-12-02_session6/callA.sh $OUT,
# from the checkout root): the corpus, layout patterns and printed-form
# scripts as f1c0792 built them (on its runtime) against the merged tree's,
# 10 rounds alternating base and new per fusion, a new process pair after 5
# (bench/gpu/ab_run.sh -> ab_bench.py -> fuser-run --serve), the table of
# paired ratios with their 95% interval (compare_base.py); then peers.py on
# the 24 scripts that have peers; then compute-sanitizer memcheck.
out=$1
start=$(date +%s)
cd .carry/final/src || exit 1
PEERS="seed_fusion_id0 seed_fusion_id1 bias_grad_large bias_grad_small gelu_tanh_large gelu_tanh_small permute_large permute_small rmsnorm_large rmsnorm_small rope_qkv_large rope_qkv_small slice1_large slice1_small softmax_large softmax_small swiglu_large swiglu_small transpose_add_large transpose_add_small transpose_large transpose_small two_inputs_large two_inputs_small" \
  PEERS_TIMEOUT=230 AB_ROUNDS=10 AB_RESTART_EVERY=5 timeout 560 bash bench/gpu/ab_run.sh .. "$out/a" > "$out/ab.txt" 2>&1
echo "ab_run exit $? at $(( $(date +%s) - start )) s"
tail -120 "$out/ab.txt" | cut -c1-400
