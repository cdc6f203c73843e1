#!/usr/bin/env bash
# Adds .carry/c12/mc/arts: memcheck's artifacts from this build (the small layouts, and the
# layout, shift, gather, segments and pad-split test inputs), as session 11's final_prep.sh
# made them, so that the tile's columns form runs under compute-sanitizer, aligned and
# misaligned by one element.
#   bash bench/results/h200_2026-12-07_session12/mc_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=.carry/c12/mc/arts
rm -rf "$C" && mkdir -p "$C"
L=bench/layouts M=bench/layouts/more
for s in $L/*_small.py $M/*_small.py test/lowering/Inputs/shift_*.py test/lowering/Inputs/store_shift_*.py \
         test/lowering/Inputs/segments_*.py test/lowering/Inputs/pad_split_*.py test/lowering/Inputs/layouts_*.py test/lowering/Inputs/gather_*.py; do
  [ -f "$s" ] || continue
  n=$(basename "$s" .py); case $n in *_small|layouts_*) ;; *) n=layouts_$n;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/$n.fart" --expected
done
ls "$C" | wc -l
