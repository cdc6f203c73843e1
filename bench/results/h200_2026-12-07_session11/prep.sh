#!/usr/bin/env bash
# Makes the carries of call.sh from this build (build/bin: the pair loads; build-shared) and
# two other builds:
#   .carry/s11/ab.tar.xz: A/B pairs for ab_bench.py, one manifest per side (base.manifest,
#     new.manifest; BASE/, HEAD/, X/ name the folders):
#     - corpus NAME: BASE_BUILD's artifact (default /tmp/base9/build: d7d5b52, the last code
#       measured, before the pad split and segments) against this build's;
#     - NAME.pair: HEAD_BUILD's (default /tmp/head11/build: 3df7ddf, segments, before the pair
#       loads) against this build's: the issued pairs of shifted loads (kernel_gen_shift.c);
#     - NAME.early (tile fusions): this build against EARLY_TRANSLATE (this tree with the tile's
#       phase-1 finish before phase 2's loads: 72 registers instead of 96), if given;
#     - NAME.b32 / NAME.b64 / NAME.spec (small fusions): HEAD_BUILD against itself with
#       --block-size=32, --block-size=64 (more blocks, the same threads) and
#       --specialize-shapes (static extents: no size parameters, no index division); NAME.b64
#       on four large fusions too;
#   .carry/s11/scripts + arts: vs_compile's scripts and ncu's artifacts; mc/arts: memcheck's;
#   .carry/py11: the Python binding of this tree (bench/gpu/python_run.sh prepare) and the stand-in.
#   BASE_BUILD=... HEAD_BUILD=... EARLY_TRANSLATE=... bash bench/results/h200_2026-12-07_session11/prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
base=${BASE_BUILD:-/tmp/base9/build} head=${HEAD_BUILD:-/tmp/head11/build} early=${EARLY_TRANSLATE:-}
T=build/bin/fuser-translate H=$head/bin/fuser-translate
C=.carry/s11
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/head" "$C/ab/new" "$C/ab/x" "$C/arts" "$C/scripts" "$C/include/dlpack" "$C/mc/arts"
cp /usr/include/dlpack/dlpack.h "$C/include/dlpack/"
cp ../shared/bench/nvfuser_torch.py bench/gpu/ncu_peers.py "$C/"
exp() { case $1 in *large*) echo "";; *) echo --expected;; esac; }
line() { # NAME.KNOB BASEPATH NEWPATH NAME
  echo "$1 $2 $(check_args "$4")" >> "$C/ab/base.manifest"
  echo "$1 $3 $(check_args "$4")" >> "$C/ab/new.manifest"
}
art() { # TOOL SCRIPT OUT [flags]
  local tool=$1 s=$2 out=$3; shift 3
  [ -f "$out" ] || "$tool" --emit-artifact "$s" -o "$out" $(exp "$(basename "$s" .py)") "$@"
}
same() { cmp -s "$1" "$2"; }
for s in ../shared/corpus/seed/*.py ../shared/corpus/visible/*.py; do
  n=$(basename "$s" .py)
  art "$base/bin/fuser-translate" "$s" "$C/ab/base/$n.fart"; art $T "$s" "$C/ab/new/$n.fart"
  line "$n" "BASE/$n.fart" "NEW/$n.fart" "$n"
done
L=bench/layouts M=bench/layouts/more V=../shared/corpus/visible
pair() { # SCRIPT: HEAD against this build
  local s=$1 n; n=$(basename "$s" .py)
  art $H "$s" "$C/ab/head/$n.fart"; art $T "$s" "$C/ab/new/$n.fart"
  same "$C/ab/head/$n.fart" "$C/ab/new/$n.fart" || line "$n.pair" "HEAD/$n.fart" "NEW/$n.fart" "$n"
}
knob() { # SCRIPT KNOB FLAGS...: HEAD against HEAD with a compile option
  local s=$1 k=$2 n; n=$(basename "$s" .py); shift 2
  art $H "$s" "$C/ab/head/$n.fart"; art $H "$s" "$C/ab/x/$n.$k.fart" "$@"
  same "$C/ab/head/$n.fart" "$C/ab/x/$n.$k.fart" || line "$n.$k" "HEAD/$n.fart" "X/$n.$k.fart" "$n"
}
small="$L/transpose_small.py $L/permute_small.py $L/two_inputs_small.py $L/slice1_small.py $L/transpose_add_small.py
  $M/two_mis1_f32_small.py $M/two_mis6_f16_small.py $M/slice7_bf16_small.py $M/shift_pad_bf16_small.py $M/slice_end_bf16_small.py
  $M/tadd_skinny_bf16_small.py $M/slice1_rowscale_f16_small.py $V/gelu_tanh_small.py $V/swiglu_small.py"
for s in $small; do
  pair "$s"; knob "$s" b32 --block-size=32; knob "$s" b64 --block-size=64; knob "$s" spec --specialize-shapes
done
large="$L/two_inputs_large.py $L/slice1_large.py $L/transpose_add_large.py $M/two_mis1_f32_large.py $M/two_mis6_f16_large.py
  $M/slice7_bf16_large.py $M/shift_pad_bf16_large.py $M/slice_end_bf16_large.py $M/cat_slice1_bf16_large.py
  $M/tadd_ragged_bf16_large.py $M/tadd_f32_large.py $M/t021_add_f32_large.py $M/t021_add_bf16_large.py $M/t210_mul_f16_large.py
  $M/slice1_rowscale_f16_large.py $M/tadd_skinny_bf16_large.py"
for s in $large; do pair "$s"; done
for s in $L/two_inputs_large.py $L/transpose_large.py $L/slice1_large.py $V/gelu_tanh_large.py; do knob "$s" b64 --block-size=64; done
if [ -n "$early" ]; then
  for s in $L/transpose_add_large.py $M/tadd_ragged_bf16_large.py $M/tadd_f32_large.py $M/t021_add_bf16_large.py $L/transpose_add_small.py; do
    n=$(basename "$s" .py)
    art $T "$s" "$C/ab/new/$n.fart"; art "$early" "$s" "$C/ab/x/$n.early.fart"
    same "$C/ab/new/$n.fart" "$C/ab/x/$n.early.fart" || line "$n.early" "NEW/$n.fart" "X/$n.early.fart" "$n"
  done
fi
# vs_compile's scripts; ncu's artifacts (the small twins and the weak layouts)
for s in $L/*.py $M/tadd_skinny_bf16_*.py $M/tadd_ragged_bf16_*.py $M/shift_pad_bf16_*.py $M/slice_end_bf16_*.py; do
  n=$(basename "$s" .py); cp "$s" "$C/scripts/"
  art $T "$s" "$C/arts/$n.fart"
done
# memcheck (aligned, one element off): every small layout, the layout and shift tests' inputs
for s in $L/*_small.py $M/*_small.py test/lowering/Inputs/pad_split_*.py test/lowering/Inputs/segments_*.py \
         test/lowering/Inputs/gather_*.py test/lowering/Inputs/layouts_*.py test/lowering/Inputs/shift_*.py test/lowering/Inputs/store_shift_*.py; do
  n=$(basename "$s" .py); case $n in *_small|layouts_*) ;; *) n=layouts_$n;; esac
  $T --emit-artifact "$s" -o "$C/mc/arts/$n.fart" --expected
done
P=.carry/py11
make -C build-shared -j2 fuser_shared fuser_python > /dev/null
bash bench/gpu/python_run.sh prepare "$P" > /dev/null
cp ../shared/bench/nvfuser_torch.py "$P/"
wc -l "$C/ab/new.manifest"
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"   # the device tool carries 64 MiB in all
du -sh "$C" "$P"
