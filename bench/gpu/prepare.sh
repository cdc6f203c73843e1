#!/usr/bin/env bash
# prepare.sh: compile every corpus script, the layout patterns
# (bench/layouts) and the in-tree printed-form scripts
# (test/frontend/Inputs/scripts) into artifacts here (MLIR is
# here, not on the GPU machine) and gather what the GPU run needs into
# CARRY_DIR (default .carry/gpu, git-ignored): arts/, corpus/, the DLPack
# header and the PyTorch stand-in. Small fusions record the CPU reference's
# results (--expected) so the GPU run can check them bit for bit.
# The in-tree layout tests (test/lowering/Inputs/layouts_*.py: the tile
# variant with ragged tiles, the rows variant) ride along for memcheck.
# FUSER_ONLY="name ..." compiles only the named scripts (a short GPU call
# for the fusions a change touches; FUSER_TRANSLATE=<base build's tool>
# makes the same set for a baseline).
# With FUSER_CARRY_TOOLS=1 it also builds the static tools
# (scripts/build-static-tools.sh; MLIR in one executable that needs only
# glibc) and adds bin/fuser-tools.xz (~12.6 MB) with what they print here on
# the seeds (bin/expected/), for bench/gpu/run_jit.sh.
#   bash bench/gpu/prepare.sh [CORPUS_DIR] [CARRY_DIR]
#   FUSER_CARRY_TOOLS=1 bash bench/gpu/prepare.sh [CORPUS_DIR] [CARRY_DIR]
set -euo pipefail
corpus=${1:-../shared/corpus}
carry=${2:-.carry/gpu}
translate=${FUSER_TRANSLATE:-build/bin/fuser-translate}
mkdir -p "$carry/arts" "$carry/corpus" "$carry/include/dlpack"
cp /usr/include/dlpack/dlpack.h "$carry/include/dlpack/"
cp "$corpus/../bench/nvfuser_torch.py" "$corpus/../bench/peers.py" "$carry/"
# the layout patterns (issue 15) and the in-tree scripts of printed forms and ops (issue 16) ride along
for f in "$corpus"/seed/*.py "$corpus"/visible/*.py bench/layouts/*.py test/frontend/Inputs/scripts/*.py test/lowering/Inputs/layouts_*.py; do
  name=$(basename "$f" .py)
  case " ${FUSER_ONLY:-$name} " in *" $name "*) ;; *) continue;; esac
  cp "$f" "$carry/corpus/"
  expected=--expected
  case $name in *large*) expected="";; esac
  # a script that fails to compile is named and skipped (matmul segments compile: cuBLASLt kernels)
  "$translate" --emit-artifact "$f" -o "$carry/arts/$name.fart" $expected || {
    echo "prepare: $name has no artifact" >&2
    rm -f "$carry/corpus/$name.py"
  }
done
# scripts whose every run must fail with the index error (issue 16: the
# kernel's index flag, FUSER_ERR_INDEX): no --expected (the reference fails too)
for f in test/frontend/Inputs/index_oob/*.py; do
  name=$(basename "$f" .py)
  case " ${FUSER_ONLY:-$name} " in *" $name "*) ;; *) continue;; esac
  cp "$f" "$carry/corpus/"
  "$translate" --emit-artifact "$f" -o "$carry/arts/$name.fart"
done
if [ "${FUSER_CARRY_TOOLS:-0}" = 1 ]; then
  static=${FUSER_STATIC_OUT:-build-static/out}
  bash scripts/build-static-tools.sh "$static"
  mkdir -p "$carry/bin/expected"
  cp "$static/fuser-tools.xz" "$carry/bin/"
  # softmax: libdevice (__nv_expf) from the GPU machine's CUDA.
  for f in "$corpus"/seed/*.py "$corpus"/visible/softmax_small.py; do
    name=$(basename "$f" .py)
    "$static/fuser-run" --cpu "$f" > "$carry/bin/expected/$name.cpu.txt"
    "$static/fuser-translate" --emit-ptx "$f" -o "$carry/bin/expected/$name.ptx"
  done
fi
du -sh "$carry"
