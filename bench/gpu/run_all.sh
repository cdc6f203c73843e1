#!/usr/bin/env bash
# run_all.sh: one GPU-machine command for docs/PERFORMANCE.md: the peers
# (PyTorch eager and torch.compile, ../shared/bench/peers.py) and fuser on
# the same scripts in the same run, the PyTorch float64 check of the seed
# and small fusions, and compute-sanitizer on seed id1. Results go to
# OUT_DIR as a few files (peers.jsonl, ours.jsonl, torch.jsonl, log.txt).
#   bash bench/gpu/run_all.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$1
out=$2
mkdir -p "$out"
log=$out/log.txt
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime >> "$log" 2>&1 || { tail "$log"; exit 1; }
run=build-runtime/fuser-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$log"
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  check=--check save=""
  case $name in *large*) check="";; *) save="--save /tmp/fuser-out/$name"; mkdir -p /tmp/fuser-out/$name;; esac
  echo "== $name" >> "$log"
  timeout 120 "$run" --artifact "$art" $check $save --bench 30 --name "$name" > /tmp/run.log 2>&1 || echo "FAILED $name rc=$?" >> "$log"
  grep -v '^{' /tmp/run.log | grep -v "^  first" >> "$log"
  grep '^{' /tmp/run.log >> "$out/ours.jsonl"
  if [ -n "$save" ]; then
    timeout 60 python3 bench/check_torch.py "$carry/corpus/$name.py" /tmp/fuser-out/$name \
      --nvfuser-torch "$carry/nvfuser_torch.py" >> "$out/torch.jsonl" 2>> "$log"
  fi
done
echo "== peers" >> "$log"
(cd "$carry" && timeout 330 python3 peers.py corpus/seed_fusion_id0.py corpus/seed_fusion_id1.py corpus/*_large.py corpus/*_small.py) \
  > "$out/peers.jsonl" 2>> "$log"
echo "== memcheck seed_fusion_id1" >> "$log"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 "$run" --artifact "$carry/arts/seed_fusion_id1.fart" --check \
  >> "$log" 2>&1 || echo "memcheck rc=$?" >> "$log"
tail -5 "$log"
