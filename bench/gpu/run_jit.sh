#!/usr/bin/env bash
# run_jit.sh: the static MLIR tools on the GPU machine, which has no LLVM
# (docs/gpu-machine.md). Unpacks CARRY_DIR/bin/fuser-tools.xz (put there by
# FUSER_CARRY_TOOLS=1 bench/gpu/prepare.sh) into BIN_DIR with a link per
# tool, then smoke-tests it: ldd (glibc only), fuser-run --cpu on the seeds
# and softmax_small (the same output as on the build machine: bin/expected/*.cpu.txt), and
# fuser-translate --emit-ptx on them, whose PTX must pass ptxas (libdevice
# comes from this machine's CUDA) and is compared with the build machine's.
#   bash bench/gpu/run_jit.sh CARRY_DIR OUT_DIR [BIN_DIR]   (default build-static-bin)
set -uo pipefail
carry=$1
out=$2
bin=${3:-build-static-bin}
mkdir -p "$out" "$bin"
log=$out/jit.log
: > "$log"
failures=0
fail() { echo "FAILED: $*" | tee -a "$log"; failures=$((failures + 1)); }

if command -v xz > /dev/null; then
  xz -dc "$carry/bin/fuser-tools.xz" > "$bin/fuser-tools"
else
  python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
    "$carry/bin/fuser-tools.xz" "$bin/fuser-tools"
fi || { fail "cannot unpack $carry/bin/fuser-tools.xz"; exit 1; }
chmod +x "$bin/fuser-tools"
for t in fuser-run fuser-translate fuser-opt; do ln -sfn fuser-tools "$bin/$t"; done

ldd "$bin/fuser-tools" >> "$log" 2>&1
ldd "$bin/fuser-tools" | grep -q "not found" && fail "ldd: a library is missing"
for f in "$carry"/bin/expected/*.cpu.txt; do
  name=$(basename "$f" .cpu.txt)
  start=$(date +%s%N)
  timeout 120 "$bin/fuser-run" --cpu "$carry/corpus/$name.py" > "$out/$name.cpu.txt" 2>> "$log" || fail "fuser-run --cpu $name"
  ms=$((($(date +%s%N) - start) / 1000000))
  cmp -s "$f" "$out/$name.cpu.txt" && echo "ok: fuser-run --cpu $name: same output as the build machine (${ms} ms)" | tee -a "$log" ||
    fail "fuser-run --cpu $name: output differs from the build machine's"
done
for f in "$carry"/bin/expected/*.cpu.txt; do
  # --emit-ptx -o NAME.ptx writes NAME.ptx, or NAME.<binary>.ptx per index width
  name=$(basename "$f" .cpu.txt)
  start=$(date +%s%N)
  timeout 120 "$bin/fuser-translate" --emit-ptx "$carry/corpus/$name.py" -o "$out/$name.ptx" 2>> "$log" ||
    fail "fuser-translate --emit-ptx $name"
  ms=$((($(date +%s%N) - start) / 1000000))
  same="same PTX as the build machine"
  for e in "$carry/bin/expected/$name".*ptx; do
    cmp -s "$e" "$out/$(basename "$e")" || same="PTX differs from the build machine's (another libdevice?)"
  done
  echo "ok: fuser-translate --emit-ptx $name (${ms} ms): $same" | tee -a "$log"
  if command -v ptxas > /dev/null; then
    for p in "$out/$name".*ptx; do
      ptxas --gpu-name sm_90 "$p" -o "$p.cubin" >> "$log" 2>&1 && echo "ok: ptxas $(basename "$p")" | tee -a "$log" ||
        fail "ptxas $(basename "$p")"
    done
  fi
done
# issue 8: `fuser-run script.py` compiles in-process (libfuser: compile on
# first use, cache by input signature) and runs on this GPU; --check
# compares with the CPU reference evaluator in the same process.
for name in seed_fusion_id0 seed_fusion_id1 gelu_tanh_small softmax_small; do
  echo "== fuser-run --check --bench 30 $name.py (in-process compile + GPU)" >> "$log"
  ulp=""; case $name in softmax*) ulp="--check-ulp 1";; esac  # a reduction: sum order
  timeout 180 "$bin/fuser-run" --check $ulp --bench 30 "$carry/corpus/$name.py" > "$out/$name.gpu.txt" 2>&1 ||
    fail "fuser-run --check $name (GPU)"
  grep -E "variants|check|libfuser|compile|^\{" "$out/$name.gpu.txt" | tee -a "$log"
done
[ "$failures" -eq 0 ] && echo "run_jit.sh: all smoke tests passed" || echo "run_jit.sh: $failures failed"
exit $((failures > 0))
