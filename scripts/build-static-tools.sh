#!/usr/bin/env bash
# build-static-tools.sh: the MLIR-using tools linked against the static
# MLIR/LLVM archives (FUSER_STATIC_MLIR=ON, cmake/static_mlir.cmake), so that
# they run on a machine with glibc and no LLVM: the GPU machine
# (docs/gpu-machine.md). For each tool it writes OUT_DIR/<tool> (stripped)
# and OUT_DIR/<tool>.xz (xz -9), prints the link time and the sizes, and
# stops if ldd lists anything but glibc's own libraries.
#
#   scripts/build-static-tools.sh OUT_DIR [TOOL...]
#
# The default tool is fuser-tools: fuser-run, fuser-translate and fuser-opt
# in one executable (cmake/static_multicall.cmake), with a link
# OUT_DIR/<tool> -> fuser-tools for each. Single tools (fuser-run,
# fuser-cpu-check, ...) can be named instead; each is as large as all of
# fuser-tools.
#
# Environment:
#   BUILD_DIR   the CMake tree of the static build (default build-static/;
#               only the tools are built there, never the tests)
#   JOBS        make -j (default 2)
#
# Then scripts/check-static-tools.sh OUT_DIR build/bin compares them with the
# ordinary (dynamic) build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: build-static-tools.sh OUT_DIR [TOOL...]}
shift
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(fuser-tools)
build=${BUILD_DIR:-$root/build-static}
jobs=${JOBS:-2}
mkdir -p "$out" "$build"
build=$(cd "$build" && pwd)

# LLVM's Support needs zstd; Debian has libzstd.a only in libzstd-dev.
# Unpack that package here rather than install it (cmake/static_mlir.cmake).
deps=$build/deps
if [ ! -f /usr/lib/x86_64-linux-gnu/libzstd.a ] && [ ! -f "$deps/usr/lib/x86_64-linux-gnu/libzstd.a" ]; then
  mkdir -p "$deps"
  (cd "$deps" && apt-get download libzstd-dev > /dev/null 2>&1 && dpkg-deb -x libzstd-dev_*.deb .) || {
    echo "build-static-tools.sh: error: no libzstd.a, and apt-get download libzstd-dev failed" >&2
    exit 1
  }
fi

# Every link goes through /usr/bin/time, appending to link-time.log.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUSER_STATIC_MLIR=ON -DFUSER_STATIC_DEPS_DIR="$deps" \
  "-DCMAKE_CXX_LINKER_LAUNCHER=/usr/bin/time;-a;-o;$build/link-time.log;-f;%e s wall, %M KB max RSS" \
  > "$build/configure.log"
# The libraries first, so that each tool's make below is its link alone
# (plus its own few C files).
make -C "$build" -j"$jobs" fuser_compiler fuser_tool_support fuser_static_registration > "$build/make.log"

glibc_only='^[[:space:]]*(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|lib(c|m|dl|pthread|rt)\.so\.[0-9]+)[[:space:]]'
printf '%-16s %10s %12s %12s %12s  %s\n' tool link raw stripped xz-9 "newest glibc symbol"
for t in "${tools[@]}"; do
  : > "$build/link-time.log"
  make -C "$build" -j"$jobs" "$t" >> "$build/make.log"
  link=$(tail -n 1 "$build/link-time.log" | cut -d, -f1)
  [ -n "$link" ] || link="up to date"
  strip -o "$out/$t" "$build/bin/$t"
  rm -f "$out/$t.xz"
  xz -9 -T1 -k "$out/$t"
  if ldd "$out/$t" | grep -Ev "$glibc_only"; then
    echo "build-static-tools.sh: error: $out/$t needs the libraries above, beyond glibc" >&2
    exit 1
  fi
  glibc=$(objdump -T "$out/$t" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
  printf '%-16s %10s %12s %12s %12s  %s\n' "$t" "$link" "$(stat -c %s "$build/bin/$t")" \
    "$(stat -c %s "$out/$t")" "$(stat -c %s "$out/$t.xz")" "$glibc"
  if [ "$t" = fuser-tools ]; then
    for m in $(sed -n 's/^FUSER_MULTICALL_TOOLS:STRING=//p' "$build/CMakeCache.txt" | tr ';' ' '); do
      ln -sfn fuser-tools "$out/$m"
    done
  fi
done
