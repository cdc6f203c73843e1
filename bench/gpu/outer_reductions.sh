#!/usr/bin/env bash
# outer_reductions.sh: bias_grad (split over the batch) and batch-norm
# statistics on the GPU machine, fuser and the peers in one command, in the
# steps of reductions.sh. CARRY_DIR holds arts/<name>.fart (fuser-translate
# --emit-artifact, --expected for the small ones), corpus/<name>.py,
# include/dlpack/dlpack.h, check_torch.py, nvfuser_torch.py and peers.py.
# Run from the repo root:
#   bash bench/gpu/outer_reductions.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$1; out=$2; mkdir -p "$out"; log=$out/log.txt
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime > "$log" 2>&1 || { tail "$log"; exit 1; }
run=build-runtime/fuser-run
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  check="--check --check-ulp 2"; case $name in *large*) check="";; esac
  echo "== $name" >> "$log"
  mkdir -p "/tmp/o/$name.1" "/tmp/o/$name.2"
  timeout 60 $run --artifact "$art" $check --save "/tmp/o/$name.1" --bench 30 --name "$name" > /tmp/o/one.txt 2>&1 || echo "FAILED $name" >> "$log"
  grep -v '^{' /tmp/o/one.txt | grep -v "^  first" >> "$log"; grep '^{' /tmp/o/one.txt >> "$out/ours.jsonl"
  timeout 30 $run --artifact "$art" --save "/tmp/o/$name.2" > /dev/null 2>&1
  for o in /tmp/o/$name.1/output_*.npy; do
    cmp -s "$o" "/tmp/o/$name.2/$(basename "$o")" && echo "deterministic $name $(basename "$o")" >> "$log" || echo "DIFFERS $name $(basename "$o")" >> "$log"
  done
  timeout 60 python3 "$carry/check_torch.py" "$carry/corpus/$name.py" "/tmp/o/$name.1" --nvfuser-torch "$carry/nvfuser_torch.py" >> "$out/torch.jsonl" 2>> "$log"
  rm -rf "/tmp/o/$name.1" "/tmp/o/$name.2"
done
(cd "$carry" && timeout 100 python3 peers.py corpus/bias_grad_large.py corpus/bias_grad_small.py corpus/batchnorm_stats_large.py) > "$out/peers.jsonl" 2>> "$log"
cat "$log" | grep -v "^\[" | tail -60; cat "$out/ours.jsonl" "$out/torch.jsonl" "$out/peers.jsonl"
