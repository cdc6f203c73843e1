#!/usr/bin/env bash
# rng.sh: random numbers (fuser.uniform / fuser.normal, nvFuser's Philox) on
# the GPU against the CPU reference. Two halves, as for the corpus:
#   here (MLIR):      bash bench/gpu/rng.sh prepare CARRY_DIR
#     compiles test/frontend/Inputs/scripts/random_*.py into artifacts that record the
#     CPU reference's outputs (--expected), plus the DLPack header;
#   on the GPU host:  bash bench/gpu/rng.sh run CARRY_DIR OUT_DIR
#     builds the runtime (scripts/build-runtime.sh) and runs each artifact
#     with --check: uniform values must be bit-identical to the reference;
#     normal values go through libdevice's logf/sinf/cosf (1, 2, 2 ulp at
#     most, CUDA's table) where the reference uses glibc's: through sqrt
#     and the Box-Muller product that is at most 5 ulp of the value
#     (scripts/box_muller_ulp.py), so --check-ulp 5 is accepted for them
#     (the log says which case needed it; the H200 showed 3 for f32).
set -uo pipefail
mode=$1
carry=$2
case $mode in
prepare)
  translate=${FUSER_TRANSLATE:-build/bin/fuser-translate}
  mkdir -p "$carry/rng" "$carry/include/dlpack"
  cp /usr/include/dlpack/dlpack.h "$carry/include/dlpack/"
  for f in test/frontend/Inputs/scripts/random_*.py; do
    "$translate" --emit-artifact "$f" -o "$carry/rng/$(basename "$f" .py).fart" --expected || exit 1
  done
  ls -l "$carry/rng"
  ;;
run)
  out=$3
  mkdir -p "$out"
  log=$out/rng.txt
  FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime >> "$log" 2>&1 || { tail "$log"; exit 1; }
  for art in "$carry"/rng/*.fart; do
    name=$(basename "$art" .fart)
    echo "== $name exact" >> "$log"
    if ! timeout 120 build-runtime/fuser-run --artifact "$art" --check >> "$log" 2>&1; then
      echo "== $name within 5 ulp" >> "$log"
      timeout 120 build-runtime/fuser-run --artifact "$art" --check --check-ulp 5 >> "$log" 2>&1 || echo "FAILED $name" >> "$log"
    fi
  done
  grep -E "==|check|FAILED|differ" "$log"
  ;;
*) echo "usage: rng.sh prepare CARRY_DIR | run CARRY_DIR OUT_DIR" >&2; exit 2 ;;
esac
