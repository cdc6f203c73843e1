#!/usr/bin/env bash
# Session 6 call C (warm machine after call B): torch.compile on the reductions (sweep_peers.py; call B's
# copy did not come back), then the small fusions with the runtime allocator and --caching-allocator.
out=$1; start=$(date +%s)
mkdir -p /tmp/tclock
(cd .carry/final/red && timeout 170 python3 sweep_peers.py --lock /tmp/tclock/lock corpus/*.py) > "$out/tc_red.jsonl" 2> "$out/tc_red.log"
echo "peers exit $? at $(( $(date +%s) - start )) s"; cut -c1-300 "$out/tc_red.jsonl"
run=/tmp/ab-results/rt-new/fuser-run-ab
for r in 1 2; do
  for f in rmsnorm_small softmax_small bias_grad_small swiglu_small two_inputs_small transpose_add_small seed_fusion_id0 seed_fusion_id1 gelu_tanh_small permute_small slice1_small transpose_small rope_qkv_small; do
    for mode in runtime caching; do
      [ $(( $(date +%s) - start )) -ge 260 ] && break 3
      extra=; [ $mode = caching ] && extra=--caching-allocator
      timeout 20 "$run" --artifact .carry/final/gpu/arts/$f.fart --bench 200 --name $f $extra 2>&1 | grep '"graph_us"' | sed "s/^/alloc $mode: /"
    done
  done
done > "$out/alloc.txt"
echo "alloc done at $(( $(date +%s) - start )) s"; cut -c1-200 "$out/alloc.txt"
