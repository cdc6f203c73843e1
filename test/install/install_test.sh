#!/usr/bin/env bash
# install_test.sh: installs the build into a temporary prefix and builds and
# runs docs/libfuser.md's complete example against it, the way a framework
# would, on a machine with no GPU:
#   1. `cmake --install BUILD --prefix TMP/prefix`; the headers, library,
#      tools and package files are where docs/libfuser.md says;
#   2. libfuser.so needs no LLVM (ldd), exports exactly the public
#      functions (nm -D against BUILD/libfuser.exports);
#   3. the example, extracted from docs/libfuser.md, compiled with
#      `cc $(pkg-config --cflags --libs fuser)` (the C compiler, no C++
#      linker) and with CMake's find_package(fuser) + fuser::fuser, each run
#      with no libcuda (FUSER_CUDA_LIBRARY pointing nowhere): compile-only
#      and a CPU run through the public API;
#   4. run twice with a cache directory: the second process loads the
#      entry (the example prints its counters).
#   install_test.sh SOURCE_DIR BUILD_DIR TMP_DIR
set -euo pipefail
src=$1
build=$2
tmp=$3
rm -rf "$tmp"
mkdir -p "$tmp"
prefix=$tmp/prefix
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
for f in include/fuser/fuser.h include/fuser/fuser_runtime.h lib/libfuser.so lib/pkgconfig/fuser.pc \
         lib/cmake/fuser/fuserConfig.cmake lib/cmake/fuser/fuserConfigVersion.cmake \
         bin/fuser-opt bin/fuser-translate bin/fuser-run; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
# the headers are self-contained: nothing outside the prefix but the system's
# (a quoted include names a header installed beside it)
grep -ho '#include "[^"]*"' "$prefix"/include/fuser/*.h | sed 's/#include "\(.*\)"/\1/' | sort -u |
  while read -r h; do [ -f "$prefix/include/fuser/$h" ] || { echo "$h"; exit 1; }; done || fail "checkout-relative include"

lib=$(readlink -f "$prefix/lib/libfuser.so")
if ldd "$lib" | grep -Ei 'llvm|mlir|stdc\+\+'; then fail "libfuser.so needs the libraries above"; fi
nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | sed 's/@.*//' | sort > "$tmp/exported"
sort "$build/libfuser.exports" > "$tmp/public"
diff "$tmp/public" "$tmp/exported" > "$tmp/exports.diff" || { cat "$tmp/exports.diff"; fail "exports differ from the public API"; }
echo "libfuser.so: $(stat -c %s "$lib") bytes, $(wc -l < "$tmp/exported") exported functions; ldd:"
ldd "$lib" | sed 's/^/  /'

awk '/<!-- example: libfuser_example.c -->/{on=1; next} on && /^```c$/{code=1; next} code && /^```$/{exit} code' \
  "$src/docs/libfuser.md" > "$tmp/libfuser_example.c"
[ -s "$tmp/libfuser_example.c" ] || fail "no example in docs/libfuser.md"

export FUSER_CUDA_LIBRARY=/nonexistent/libcuda.so.1
cc=${CC:-cc}
PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs fuser)
echo "pkg-config: $flags"
"$cc" -std=c11 -Wall -Wextra -Werror "$tmp/libfuser_example.c" $flags -Wl,-rpath,"$prefix/lib" -o "$tmp/example_pc"
"$tmp/example_pc" "$tmp/cache" "$tmp/example.fart" | tee "$tmp/run1.log"
grep -q "compiles 1, loaded from the cache 0" "$tmp/run1.log" || fail "the first run did not compile once"
[ -s "$tmp/example.fart" ] || fail "no artifact written"
"$tmp/example_pc" "$tmp/cache" | tee "$tmp/run2.log"
grep -q "compiles 0, loaded from the cache 1" "$tmp/run2.log" || fail "the second process did not load the cached entry"

cmake -S "$src/test/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DEXAMPLE="$tmp/libfuser_example.c" -DCMAKE_C_FLAGS="-Wall -Werror" > "$tmp/consumer.log"
cmake --build "$tmp/consumer" >> "$tmp/consumer.log"
"$tmp/consumer/consumer" | tee "$tmp/run3.log"
grep -q "ran on the CPU" "$tmp/run3.log" || fail "the CMake consumer did not run"
# the installed tools run from the prefix (an ordinary build's find the
# system's libMLIR.so through their RPATH)
printf '%s\n' 'def f(fd):' \
  '    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)' \
  '    T1 = fd.ops.neg(T0)' '    fd.add_output(T1)' 'inputs = [' \
  "    torch.randn((8,), dtype=torch.float32, device='cuda:0')," ']' > "$tmp/neg.py"
"$prefix/bin/fuser-translate" --import-nvfuser "$tmp/neg.py" -o "$tmp/neg.mlir"
"$prefix/bin/fuser-opt" "$tmp/neg.mlir" | grep -q '"fuser.neg"' || fail "the installed fuser-opt"
"$prefix/bin/fuser-run" --cpu "$tmp/neg.py" > "$tmp/neg.cpu" 2>&1 || { head "$tmp/neg.cpu"; fail "the installed fuser-run"; }
echo "install_test: PASS"
