#!/usr/bin/env bash
# Session 9's device call (one command, ~500 s):
#  1. bench/gpu/vs_compile.py: fuser (its Python binding, PY/) against torch.compile on the
#     same tensors in one process, alternating, CUDA graphs: the issue-15 table patterns
#     (large and small), transpose_add and five kept-back layouts (VS_TIMEOUT, default 220 s);
#  2. session 8's call (FINAL/call.sh's steps: bench/gpu/ab_run.sh, 100 artifacts of 49b7c4a
#     and of this tree alternating, the peers of the kept-back layouts, memcheck).
# From the checkout's root, results in $OUT:
#   bash bench/results/h200_2026-12-07_session9/call.sh .carry/final8 .carry/py9
# (carry [".carry/final8", ".carry/py9"]; py9 = bench/gpu/python_run.sh prepare .carry/py9
#  plus nvfuser_torch.py; final8 = bench/results/h200_2026-12-06_session7/final/pack.sh)
set -uo pipefail
final=${1:?FINAL carry} py=${2:?PY carry}
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
table="transpose permute two_inputs slice1 transpose_add"
scripts=""; for n in $table; do scripts="$scripts bench/layouts/${n}_large.py"; done
for n in $table; do scripts="$scripts bench/layouts/${n}_small.py"; done
for n in split_heads_bf16 nchw_nhwc_bf16 from_last_bf16 t021_add_f32 tadd_skinny_bf16; do scripts="$scripts bench/layouts/more/${n}_large.py"; done
# shellcheck disable=SC2086
PYTHONPATH=$py/python timeout "${VS_TIMEOUT:-220}" python3 bench/gpu/vs_compile.py --peers-dir "$py" $scripts \
  > "$OUT/vs_compile.jsonl" 2> "$OUT/vs_compile.err"
echo "vs_compile exit $? at $(( $(date +%s) - start )) s"
cut -c1-400 "$OUT/vs_compile.jsonl"; tail -5 "$OUT/vs_compile.err" | cut -c1-300
c=/tmp/final-pack
rm -rf "$c" && mkdir -p "$c" && tar xJf "$final/pack.tar.xz" -C "$c" || exit 1
echo "unpacked at $(( $(date +%s) - start )) s"
export PEERS="nchw_nhwc_bf16_large split_heads_bf16_large t210_mul_f16_large t021_add_f32_large tadd_ragged_bf16_large slice3_f32_large two_mis6_f16_large split_heads_bf16_small merge_heads_bf16_large"
AB_ROUNDS=${AB_ROUNDS:-2} AB_RESTART_EVERY=0 AB_DEADLINE=${AB_DEADLINE:-90} PEERS_TIMEOUT=${PEERS_TIMEOUT:-100} MEMCHECK_TIMEOUT=${MEMCHECK_TIMEOUT:-50} \
  timeout 280 bash bench/gpu/ab_run.sh "$c" "$OUT" > "$OUT/ab.txt" 2>&1
echo "ab_run exit $? at $(( $(date +%s) - start )) s"
cut -c1-260 "$OUT/ab.txt"
