#!/usr/bin/env bash
# gpu-selftest.sh: run the runtime on the GPU machine (no MLIR, no network).
# Builds the runtime with cc (scripts/build-runtime.sh), compiles the
# hand-written kernels of test/driver/gpu/add_kernels.cu to PTX with nvcc,
# runs test/driver/gpu/gpu_selftest.c (results, variant selection, timings,
# copy bandwidth, host overhead), then the quick variant of it under
# compute-sanitizer memcheck. Logs go to $OUT when set (the device tool).
#
#   [FUSER_DLPACK_INCLUDE=dir] scripts/gpu-selftest.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/fuser-runtime-build}
log=${OUT:-$build}
mkdir -p "$build" "$log"
export PATH=$PATH:/usr/local/cuda/bin
status=0

echo "== environment"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | head -2
nvcc --version | tail -1

echo "== build (cc only)"
bash "$root/scripts/build-runtime.sh" "$build" || exit 1
nvcc -arch=sm_90 -ptx "$root/test/driver/gpu/add_kernels.cu" -o "$build/add_kernels.ptx" || exit 1

echo "== self-test"
(cd "$build" && ./gpu_selftest "$build/add_kernels.ptx" --artifact "$build/selftest.fart") 2>&1 |
  tee "$log/selftest.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
cp "$build/selftest.fart" "$log/" 2>/dev/null

echo "== compute-sanitizer memcheck (quick: aligned, misaligned fallback, alias, refused input)"
if command -v compute-sanitizer >/dev/null; then
  (cd "$build" && compute-sanitizer --tool memcheck --leak-check full \
     ./gpu_selftest "$build/add_kernels.ptx" --quick --artifact "$build/quick.fart") 2>&1 |
    tee "$log/memcheck.log" | grep -E 'PASS|FAIL|ERROR SUMMARY|SELFTEST|=========' | head -40
  grep -q 'ERROR SUMMARY: 0 errors' "$log/memcheck.log" || status=1
else
  echo "compute-sanitizer not found"; status=1
fi
echo "== gpu-selftest: $([ $status = 0 ] && echo PASSED || echo FAILED)"
exit $status
