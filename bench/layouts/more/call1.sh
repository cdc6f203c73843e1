#!/usr/bin/env bash
# The device call of session 7 (bench/results/h200_2026-12-06_session7):
# the kept-back layouts, base and new alternating (2 rounds), the peers of
# the large ones the branch changes or that neighbour a table pattern,
# memcheck of every small one and of the merged-tile tests, aligned and
# misaligned by one element. Trimmed to fit one short device lease.
c=$(cd "$(dirname "$0")" && pwd)
export AB_ROUNDS=2 AB_CALLS=20 AB_DEADLINE=70 PEERS_TIMEOUT=85 MEMCHECK_TIMEOUT=60 RUN_TIMEOUT=240
export PEERS="nchw_nhwc_bf16_large split_heads_bf16_large merge_heads_bf16_large t021_add_f32_large tadd_f32_large tadd_skinny_bf16_large slice3_f32_large two_mis6_f16_large"
bash "$c/run.sh"
