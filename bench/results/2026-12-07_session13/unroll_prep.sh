#!/usr/bin/env bash
# Makes .carry/u13/ab.tar.xz: the issue's four table patterns and the corpus' large pointwise
# fusions, this build's artifacts (unroll chosen per kernel: 1 for memory-bound ones, blocks of
# 128) against NAME.u2 / NAME.u4 (--unroll=2 / 4: vectors per thread, more bytes in flight per
# thread) and NAME.b256 (--block-size=256).
#   bash bench/results/2026-12-07_session13/unroll_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
C=.carry/u13
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new"
for s in bench/layouts/{two_inputs,slice1,permute,transpose}_large.py ../shared/corpus/visible/{rope_qkv,swiglu}_large.py; do
  n=$(basename "$s" .py)
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/base/$n.fart"
  for v in u2:--unroll=2 u4:--unroll=4 b256:--block-size=256; do
    tag=${v%%:*} opt=${v#*:}
    build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/new/$n.$tag.fart" $opt
    if cmp -s "$C/ab/base/$n.fart" "$C/ab/new/$n.$tag.fart"; then rm "$C/ab/new/$n.$tag.fart"; continue; fi
    echo "$n.$tag BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
    echo "$n.$tag NEW/$n.$tag.fart $(check_args "$n")" >> "$C/ab/new.manifest"
  done
done
cut -d' ' -f1 "$C/ab/new.manifest" | tr '\n' ' '; echo
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
du -sh "$C"
