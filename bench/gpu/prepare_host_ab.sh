#!/usr/bin/env bash
# prepare_host_ab.sh: the carry of bench/gpu/host_ab.sh (host time per call,
# old runtime and artifacts against new), made here where MLIR is:
#   CARRY_DIR/old/src      `git archive OLD_COMMIT` (its runtime's sources)
#   CARRY_DIR/new/src      `git archive HEAD` of this checkout
#   CARRY_DIR/arts/old/    the 14 corpus scripts compiled by OLD_TRANSLATE
#   CARRY_DIR/arts/new/    ... by this checkout's build/bin/fuser-translate
#   CARRY_DIR/include/dlpack/dlpack.h
# (no --expected: host_ab.sh runs --zero-inputs, without --check).
#   bash bench/gpu/prepare_host_ab.sh OLD_COMMIT OLD_TRANSLATE CARRY_DIR [CORPUS_DIR]
# OLD_TRANSLATE: a fuser-translate built from OLD_COMMIT. Then, on the GPU:
#   cd CARRY_DIR/new/src && bash bench/gpu/host_ab.sh ../../old/src . ../.. 20 200 100
set -euo pipefail
old_commit=$1 old_translate=$2 carry=$3 corpus=${4:-../shared/corpus}
new_translate=build/bin/fuser-translate
rm -rf "$carry"
mkdir -p "$carry/old/src" "$carry/new/src" "$carry/arts/old" "$carry/arts/new" "$carry/include/dlpack"
git archive "$old_commit" | tar x -C "$carry/old/src"
git archive HEAD | tar x -C "$carry/new/src"
cp /usr/include/dlpack/dlpack.h "$carry/include/dlpack/"
for f in "$corpus"/seed/*.py "$corpus"/visible/*.py; do
  name=$(basename "$f" .py)
  "$old_translate" --emit-artifact "$f" -o "$carry/arts/old/$name.fart"
  "$new_translate" --emit-artifact "$f" -o "$carry/arts/new/$name.fart"
  cmp -s "$carry/arts/old/$name.fart" "$carry/arts/new/$name.fart" && echo "same     $name" || echo "differs  $name"
done
du -sh "$carry"
