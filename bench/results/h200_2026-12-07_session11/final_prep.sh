#!/usr/bin/env bash
# Makes the carry of final.sh (.carry/f11, and .carry/py11 again) from this build (build/bin:
# the funnel shift, llvm.intr.fshr) and two other builds:
#   ab.tar.xz: corpus NAME: BASE_BUILD (default /tmp/base9/build, d7d5b52) against this build;
#     NAME.fshr: PAIR_BUILD (default /tmp/head11/build, a8a1c26: the pair loads with the i64
#     shift) against this build, on the fusions with shifted loads;
#   scripts/: vs_compile's scripts; mc/arts: memcheck's (the shifted loads' tests, the small
#   layouts with misaligned inputs).
#   bash bench/results/h200_2026-12-07_session11/final_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
base=${BASE_BUILD:-/tmp/base9/build} pairb=${PAIR_BUILD:-/tmp/head11/build}
T=build/bin/fuser-translate
C=.carry/f11
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/pair" "$C/ab/new" "$C/scripts" "$C/include/dlpack" "$C/mc/arts"
cp /usr/include/dlpack/dlpack.h "$C/include/dlpack/"
cp ../shared/bench/nvfuser_torch.py "$C/"
exp() { case $1 in *large*) echo "";; *) echo --expected;; esac; }
line() { echo "$1 $2 $(check_args "$4")" >> "$C/ab/base.manifest"; echo "$1 $3 $(check_args "$4")" >> "$C/ab/new.manifest"; }
for s in ../shared/corpus/seed/*.py ../shared/corpus/visible/*.py; do
  n=$(basename "$s" .py)
  "$base/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/base/$n.fart" $(exp "$n")
  $T --emit-artifact "$s" -o "$C/ab/new/$n.fart" $(exp "$n")
  line "$n" "BASE/$n.fart" "NEW/$n.fart" "$n"
done
L=bench/layouts M=bench/layouts/more
for s in $L/two_inputs_small.py $L/slice1_small.py $M/two_mis1_f32_small.py $M/two_mis6_f16_small.py $M/slice7_bf16_small.py \
         $M/shift_pad_bf16_small.py $M/slice_end_bf16_small.py $M/slice1_rowscale_f16_small.py \
         $M/tadd_ragged_bf16_large.py $L/transpose_add_large.py $M/t021_add_bf16_large.py $L/two_inputs_large.py $L/slice1_large.py; do
  n=$(basename "$s" .py)
  "$pairb/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/pair/$n.fart" $(exp "$n")
  $T --emit-artifact "$s" -o "$C/ab/new/$n.fart" $(exp "$n")
  cmp -s "$C/ab/pair/$n.fart" "$C/ab/new/$n.fart" || line "$n.fshr" "PAIR/$n.fart" "NEW/$n.fart" "$n"
done
cp $L/*.py $M/tadd_skinny_bf16_large.py $M/tadd_ragged_bf16_large.py $M/shift_pad_bf16_large.py $M/slice_end_bf16_large.py "$C/scripts/"
for s in $L/*_small.py $M/two_mis*_small.py $M/slice*_small.py $M/shift_pad_bf16_small.py $M/tadd_ragged_bf16_small.py \
         test/lowering/Inputs/shift_*.py test/lowering/Inputs/store_shift_*.py test/lowering/Inputs/segments_*.py test/lowering/Inputs/pad_split_*.py; do
  n=$(basename "$s" .py); case $n in *_small) ;; *) n=layouts_$n;; esac
  $T --emit-artifact "$s" -o "$C/mc/arts/$n.fart" --expected
done
make -C build-shared -j2 fuser_shared fuser_python > /dev/null
bash bench/gpu/python_run.sh prepare .carry/py11 > /dev/null
cp ../shared/bench/nvfuser_torch.py .carry/py11/
wc -l "$C/ab/new.manifest"
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
du -sh "$C" .carry/py11
