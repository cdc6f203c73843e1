#!/usr/bin/env bash
# session 5 final call A: base (f1c0792) vs main, peers, memcheck; then the
# unmeasured perm-tileorder tile order beside main's tile kernel
out=$1
start=$(date +%s)
cd .carry/final/src
PEERS="seed_fusion_id0 seed_fusion_id1 bias_grad_large bias_grad_small gelu_tanh_large gelu_tanh_small permute_large permute_small rmsnorm_large rmsnorm_small rope_qkv_large rope_qkv_small slice1_large slice1_small softmax_large softmax_small swiglu_large swiglu_small transpose_add_large transpose_add_small transpose_large transpose_small two_inputs_large two_inputs_small" \
  PEERS_TIMEOUT=230 timeout 480 bash bench/gpu/ab_run.sh .. "$out/a" > "$out/ab.txt" 2>&1
echo "ab_run exit $? at $(( $(date +%s) - start )) s"
rt=/tmp/ab-rt-new/fuser-run
for n in transpose_add_small transpose_small; do
  timeout 30 $rt --artifact ../tgroup/$n.fart --check --name tgroup_$n 2>&1 | grep -E "check|error|FAIL" | head -3
done
for r in 1 2; do for n in transpose_add_large transpose_large; do
  timeout 30 $rt --artifact ../gpu/arts/$n.fart --bench 30 --name main_$n 2>&1 | grep '^{' | cut -c1-200
  timeout 30 $rt --artifact ../tgroup/$n.fart --bench 30 --name tgroup_$n 2>&1 | grep '^{' | cut -c1-200
done; done > "$out/tgroup.jsonl"
cat "$out/tgroup.jsonl"
echo "all done at $(( $(date +%s) - start )) s"
tail -80 "$out/ab.txt"
