#!/usr/bin/env bash
# run_ours.sh: fuser alone on the GPU machine (no peers): every artifact
# checked (CPU reference results, PyTorch float64 on the small sizes) and
# timed, and compute-sanitizer on the seeds, aligned and misaligned.
#   bash bench/gpu/run_ours.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$1
out=$2
mkdir -p "$out"
log=$out/log.txt
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime >> "$log" 2>&1 || { tail "$log"; exit 1; }
run=build-runtime/fuser-run
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  check=--check save=""
  case $name in *large*) check="";; *) save="--save /tmp/fuser-out/$name"; mkdir -p /tmp/fuser-out/$name;; esac
  # reductions sum in another order than the CPU reference: 1 bf16 ulp apart passes
  case $name in rmsnorm_small|softmax_small) check="$check --check-ulp 1";; esac
  echo "== $name" >> "$log"
  timeout 120 "$run" --artifact "$art" $check $save --bench 30 --name "$name" > /tmp/run.log 2>&1 || echo "FAILED $name rc=$?" >> "$log"
  grep -v '^{' /tmp/run.log | grep -v "^  first" >> "$log"
  grep '^{' /tmp/run.log >> "$out/ours.jsonl"
  [ -n "$save" ] && timeout 60 python3 bench/check_torch.py "$carry/corpus/$name.py" /tmp/fuser-out/$name \
    --nvfuser-torch "$carry/nvfuser_torch.py" >> "$out/torch.jsonl" 2>> "$log"
done
for name in seed_fusion_id0 seed_fusion_id1; do
  for mis in 0 1; do
    echo "== memcheck $name misalign $mis" >> "$log"
    timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 "$run" --artifact "$carry/arts/$name.fart" --check \
      --misalign $mis 2>&1 | grep -E "variants|check:|ERROR SUMMARY" >> "$log"
  done
done
grep -E "FAILED|DIFFERS|differ|ERROR SUMMARY" "$log"
