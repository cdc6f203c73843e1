#!/usr/bin/env bash
# Makes .carry/t0/ab.tar.xz: the small fusions whose kernels change when the transpose
# schedule's tiles apply at any size (TILE_MIN_POINTS 1, TILE0_BUILD, default /tmp/tile0/build)
# against this build (tiles from 2^18 points), each as built for any size (NAME) and with its
# extents static (NAME.s, --specialize-shapes: what the binding now compiles for small calls).
#   bash bench/results/h200_2026-12-07_session12/tile0_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
t0=${TILE0_BUILD:-/tmp/tile0/build}
C=.carry/t0
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new"
M=bench/layouts/more
for s in bench/layouts/transpose_add_small.py $M/*_small.py; do
  n=$(basename "$s" .py)
  for spec in "" ".s"; do
    flag=; [ -n "$spec" ] && flag=--specialize-shapes
    build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/base/$n$spec.fart" --expected $flag
    "$t0/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/new/$n$spec.fart" --expected $flag
    if cmp -s "$C/ab/base/$n$spec.fart" "$C/ab/new/$n$spec.fart"; then rm "$C/ab/base/$n$spec.fart" "$C/ab/new/$n$spec.fart"; continue; fi
    echo "$n$spec BASE/$n$spec.fart $(check_args "$n")" >> "$C/ab/base.manifest"
    echo "$n$spec NEW/$n$spec.fart $(check_args "$n")" >> "$C/ab/new.manifest"
  done
done
wc -l "$C/ab/new.manifest"
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
du -sh "$C"
