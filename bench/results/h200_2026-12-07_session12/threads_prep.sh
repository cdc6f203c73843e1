#!/usr/bin/env bash
# Makes .carry/t12/ab.tar.xz: 256-thread tiles (2 vectors a thread and phase) against this
# build's 128-thread tiles, on every large layout script whose tile kernel changes (small
# ones run below the tiles' 2^18 points):
#   NAME.v  /tmp/v256/build: this tree (columns form) with TILE_THREADS 256 and, where both
#           forms are built, .minnctapersm 1024 / threads;
#   NAME.h  /tmp/h256/build: the commit before the columns form, with TILE_THREADS 256.
#   bash bench/results/h200_2026-12-07_session12/threads_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
C=.carry/t12
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new"
exp() { case $1 in *large*) echo "";; *) echo --expected;; esac; }
for s in bench/layouts/*_large.py bench/layouts/more/*_large.py; do
  n=$(basename "$s" .py)
  case $n in gen) continue;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/base/$n.fart" $(exp "$n")
  for v in v:/tmp/v256 h:/tmp/h256; do
    tag=${v%%:*} dir=${v#*:}
    "$dir/build/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/new/$n.$tag.fart" $(exp "$n")
    if cmp -s "$C/ab/base/$n.fart" "$C/ab/new/$n.$tag.fart"; then rm "$C/ab/new/$n.$tag.fart"; continue; fi
    echo "$n.$tag BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
    echo "$n.$tag NEW/$n.$tag.fart $(check_args "$n")" >> "$C/ab/new.manifest"
  done
  grep -q "^$n\." "$C/ab/base.manifest" 2> /dev/null || rm "$C/ab/base/$n.fart"
done
cut -d' ' -f1 "$C/ab/new.manifest" | tr '\n' ' '; echo
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
/tmp/v256/build/bin/fuser-translate --emit-artifact bench/layouts/more/tadd_ragged_bf16_large.py -o "$C/ragged_v256.fart"
du -sh "$C"
