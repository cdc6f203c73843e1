#!/usr/bin/env bash
# build-runtime.sh: build the runtime (libfuser_runtime.a) and its GPU tools
# with a plain C compiler, no CMake and no MLIR: this is how it is built on
# the GPU machine.
#
#   scripts/build-runtime.sh [OUT_DIR]        (default: build-runtime/)
#
# Environment:
#   CC                     the C compiler (default cc)
#   FUSER_DLPACK_INCLUDE   a directory holding dlpack/dlpack.h, when the
#                          system has none (the GPU machine: carry the header)
#
# If dlpack.h is neither on the system nor given, the script installs
# Debian's libdlpack-dev (needs root and network); otherwise it stops with a
# message saying to set FUSER_DLPACK_INCLUDE. Nothing is vendored.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build-runtime}
cc=${CC:-cc}
mkdir -p "$out/obj"

inc=()
if [ -n "${FUSER_DLPACK_INCLUDE:-}" ]; then
  if [ ! -f "$FUSER_DLPACK_INCLUDE/dlpack/dlpack.h" ]; then
    echo "build-runtime.sh: error: $FUSER_DLPACK_INCLUDE/dlpack/dlpack.h does not exist" >&2
    exit 1
  fi
  inc=(-isystem "$FUSER_DLPACK_INCLUDE")
elif ! echo '#include <dlpack/dlpack.h>' | "$cc" -E -x c - >/dev/null 2>&1; then
  echo "build-runtime.sh: dlpack/dlpack.h not found; trying apt-get install libdlpack-dev" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null &&
     timeout 120 apt-get install -y -q libdlpack-dev >/dev/null 2>&1; then
    :
  else
    echo "build-runtime.sh: error: dlpack/dlpack.h not found and libdlpack-dev could not be installed;" \
         "set FUSER_DLPACK_INCLUDE to a directory holding dlpack/dlpack.h" >&2
    exit 1
  fi
fi

flags=(-std=c11 -O2 -g -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter -I"$root" "${inc[@]}")
objs=()
for src in "$root"/driver/*.c; do
  obj="$out/obj/$(basename "${src%.c}").o"
  "$cc" "${flags[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
rm -f "$out/libfuser_runtime.a"
ar rcs "$out/libfuser_runtime.a" "${objs[@]}"

# Tools: the GPU self-test (its kernels are built by scripts/gpu-selftest.sh)
# and the artifact dumper.
"$cc" "${flags[@]}" "$root/test/driver/gpu/gpu_selftest.c" "$out/libfuser_runtime.a" -ldl -lpthread -lm \
  -o "$out/gpu_selftest"
"$cc" "${flags[@]}" "$root/driver/tools/fuser-artifact.c" "$out/libfuser_runtime.a" -ldl -lpthread -lm \
  -o "$out/fuser-artifact"
# fuser-run with the runtime alone: `fuser-run --artifact F` and `--serve MANIFEST`.
"$cc" "${flags[@]}" "$root/tools/fuser-run/runtime_only_main.c" "$root/tools/fuser-run/artifact_run.c" \
  "$root/tools/fuser-run/serve.c" "$out/libfuser_runtime.a" -ldl -lpthread -lm -o "$out/fuser-run"
echo "build-runtime.sh: built $out/libfuser_runtime.a, $out/gpu_selftest, $out/fuser-artifact and $out/fuser-run"
