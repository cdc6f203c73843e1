#!/usr/bin/env bash
# libfuser_host.sh: the host time of a cached libfuser call beside a bare
# cuLaunchKernel of the same kernels (bench/libfuser_host_bench.c), on the
# GPU machine, through libfuser.so itself (MLIR/LLVM inside: that machine
# has none). Two steps:
#
#   here:   bash bench/gpu/libfuser_host.sh prepare [CARRY_DIR]
#           (needs a FUSER_SHARED_LIBRARY build in BUILD_DIR, default
#           build-shared; writes CARRY_DIR, default .carry/libfuser:
#           libfuser.so stripped and xz'd, the DLPack header, the scripts,
#           and the benchmark built here against libfuser.so and the
#           runtime archive, so that the GPU machine compiles nothing)
#   there:  bash bench/gpu/libfuser_host.sh run [CARRY_DIR] [ITERS]
#           (unpacks libfuser.so, checks ldd, runs the carried benchmark on
#           each carried script; without a carried benchmark it builds the
#           runtime's sources with cc (scripts/build-runtime.sh) and the
#           benchmark there)
#
# Each script prints bare / execute / execute_on / execute_on+caching host
# ns per call and their ratios to bare, then one JSON line.
set -euo pipefail
cd "$(dirname "$0")/../.."
step=${1:?usage: libfuser_host.sh prepare|run [CARRY_DIR] [ITERS]}
carry=${2:-.carry/libfuser}
case $step in
prepare)
  build=${BUILD_DIR:-build-shared}
  so=$(readlink -f "$build/lib/libfuser.so")
  [ -f "$so" ] || { echo "libfuser_host.sh: no $build/lib/libfuser.so (configure with -DFUSER_SHARED_LIBRARY=ON)" >&2; exit 1; }
  mkdir -p "$carry/include/dlpack" "$carry/scripts"
  cp /usr/include/dlpack/dlpack.h "$carry/include/dlpack/"
  strip -o "$carry/libfuser.so" "$so"
  rm -f "$carry/libfuser.so.xz"
  xz -9 -T1 "$carry/libfuser.so"
  corpus=${FUSER_CORPUS_DIR:-../shared/corpus}
  cp "$corpus/seed/seed_fusion_id0.py" "$corpus/seed/seed_fusion_id1.py" "$corpus/visible/softmax_small.py" \
    "$carry/scripts/"
  # libfuser.so first: the runtime archive supplies only what the
  # benchmark's bare launch needs that libfuser.so does not export
  # (driver table, expressions, input recipes)
  ${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I. -Iinclude bench/libfuser_host_bench.c -L"$build/lib" -lfuser \
    "$build/driver/libfuser_runtime.a" -ldl -lpthread -lm -o "$carry/libfuser_host_bench"
  du -sh "$carry"
  ;;
run)
  iters=${3:-1000}
  out=build-libfuser-bench
  mkdir -p "$out/lib"
  so=$out/lib/libfuser.so.0.2 # the soname
  if command -v xz > /dev/null; then xz -dc "$carry/libfuser.so.xz" > "$so"
  else python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$carry/libfuser.so.xz" > "$so"
  fi
  ln -sfn libfuser.so.0.2 "$out/lib/libfuser.so"
  echo "libfuser.so: $(stat -c %s "$so") bytes; ldd:"
  ldd "$so" | sed 's/^/  /'
  bench=$carry/libfuser_host_bench
  if [ ! -x "$bench" ]; then
    FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh "$out/runtime" > "$out/build-runtime.log" 2>&1 ||
      { tail "$out/build-runtime.log"; exit 1; }
    ${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I. -Iinclude -isystem "$carry/include" bench/libfuser_host_bench.c \
      -L"$out/lib" -lfuser "$out/runtime/libfuser_runtime.a" -ldl -lpthread -lm -o "$out/libfuser_host_bench"
    bench=$out/libfuser_host_bench
  fi
  for s in "$carry"/scripts/*.py; do LD_LIBRARY_PATH="$PWD/$out/lib" "$bench" --iters "$iters" "$s"; done
  ;;
*)
  echo "libfuser_host.sh: unknown step $step" >&2
  exit 2
  ;;
esac
