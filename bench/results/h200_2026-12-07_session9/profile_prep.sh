#!/usr/bin/env bash
# Makes the carry of profile.sh (default .carry/prof9): this build's artifacts of the weak
# layouts session 9 measured (tadd_skinny, tadd_ragged, shift_pad: large) and of the small
# twins behind torch.compile (two_inputs_small, transpose_add_small, slice1_small), their
# scripts, dlpack.h and the peers' PyTorch stand-in. The Python binding's carry is
# bench/gpu/python_run.sh prepare .carry/py9 (a FUSER_SHARED_LIBRARY build), plus
# nvfuser_torch.py copied into it.
#   bash bench/results/h200_2026-12-07_session9/profile_prep.sh [CARRY]
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=${1:-.carry/prof9}
rm -rf "$C" && mkdir -p "$C/arts" "$C/scripts" "$C/include/dlpack"
cp /usr/include/dlpack/dlpack.h "$C/include/dlpack/"
cp ../shared/bench/nvfuser_torch.py bench/gpu/ncu_peers.py "$C/"
for s in bench/layouts/more/tadd_skinny_bf16_large.py bench/layouts/more/tadd_ragged_bf16_large.py \
         bench/layouts/more/shift_pad_bf16_large.py bench/layouts/two_inputs_small.py \
         bench/layouts/transpose_add_small.py bench/layouts/slice1_small.py; do
  n=$(basename "$s" .py); e=--expected; case $n in *large*) e=;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/arts/$n.fart" $e
  cp "$s" "$C/scripts/"
done
du -sh "$C"
