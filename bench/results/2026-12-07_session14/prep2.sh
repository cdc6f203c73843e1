#!/usr/bin/env bash
# Makes .carry/a14 for session 14's second device call (call2.sh), this build against BASE_BUILD
# (default /tmp/wt_base/build: a worktree of 6689f30, the start of the session):
#   ab.tar.xz   every small layout and corpus script compiled as the binding compiles them
#               (--specialize-shapes --expected), the large layouts (symbolic sizes) and the
#               corpus' large scripts; only those whose artifacts differ
#   mc/arts     memcheck's artifacts (memcheck.sh runs each aligned and one element off): the
#               small layouts, the layout and shift test inputs
# (builds.sh makes BASE_BUILD and TILES_BUILD).
#   bash bench/results/2026-12-07_session14/prep2.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
base=${BASE_BUILD:-/tmp/wt_base/build}
C=.carry/a14
rm -rf "$C" && mkdir -p "$C/ab/base" "$C/ab/new" "$C/mc/arts"
: > "$C/ab/base.manifest"; : > "$C/ab/new.manifest"
for s in bench/layouts/*.py bench/layouts/more/*.py ../shared/corpus/visible/*.py; do
  n=$(basename "$s" .py)
  case $n in *_small) opt="--specialize-shapes --expected";; *_large) opt="";; *) continue;; esac
  "$base/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/base/$n.fart" $opt
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/new/$n.fart" $opt
  if cmp -s "$C/ab/base/$n.fart" "$C/ab/new/$n.fart"; then rm "$C/ab/base/$n.fart" "$C/ab/new/$n.fart"; continue; fi
  echo "$n BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
  echo "$n NEW/$n.fart $(check_args "$n")" >> "$C/ab/new.manifest"
done
# NAME.t1: this build against TILES_BUILD (default /tmp/wt_t/build: this tree with small tiles at
# any size and for `narrow` outputs too, SMALL_TILE_MIN_POINTS 1), on the small scripts it changes
tiles=${TILES_BUILD:-/tmp/wt_t/build}
for s in bench/layouts/*_small.py bench/layouts/more/*_small.py; do
  [ -x "$tiles/bin/fuser-translate" ] || break
  n=$(basename "$s" .py)
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/base/$n.cur.fart" --expected --specialize-shapes
  "$tiles/bin/fuser-translate" --emit-artifact "$s" -o "$C/ab/new/$n.t1.fart" --expected --specialize-shapes
  if cmp -s "$C/ab/base/$n.cur.fart" "$C/ab/new/$n.t1.fart"; then rm "$C/ab/base/$n.cur.fart" "$C/ab/new/$n.t1.fart"; continue; fi
  echo "$n.t1 BASE/$n.cur.fart $(check_args "$n")" >> "$C/ab/base.manifest"
  echo "$n.t1 NEW/$n.t1.fart $(check_args "$n")" >> "$C/ab/new.manifest"
done
cut -d' ' -f1 "$C/ab/new.manifest" | tr '\n' ' '; echo
tar cf - -C "$C" ab | xz -T2 -6 > "$C/ab.tar.xz" && rm -rf "$C/ab"
for s in bench/layouts/*_small.py bench/layouts/more/*_small.py test/lowering/Inputs/shift_*.py \
         test/lowering/Inputs/layouts_*.py test/lowering/Inputs/gather_*.py test/lowering/Inputs/merge_slice_permute*.py; do
  [ -f "$s" ] || continue
  n=$(basename "$s" .py); case $n in *_small|layouts_*) ;; *) n=layouts_$n;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/mc/arts/$n.fart" --expected
  case $n in *_small) build/bin/fuser-translate --emit-artifact "$s" -o "$C/mc/arts/static_$n.fart" --expected --specialize-shapes;; esac
done
ls "$C/mc/arts" | wc -l
du -sh "$C"
