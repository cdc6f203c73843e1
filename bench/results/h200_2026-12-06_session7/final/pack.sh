#!/usr/bin/env bash
# Makes the carries of call.sh (FINAL, default .carry/final8) and of min.sh (MIN, default
# .carry/min8): this build's artifacts (bench/gpu/prepare.sh: corpus, bench/layouts,
# printed-form and layout tests; plus bench/layouts/more and the merged-tile tests) in gpu/,
# and a base in base/: a base build's (BASE_BUILD, e.g. a build of 49b7c4a) artifacts of the
# same with that tree's sources (BASE_REV), or base/ taken whole from an earlier pack
# (BASE_PACK, e.g. .carry/final7/pack.tar.xz). Packed as one .tar.xz (the device tool
# carries at most 64 MiB with the tree).
#   BASE_BUILD=/path/to/base/build BASE_REV=49b7c4a bash bench/results/h200_2026-12-06_session7/final/pack.sh
#   BASE_PACK=.carry/final7/pack.tar.xz bash bench/results/h200_2026-12-06_session7/final/pack.sh
set -euo pipefail
here=bench/results/h200_2026-12-06_session7/final
cd "$(dirname "$0")/../../../.."
final=${FINAL:-.carry/final8} min=${MIN:-.carry/min8}
P=$(mktemp -d)
bash bench/gpu/prepare.sh ../shared/corpus "$P/gpu" > /dev/null
more="bench/layouts/more/*.py test/lowering/Inputs/layouts_from_last.py test/lowering/Inputs/layouts_to_last.py test/lowering/Inputs/layouts_nchw_nhwc.py test/lowering/Inputs/layouts_from_last_padded.py"
if [ -n "${BASE_PACK:-}" ]; then
  tar xJf "$BASE_PACK" -C "$P" ./base
else
  base=${BASE_BUILD:?a build of the base tree, or BASE_PACK} rev=${BASE_REV:-49b7c4a}
  FUSER_TRANSLATE=$base/bin/fuser-translate bash bench/gpu/prepare.sh ../shared/corpus "$P/base" > /dev/null
  for s in $more; do
    n=$(basename "$s" .py); [ "$n" = gen ] && continue
    e=--expected; case $n in *large*) e=;; esac
    "$base/bin/fuser-translate" --emit-artifact "$s" -o "$P/base/arts/$n.fart" $e
  done
  mkdir -p "$P/base/src" && git archive "$rev" | tar -x -C "$P/base/src"
fi
for s in $more; do
  n=$(basename "$s" .py); [ "$n" = gen ] && continue
  e=--expected; case $n in *large*) e=;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$P/gpu/arts/$n.fart" $e
  case $s in bench/*) cp "$s" "$P/gpu/corpus/";; esac
done
rm -rf "$final" && mkdir -p "$final" && cp $here/call.sh "$final/"
(cd "$P" && tar cf - . | xz -T2 -3 > "$OLDPWD/$final/pack.tar.xz")
C=$min; rm -rf $C; mkdir -p $C/new $C/base $C/corpus $C/include/dlpack
cp /usr/include/dlpack/dlpack.h $C/include/dlpack/; cp ../shared/bench/peers.py ../shared/bench/nvfuser_torch.py $C/
cp $here/min.sh $C/
for n in transpose_large permute_large two_inputs_large slice1_large transpose_add_large split_heads_bf16_large merge_heads_bf16_large from_last_bf16_large nchw_nhwc_bf16_large transpose_small permute_small two_inputs_small slice1_small transpose_add_small split_heads_bf16_small merge_heads_bf16_small nchw_nhwc_bf16_small from_last_bf16_small layouts_from_last layouts_nchw_nhwc; do cp "$P/gpu/arts/$n.fart" $C/new/; done
for n in split_heads_bf16_large merge_heads_bf16_large from_last_bf16_large nchw_nhwc_bf16_large; do cp "$P/base/arts/$n.fart" $C/base/; done
for n in transpose_large permute_large two_inputs_large slice1_large split_heads_bf16_large merge_heads_bf16_large nchw_nhwc_bf16_large; do cp "$P/gpu/corpus/$n.py" $C/corpus/; done
rm -rf "$P"
du -sh "$final" "$min"
