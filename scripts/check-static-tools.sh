#!/usr/bin/env bash
# check-static-tools.sh: the static tools (scripts/build-static-tools.sh)
# against the ordinary build, on this machine:
#   - ldd lists glibc's libraries only;
#   - fuser-translate --emit-ptx: the same PTX text, byte for byte, for every
#     seed and small corpus script (softmax and gelu link libdevice);
#   - fuser-run --cpu: the same output (shapes, checksums, first values);
#   - fuser-cpu-check, when built statically: the CPU JIT (ExecutionEngine,
#     libm resolved from the process) matches the reference on the seeds;
#   - nothing under the LLVM install is opened (strace), and the PTX is
#     still the same with the LLVM install hidden (a private mount
#     namespace, when unshare is permitted).
#
#   scripts/check-static-tools.sh STATIC_DIR DYNAMIC_BIN_DIR [CORPUS_DIR]
set -uo pipefail
static=${1:?usage: check-static-tools.sh STATIC_DIR DYNAMIC_BIN_DIR [CORPUS_DIR]}
dynamic=${2:?usage: check-static-tools.sh STATIC_DIR DYNAMIC_BIN_DIR [CORPUS_DIR]}
corpus=${3:-../shared/corpus}
llvm=${FUSER_LLVM_PREFIX:-/usr/lib/llvm-22}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

glibc_only='^[[:space:]]*(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|lib(c|m|dl|pthread|rt)\.so\.[0-9]+)[[:space:]]'
for t in "$static"/*; do
  [ -x "$t" ] && [ -f "$t" ] && [ ! -L "$t" ] || continue
  case $t in *.xz) continue;; esac
  if ldd "$t" | grep -Ev "$glibc_only"; then fail "ldd $t lists more than glibc"; else echo "ok: ldd $(basename "$t"): glibc only"; fi
done

scripts=("$corpus"/seed/*.py "$corpus"/visible/*_small.py)
for s in "${scripts[@]}"; do
  n=$(basename "$s" .py)
  "$dynamic/fuser-translate" --emit-ptx "$s" -o "$tmp/$n.dyn.ptx" 2> "$tmp/err" || fail "dynamic --emit-ptx $n"
  "$static/fuser-translate" --emit-ptx "$s" -o "$tmp/$n.sta.ptx" 2> "$tmp/err" || { head -3 "$tmp/err"; fail "static --emit-ptx $n"; }
  # one file per PTX binary: NAME.ptx or NAME.<binary>.ptx
  for p in "$tmp/$n".dyn*.ptx; do
    q="$tmp/$n.sta${p#"$tmp/$n.dyn"}"
    cmp -s "$p" "$q" && echo "ok: PTX identical: $(basename "$q") ($(wc -c < "$q") bytes)" || fail "PTX differs: $(basename "$q")"
  done
  "$dynamic/fuser-run" --cpu "$s" > "$tmp/$n.dyn.run" 2>&1 || fail "dynamic fuser-run --cpu $n"
  "$static/fuser-run" --cpu "$s" > "$tmp/$n.sta.run" 2>&1 || fail "static fuser-run --cpu $n"
  cmp -s "$tmp/$n.dyn.run" "$tmp/$n.sta.run" &&
    echo "ok: fuser-run --cpu identical: $n ($(grep -m1 -o 'fnv1a [0-9a-f]*' "$tmp/$n.sta.run"))" || fail "fuser-run --cpu differs: $n"
done

if [ -x "$static/fuser-cpu-check" ]; then
  for s in "$corpus"/seed/*.py "$corpus"/visible/softmax_small.py "$corpus"/visible/gelu_tanh_small.py; do
    n=$(basename "$s" .py)
    "$static/fuser-translate" --import-nvfuser "$s" -o "$tmp/$n.mlir" &&
      "$static/fuser-run" --cpu "$s" --save-case "$tmp/$n.case" > /dev/null &&
      "$static/fuser-cpu-check" "$tmp/$n.mlir" "$tmp/$n.case" > "$tmp/$n.jit" 2>&1 &&
      echo "ok: static CPU JIT matches the reference: $n" || { tail -3 "$tmp/$n.jit"; fail "static fuser-cpu-check $n"; }
  done
fi

seed=${scripts[0]}
if command -v strace > /dev/null; then
  strace -f -e trace=%file -o "$tmp/trace" "$static/fuser-translate" --emit-ptx "$corpus/visible/softmax_small.py" \
    -o "$tmp/trace.ptx" 2> /dev/null
  if grep -q "$llvm" "$tmp/trace"; then grep "$llvm" "$tmp/trace" | head; fail "the static tool opens files under $llvm"
  else echo "ok: strace: nothing opened under $llvm; libdevice: $(grep -o '"[^"]*libdevice[^"]*"' "$tmp/trace" | sort -u | tr '\n' ' ')"; fi
fi
if unshare -m true 2> /dev/null; then
  # The private namespace's mounts are seen by this command alone.
  unshare -m sh -c "mount -t tmpfs none '$llvm' && '$static/fuser-translate' --emit-ptx '$corpus/visible/softmax_small.py' -o '$tmp/hidden.ptx'" &&
    cmp -s "$tmp/hidden.ptx" "$tmp/softmax_small.dyn.ptx" && echo "ok: same PTX with $llvm hidden" ||
    fail "with $llvm hidden"
fi

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $((failures > 0))
