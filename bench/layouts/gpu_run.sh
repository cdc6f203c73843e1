#!/usr/bin/env bash
# One GPU command for issue 15 (layouts): runtime build, our kernels (this
# branch's artifacts and main's for before/after), memcheck aligned and
# misaligned by one element on the small twins, then the peers.
# Prepared by bench/layouts/prepare.sh; MEMCHECK and PEERS (patterns, e.g.
# "transpose") narrow the memcheck runs and the peers' scripts.
set -uo pipefail
c=.carry/layouts
out=${OUT:-/tmp/out}
mkdir -p "$out"
FUSER_DLPACK_INCLUDE=$c/include bash scripts/build-runtime.sh build-runtime > "$out/log.txt" 2>&1 || { tail -20 "$out/log.txt"; exit 1; }
run=build-runtime/fuser-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/log.txt"
for art in $c/arts/*.fart $c/base/*.fart; do
  n=$(basename $art .fart); tag=new; case $art in */base/*) tag=base;; esac
  check=--check; case $n in *large*) check="";; esac
  timeout 60 $run --artifact $art $check --bench 30 --name "$tag:$n" > /tmp/one.txt 2>&1 || echo "FAILED $tag $n" >> "$out/log.txt"
  grep -v '^{' /tmp/one.txt | grep -E "variant|check|DIFF|MATCH" | sed "s/^/$tag $n: /" >> "$out/log.txt"
  grep '^{' /tmp/one.txt >> "$out/ours.jsonl"
done
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for art in $c/arts/${MEMCHECK:-*}_small.fart; do
  n=$(basename $art .fart)
  for m in 0 1; do
    timeout 40 $cs --tool memcheck $run --artifact $art --check --misalign $m > /tmp/mc.txt 2>&1
    echo "memcheck $n misalign $m rc $?: $(grep -E 'ERROR SUMMARY|variant' /tmp/mc.txt | tr '\n' ' ')" >> "$out/log.txt"
  done
done
(cd $c && timeout 170 python3 peers.py $(ls corpus/${PEERS:-*}_large.py)) > "$out/peers.jsonl" 2>> "$out/log.txt"
cat "$out/log.txt" | tail -60; cat "$out/ours.jsonl" "$out/peers.jsonl"
