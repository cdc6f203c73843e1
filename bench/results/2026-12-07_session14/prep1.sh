#!/usr/bin/env bash
# Makes the carries of session 14's first device call (call1.sh):
#   .carry/f14  peers.py, nvfuser_torch.py, dlpack.h, scripts/ (the layout scripts)
#   .carry/u14  ab.tar.xz: two_inputs_large (and slice1/permute_large) at this build's choice
#               against --unroll=2 / 4 and --block-size=256 (unroll_prep.sh of session 13)
#   .carry/n14  ncu/*.fart: the slow small fusions (as the binding builds them:
#               --specialize-shapes) and two_inputs_large, one artifact each
#   bash bench/results/2026-12-07_session14/prep1.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
T=build/bin/fuser-translate
F=.carry/f14 U=.carry/u14 N=.carry/n14
rm -rf "$F" "$U" "$N" && mkdir -p "$F/include/dlpack" "$F/scripts" "$U/ab/base" "$U/ab/new" "$N/ncu"
cp ../shared/bench/peers.py ../shared/bench/nvfuser_torch.py "$F/"
cp /usr/include/dlpack/dlpack.h "$F/include/dlpack/"
cp bench/layouts/*.py bench/layouts/more/*_small.py bench/layouts/more/*_large.py "$F/scripts/"
for s in bench/layouts/{two_inputs,slice1,permute}_large.py; do
  n=$(basename "$s" .py)
  $T --emit-artifact "$s" -o "$U/ab/base/$n.fart"
  for v in u2:--unroll=2 u4:--unroll=4 b256:--block-size=256; do
    tag=${v%%:*} opt=${v#*:}
    [ "$n" = two_inputs_large ] || [ "$tag" = u2 ] || continue
    $T --emit-artifact "$s" -o "$U/ab/new/$n.$tag.fart" $opt
    if cmp -s "$U/ab/base/$n.fart" "$U/ab/new/$n.$tag.fart"; then rm "$U/ab/new/$n.$tag.fart"; continue; fi
    echo "$n.$tag BASE/$n.fart $(check_args "$n")" >> "$U/ab/base.manifest"
    echo "$n.$tag NEW/$n.$tag.fart $(check_args "$n")" >> "$U/ab/new.manifest"
  done
done
tar cf - -C "$U" ab | xz -T2 -6 > "$U/ab.tar.xz" && rm -rf "$U/ab"
for n in from_last_bf16_small tout_f32_small transpose_add_small tadd_ragged_bf16_small; do
  s=$(ls bench/layouts/$n.py bench/layouts/more/$n.py 2> /dev/null | head -1 || true)
  $T --emit-artifact "$s" -o "$N/ncu/$n.fart" --expected --specialize-shapes
done
$T --emit-artifact bench/layouts/two_inputs_large.py -o "$N/ncu/two_inputs_large.fart"
du -sh "$F" "$U" "$N"
