#!/usr/bin/env bash
# Session 6 final call A: ab_run.sh (base f1c0792 vs merged main, alternating rounds, peers, memcheck),
# then the small fusions timed with the runtime's allocator and with --caching-allocator, alternating.
out=$1; start=$(date +%s)
cd .carry/final/src || exit 1
PEERS="seed_fusion_id0 seed_fusion_id1 bias_grad_large bias_grad_small gelu_tanh_large gelu_tanh_small permute_large permute_small rmsnorm_large rmsnorm_small rope_qkv_large rope_qkv_small slice1_large slice1_small softmax_large softmax_small swiglu_large swiglu_small transpose_add_large transpose_add_small transpose_large transpose_small two_inputs_large two_inputs_small" \
  PEERS_TIMEOUT=200 AB_ROUNDS=8 AB_RESTART_EVERY=4 AB_DEADLINE=140 MEMCHECK_TIMEOUT=80 timeout 440 bash bench/gpu/ab_run.sh .. "$out/a" > "$out/ab.txt" 2>&1
echo "ab_run exit $? at $(( $(date +%s) - start )) s"
tail -100 "$out/ab.txt" | cut -c1-300
run=$out/a/rt-new/fuser-run-ab
for r in 1 2; do
  for f in rmsnorm_small softmax_small bias_grad_small swiglu_small two_inputs_small transpose_add_small seed_fusion_id0 seed_fusion_id1 gelu_tanh_small permute_small slice1_small transpose_small rope_qkv_small; do
    for mode in runtime caching; do
      [ $(( $(date +%s) - start )) -ge 500 ] && break 3
      extra=; [ $mode = caching ] && extra=--caching-allocator
      timeout 20 "$run" --artifact ../gpu/arts/$f.fart --bench 200 --name $f $extra 2>&1 | grep '"graph_us"' | sed "s/^/alloc $mode: /"
    done
  done
done > "$out/alloc.txt"
echo "alloc step done at $(( $(date +%s) - start )) s"; cat "$out/alloc.txt" | cut -c1-160
