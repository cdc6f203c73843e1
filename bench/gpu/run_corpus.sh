#!/usr/bin/env bash
# run_corpus.sh: the GPU half of the corpus benchmark, on the GPU machine
# (no MLIR there). Compile here first (bench/gpu/prepare.sh); then, on the
# GPU machine, from the repository root:
#
#   bash bench/gpu/run_corpus.sh CARRY_DIR OUT_DIR
#
# CARRY_DIR holds arts/*.fart (compiled fusions), corpus/*.py (the scripts),
# include/dlpack/dlpack.h and nvfuser_torch.py. For each artifact: run with
# the runtime alone (fuser-run --artifact), check against the CPU reference
# results recorded at compile time (small fusions), compare with PyTorch in
# float64 on the same inputs, and time it (JSON lines in OUT_DIR/ours.jsonl);
# then compute-sanitizer memcheck on the seed fusions, aligned and
# misaligned (the scalar fallback).
set -uo pipefail
carry=$1
out=$2
mkdir -p "$out"
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime > "$out/build.log" 2>&1 || {
  cat "$out/build.log"; exit 1; }
run=build-runtime/fuser-run
status=0
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  dir=/tmp/fuser-out/$name
  rm -rf "$dir"
  echo "== $name"
  check=--check
  case $name in *large*) check="";; esac  # no CPU reference recorded for the large sizes
  if ! "$run" --artifact "$art" $check --save "$dir" --bench 30 --name "$name" > "$out/$name.log" 2>&1; then
    status=1
  fi
  grep -E "kernel|check:|error" "$out/$name.log" | head -8
  grep '^{' "$out/$name.log" >> "$out/ours.jsonl"
  python3 bench/check_torch.py "$carry/corpus/$name.py" "$dir" --nvfuser-torch "$carry/nvfuser_torch.py" \
    >> "$out/torch_check.jsonl" 2>> "$out/torch_check.err" || status=1
  tail -1 "$out/torch_check.jsonl"
  rm -rf "$dir"
done
if command -v compute-sanitizer > /dev/null; then
  for name in seed_fusion_id0 seed_fusion_id1; do
    for mis in 0 1; do
      echo "== memcheck $name misalign $mis"
      compute-sanitizer --tool memcheck --error-exitcode 3 "$run" --artifact "$carry/arts/$name.fart" --check \
        --misalign $mis > "$out/memcheck_${name}_$mis.log" 2>&1 || status=1
      grep -E "variants|check:|ERROR SUMMARY" "$out/memcheck_${name}_$mis.log"
    done
  done
fi
exit $status
