#!/usr/bin/env bash
# python_run.sh: the Python binding on the GPU machine (PyTorch there, no
# LLVM): every seed and visible corpus script run unchanged on CUDA tensors
# in one process (bench/gpu/python_check.py: outputs are fuser's memory and
# usable by torch, equal bit for bit to the same call through the artifact
# loaded from disk, recorded IR equal to the importer's, and against fuser's
# CPU reference where the inputs are small), then the per-call overhead
# benchmark (`python3 -m fuser.bench`, docs/PERFORMANCE.md: its per-step
# split, for each output allocator) with torch's DLPack C exchange API and
# without it (FUSER_PY_EXCHANGE_API=0). Two steps:
#
#   here:   bash bench/gpu/python_run.sh prepare [CARRY_DIR]
#           (needs a FUSER_SHARED_LIBRARY build with the Python module in
#           BUILD_DIR, default build-shared:
#             cmake -S . -B build-shared -DFUSER_SHARED_LIBRARY=ON
#             make -C build-shared fuser_shared fuser_python
#           writes CARRY_DIR, default .carry/python: libfuser.so stripped
#           and xz'd, the fuser package, python_check.py, the corpus scripts)
#   there:  bash bench/gpu/python_run.sh run [CARRY_DIR]
#           (unpacks libfuser.so next to the package, which finds it
#           through its RPATH $ORIGIN/../../lib; prints one line per
#           script and the benchmark's table and JSON line)
#           bash bench/gpu/python_run.sh bench [CARRY_DIR]: the benchmark
#           alone
set -euo pipefail
cd "$(dirname "$0")/../.."
step=${1:?usage: python_run.sh prepare|run [CARRY_DIR]}
carry=${2:-.carry/python}
case $step in
prepare)
  build=${BUILD_DIR:-build-shared}
  so=$(readlink -f "$build/lib/libfuser.so")
  [ -f "$so" ] || { echo "python_run.sh: no $build/lib/libfuser.so (configure with -DFUSER_SHARED_LIBRARY=ON)" >&2; exit 1; }
  [ -f "$build/python/fuser/_C.abi3.so" ] || { echo "python_run.sh: no $build/python/fuser/_C.abi3.so (make fuser_python)" >&2; exit 1; }
  soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
  rm -rf "$carry" && mkdir -p "$carry/lib" "$carry/python/fuser" "$carry/scripts"
  strip -o "$carry/lib/${soname:-libfuser.so}" "$so"
  xz -9 -T1 "$carry/lib/${soname:-libfuser.so}"
  cp "$build"/python/fuser/*.py "$build/python/fuser/_C.abi3.so" "$carry/python/fuser/"
  cp bench/gpu/python_check.py "$carry/"
  corpus=${FUSER_CORPUS_DIR:-../shared/corpus}
  cp "$corpus"/seed/*.py "$corpus"/visible/*.py "$carry/scripts/"
  du -sh "$carry"
  ;;
run | bench)
  for z in "$carry"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
  export PYTHONPATH=$carry/python
  fail=0
  if [ "$step" = run ]; then
    cache=$(mktemp -d) # the artifacts the first compile of each fusion writes, loaded by the second
    FUSER_CACHE_DIR=$cache timeout 300 python3 "$carry/python_check.py" "$carry"/scripts/seed_*.py \
      "$carry"/scripts/*_small.py "$carry"/scripts/*_large.py || fail=1
    rm -rf "$cache"
  fi
  # outputs from torch's allocator through the exchange table, through torch._C (Python calls), the runtime's
  python3 -m fuser.bench --device cuda || fail=1
  echo "--- the same without DLPack's C exchange API (FUSER_PY_EXCHANGE_API=0: capsules, as before)"
  FUSER_PY_EXCHANGE_API=0 python3 -m fuser.bench --device cuda --repeats 5 || fail=1
  exit $fail
  ;;
*)
  echo "python_run.sh: prepare, run or bench" >&2
  exit 2
  ;;
esac
