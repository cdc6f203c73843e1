#!/usr/bin/env bash
# prepare.sh: compile every corpus script into an artifact here (MLIR is
# here, not on the GPU machine) and gather what the GPU run needs into
# CARRY_DIR (default .carry/gpu, git-ignored): arts/, corpus/, the DLPack
# header and the PyTorch stand-in. Small fusions record the CPU reference's
# results (--expected) so the GPU run can check them bit for bit.
#   bash bench/gpu/prepare.sh [CORPUS_DIR] [CARRY_DIR]
set -euo pipefail
corpus=${1:-../shared/corpus}
carry=${2:-.carry/gpu}
translate=${FUSER_TRANSLATE:-build/bin/fuser-translate}
mkdir -p "$carry/arts" "$carry/corpus" "$carry/include/dlpack"
cp /usr/include/dlpack/dlpack.h "$carry/include/dlpack/"
cp "$corpus/../bench/nvfuser_torch.py" "$corpus/../bench/peers.py" "$carry/"
for f in "$corpus"/seed/*.py "$corpus"/visible/*.py; do
  name=$(basename "$f" .py)
  cp "$f" "$carry/corpus/"
  expected=--expected
  case $name in *large*) expected="";; esac
  "$translate" --emit-artifact "$f" -o "$carry/arts/$name.fart" $expected
done
du -sh "$carry"
