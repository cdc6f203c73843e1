#!/usr/bin/env bash
# Makes the carries of call.sh from this build (build/bin, build-shared):
#   .carry/prof10: artifacts of the weak layouts (tadd_skinny, tadd_ragged, shift_pad,
#     slice_end: large) and of the small twins, their scripts, dlpack.h, the peers' stand-in,
#     and mc/arts: the small artifacts of the new variants for memcheck (the pad split, the
#     segments variant, gather);
#   .carry/py10: the Python binding (bench/gpu/python_run.sh prepare) and the stand-in;
#   .carry/ab10: the mixed-load A/B (base: this build; new: FUSER_SHIFT_ONLY=1).
#   bash bench/results/h200_2026-12-07_session10/prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
C=.carry/prof10
rm -rf "$C" && mkdir -p "$C/arts" "$C/scripts" "$C/include/dlpack" "$C/mc/arts"
cp /usr/include/dlpack/dlpack.h "$C/include/dlpack/"
cp ../shared/bench/nvfuser_torch.py bench/gpu/ncu_peers.py "$C/"
for s in bench/layouts/more/tadd_skinny_bf16_large.py bench/layouts/more/tadd_ragged_bf16_large.py \
         bench/layouts/more/shift_pad_bf16_large.py bench/layouts/more/slice_end_bf16_large.py \
         bench/layouts/two_inputs_small.py bench/layouts/transpose_add_small.py bench/layouts/slice1_small.py; do
  n=$(basename "$s" .py); e=--expected; case $n in *large*) e=;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/arts/$n.fart" $e
  cp "$s" "$C/scripts/"
done
for s in bench/layouts/more/shift_pad_bf16_small.py bench/layouts/more/slice_end_bf16_small.py \
         bench/layouts/more/tadd_skinny_bf16_small.py test/lowering/Inputs/pad_split_f32.py \
         test/lowering/Inputs/pad_split_sym_bf16.py test/lowering/Inputs/segments_*.py; do
  n=$(basename "$s" .py); case $n in pad_*|segments_*) n=layouts_$n;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/mc/arts/$n.fart" --expected
done
P=.carry/py10
make -C build-shared -j2 fuser_shared fuser_python > /dev/null
bash bench/gpu/python_run.sh prepare "$P" > /dev/null
cp ../shared/bench/nvfuser_torch.py "$P/"
A=.carry/ab10
rm -rf "$A" && mkdir -p "$A/base" "$A/new"
for s in bench/layouts/two_inputs_small.py bench/layouts/two_inputs_large.py bench/layouts/slice1_small.py \
         bench/layouts/slice1_large.py bench/layouts/more/shift_pad_bf16_small.py bench/layouts/more/shift_pad_bf16_large.py \
         bench/layouts/more/tadd_ragged_bf16_large.py bench/layouts/more/two_mis1_f32_large.py \
         bench/layouts/more/two_mis1_f32_small.py bench/layouts/more/two_mis6_f16_large.py \
         bench/layouts/more/two_mis6_f16_small.py bench/layouts/more/slice7_bf16_large.py \
         bench/layouts/more/slice1_rowscale_f16_small.py bench/layouts/more/cat_slice1_bf16_large.py; do
  n=$(basename "$s" .py); e=--expected; case $n in *large*) e=;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$A/base/$n.fart" $e
  FUSER_SHIFT_ONLY=1 build/bin/fuser-translate --emit-artifact "$s" -o "$A/new/$n.fart" $e
  echo "$n arts/$n.fart $(check_args "$n")" >> "$A/list"
done
du -sh "$C" "$P" "$A"
