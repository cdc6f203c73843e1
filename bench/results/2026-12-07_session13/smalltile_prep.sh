#!/usr/bin/env bash
# Makes .carry/t13: this build's small tiles (32 x 32 below 2^18 static points) against the
# commit before them (BASE_TRANSLATE, a fuser-translate built from it), on every small layout
# script compiled as the binding compiles it (--specialize-shapes): ab.tar.xz with the pairs
# that differ, and mc/arts (memcheck.sh: layouts_NAME_spec, aligned and misaligned by one).
#   BASE_TRANSLATE=/tmp/basebin/fuser-translate bash bench/results/2026-12-07_session13/smalltile_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
base=${BASE_TRANSLATE:?}
C=.carry/t13
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new" "$C/mc/arts"
for s in bench/layouts/*_small.py bench/layouts/more/*_small.py; do
  n=$(basename "$s" .py)
  "$base" --emit-artifact "$s" -o "$C/ab/base/$n.fart" --expected --specialize-shapes
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/new/$n.fart" --expected --specialize-shapes
  if cmp -s "$C/ab/base/$n.fart" "$C/ab/new/$n.fart"; then rm "$C/ab/base/$n.fart" "$C/ab/new/$n.fart"; continue; fi
  echo "$n BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
  echo "$n NEW/$n.fart $(check_args "$n")" >> "$C/ab/new.manifest"
  cp "$C/ab/new/$n.fart" "$C/mc/arts/layouts_${n}_spec.fart"
done
cut -d' ' -f1 "$C/ab/new.manifest" | tr '\n' ' '; echo
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
du -sh "$C"
