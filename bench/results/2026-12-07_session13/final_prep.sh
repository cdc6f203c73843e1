#!/usr/bin/env bash
# Makes .carry/m13 from this build: mc/arts (memcheck's artifacts: the layouts' small twins, the
# held-back layouts' small ones and the layout test inputs, aligned and, in memcheck.sh,
# misaligned by one element) and corpus.tar.xz (the corpus against d7d5b52: base = the artifacts
# of .carry/f11/ab.tar.xz's base side, new = this build's).
#   bash bench/results/2026-12-07_session13/final_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
. bench/gpu/check_bounds.sh
C=.carry/m13
rm -rf "$C" && mkdir -p "$C/mc/arts" "$C/ab/new" /tmp/f11ab
L=bench/layouts M=bench/layouts/more
for s in $L/*_small.py $M/*_small.py test/lowering/Inputs/shift_*.py test/lowering/Inputs/store_shift_*.py \
         test/lowering/Inputs/segments_*.py test/lowering/Inputs/pad_split_*.py test/lowering/Inputs/layouts_*.py \
         test/lowering/Inputs/gather_*.py test/lowering/Inputs/merge_slice_permute*.py; do
  [ -f "$s" ] || continue
  n=$(basename "$s" .py); case $n in *_small|layouts_*) ;; *) n=layouts_$n;; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/mc/arts/$n.fart" --expected
done
ls "$C/mc/arts" | wc -l
xz -dc .carry/f11/ab.tar.xz | tar xf - -C /tmp/f11ab
mkdir -p "$C/ab/base" && : > "$C/ab/new.manifest"
grep -v "^#" /tmp/f11ab/ab/base.manifest | while read -r n rest; do
  s=$(ls ../shared/corpus/*/"$n.py" 2> /dev/null | head -1 || true)
  [ -n "$s" ] || continue
  cp "/tmp/f11ab/ab/base/$n.fart" "$C/ab/base/"
  echo "$n BASE/$n.fart $(check_args "$n")" >> "$C/ab/base.manifest"
  build/bin/fuser-translate --emit-artifact "$s" -o "$C/ab/new/$n.fart" $(case $n in *large*) ;; *) echo --expected;; esac)
  echo "$n NEW/$n.fart $(check_args "$n")" >> "$C/ab/new.manifest"
done
cut -d' ' -f1 "$C/ab/new.manifest" | tr '\n' ' '; echo
tar cf - -C "$C" ab | xz -T2 -6 > "$C/corpus.tar.xz" && rm -rf "$C/ab" /tmp/f11ab
du -sh "$C"
