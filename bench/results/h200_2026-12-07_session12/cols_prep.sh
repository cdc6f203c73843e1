#!/usr/bin/env bash
# Makes .carry/c12/ab.tar.xz: every layout and corpus script whose artifact changes with the
# transpose tile's columns form (phase 2 along tile_dim where an output may be misaligned),
# BASE_BUILD (default /tmp/h12/build, the commit before it) against this build.
#   bash bench/results/h200_2026-12-07_session12/cols_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
base=${BASE_BUILD:-/tmp/h12/build}
C=.carry/c12
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new"
exp() { case $1 in *large*) echo "";; *) echo --expected;; esac; }
for s in bench/layouts/*.py bench/layouts/more/*.py ../shared/corpus/seed/*.py ../shared/corpus/visible/*.py; do
  n=$(basename "$s" .py)
  case $n in gen) continue;; esac
  "$base/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/base/$n.fart" $(exp "$n") 2> /dev/null || { rm -f "$C/ab/base/$n.fart"; continue; }
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/new/$n.fart" $(exp "$n")
  if cmp -s "$C/ab/base/$n.fart" "$C/ab/new/$n.fart"; then rm "$C/ab/base/$n.fart" "$C/ab/new/$n.fart"; continue; fi
  echo "$n BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
  echo "$n NEW/$n.fart $(check_args "$n")" >> "$C/ab/new.manifest"
done
cat "$C/ab/new.manifest" | cut -d' ' -f1 | tr '\n' ' '; echo
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
du -sh "$C"
