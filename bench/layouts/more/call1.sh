#!/usr/bin/env bash
# The first device call of session 7 (bench/results/h200_2026-12-06_session7):
# every kept-back layout, base and new alternating (3 rounds), the peers of
# the large ones whose fusions the branch changes or that test a neighbour of
# a table pattern, memcheck of the small ones and the merged-tile tests.
c=$(cd "$(dirname "$0")" && pwd)
export AB_ROUNDS=3 AB_DEADLINE=110 PEERS_TIMEOUT=110 MEMCHECK_TIMEOUT=80 RUN_TIMEOUT=400
export PEERS="from_last_bf16_large nchw_nhwc_bf16_large split_heads_bf16_large t021_add_bf16_large t021_add_f32_large t210_mul_f16_large tadd_f32_large tadd_ragged_bf16_large slice3_f32_large two_mis1_f32_large tbcast_bf16_large p102_f16_large"
bash "$c/run.sh"
