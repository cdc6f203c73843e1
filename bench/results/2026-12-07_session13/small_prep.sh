#!/usr/bin/env bash
# Makes .carry/s13/ab.tar.xz: the small fusions (under 4 MB: the layout twins, bench/layouts/more,
# the corpus' small scripts) compiled as the binding compiles them (--specialize-shapes), this
# build against a candidate for the small transposes:
#   NAME.t32             /tmp/wt_tile/build: tiles at any size (TILE_MIN_POINTS 1) of 4 W
#                        (32 x 32 bf16) instead of 8 W.
# (Blocks of 64 or 32 threads, the other candidate for small kernels that leave SMs idle, were
# measured in session 11: 0.98-1.04 and 1.00-1.11, bench/results/h200_2026-12-07_session11.)
# Also transpose_add_small's three candidates as single artifacts for ncu.
#   bash bench/results/2026-12-07_session13/small_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
C=.carry/s13
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new" "$C/ncu"
for s in bench/layouts/*_small.py bench/layouts/more/*_small.py ../shared/corpus/visible/*_small.py; do
  n=$(basename "$s" .py)
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/base/$n.fart" --expected --specialize-shapes
  for v in t32:/tmp/wt_tile/build:; do
    IFS=: read -r tag dir opt <<< "$v"
    "$dir/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/new/$n.$tag.fart" --expected --specialize-shapes $opt
    if cmp -s "$C/ab/base/$n.fart" "$C/ab/new/$n.$tag.fart"; then rm "$C/ab/new/$n.$tag.fart"; continue; fi
    echo "$n.$tag BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
    echo "$n.$tag NEW/$n.$tag.fart $(check_args "$n")" >> "$C/ab/new.manifest"
  done
  grep -q "^$n\." "$C/ab/base.manifest" 2> /dev/null || rm "$C/ab/base/$n.fart"
done
cut -d' ' -f1 "$C/ab/new.manifest" | tr '\n' ' '; echo
cp "$C/ab/base/transpose_add_small.fart" "$C/ncu/ta_base.fart"
for t in t32; do cp "$C/ab/new/transpose_add_small.$t.fart" "$C/ncu/ta_$t.fart"; done
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
du -sh "$C"
