#!/usr/bin/env bash
# The device call of sessions 7 and 8 (one command): the carried pack (CARRY/pack.tar.xz, made by pack.sh here:
# gpu/ = this tree's artifacts of the corpus, bench/layouts, bench/layouts/more and
# the layout tests, made by bench/gpu/prepare.sh and bench/layouts/more's list;
# base/ = 49b7c4a's (the session's start) with its runtime sources) unpacked, then
# bench/gpu/ab_run.sh: base and new alternating (AB_ROUNDS), the peers (PEERS,
# peers.py: eager and torch.compile) in the same command, memcheck of gpu/.
#   bash .carry/final8/call.sh   (CARRY is the script's folder; from the checkout's root; results in $OUT)
set -uo pipefail
start=$(date +%s)
carry=$(dirname "$0") c=/tmp/final-pack
rm -rf "$c" && mkdir -p "$c" && tar xJf "$carry/pack.tar.xz" -C "$c" || exit 1
echo "unpacked at $(( $(date +%s) - start )) s"
export PEERS="transpose_large permute_large two_inputs_large slice1_large transpose_add_large transpose_small permute_small two_inputs_small slice1_small transpose_add_small nchw_nhwc_bf16_large split_heads_bf16_large t210_mul_f16_large t021_add_f32_large tadd_ragged_bf16_large slice3_f32_large two_mis6_f16_large split_heads_bf16_small merge_heads_bf16_large"
AB_ROUNDS=${AB_ROUNDS:-2} AB_RESTART_EVERY=0 AB_DEADLINE=${AB_DEADLINE:-90} PEERS_TIMEOUT=${PEERS_TIMEOUT:-150} MEMCHECK_TIMEOUT=${MEMCHECK_TIMEOUT:-50} \
  timeout 320 bash bench/gpu/ab_run.sh "$c" "$OUT" > "$OUT/ab.txt" 2>&1
echo "ab_run exit $? at $(( $(date +%s) - start )) s"
cat "$OUT/ab.txt" | cut -c1-260
