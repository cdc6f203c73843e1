#!/usr/bin/env bash
# One GPU command for issue 15 (layouts), made to fit a short device lease:
# our kernels (arts/: this build; base/: the base build's, for before and
# after in one run), then compute-sanitizer memcheck of every small pattern
# and shifted-load test, aligned and misaligned by one element (in
# parallel, after the timings), then sweep/ (the transpose sizes with the
# tile variant forced on and off), then the peers of the scripts in corpus/ (PEERS narrows them, e.g.
# "two_inputs_large slice1_large"). Prepared by bench/layouts/prepare.sh;
# run from the checkout's root as `bash CARRY/run.sh` (CARRY: the carried
# folder, default .carry/layouts2). Prints the log and the JSON lines.
set -uo pipefail
c=${CARRY:-.carry/layouts2}
out=${OUT:-/tmp/out}
mkdir -p "$out"
log=$out/log.txt
run=/tmp/fuser-run-carried # the carried runtime tool (its mode bits may not travel)
cp "$c/bin/fuser-run" "$run" 2> /dev/null && chmod +x "$run"
if ! "$run" --help 2>&1 | grep -q -- --artifact; then # it does not run here: build the runtime
  FUSER_DLPACK_INCLUDE=$c/include bash scripts/build-runtime.sh build-runtime > "$log" 2>&1 || { tail -20 "$log"; exit 1; }
  run=build-runtime/fuser-run
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$log"
bench() { # artifact tag
  local art=$1 tag=$2 n check=--check
  n=$(basename "$art" .fart)
  case $n in *large*) check="";; esac
  timeout 60 "$run" --artifact "$art" $check --bench 30 --name "$tag:$n" > "$out/one.txt" 2>&1 || echo "FAILED $tag $n" >> "$log"
  grep -v '^{' "$out/one.txt" | grep -E "variant|check|DIFF|MATCH|error" | sed "s/^/$tag $n: /" >> "$log"
  grep '^{' "$out/one.txt" >> "$out/ours.jsonl"
}
for art in $c/arts/*.fart; do bench "$art" new; done
for art in $c/base/*.fart; do bench "$art" base; done
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$cs" ]; then
  for art in $c/arts/*_small.fart $c/arts/shift_*.fart; do
    [ -f "$art" ] || continue
    n=$(basename "$art" .fart)
    for m in 0 1; do
      (timeout 60 "$cs" --tool memcheck "$run" --artifact "$art" --check --misalign $m > "$out/mc_${n}_$m.txt" 2>&1
       echo "memcheck $n misalign $m rc $?: $(grep -E 'ERROR SUMMARY|variant|check:' "$out/mc_${n}_$m.txt" | tr '\n' ' ')" >> "$out/mc.txt") &
    done
  done
  wait
  sort "$out/mc.txt" >> "$log"
else
  echo "compute-sanitizer not found" >> "$log"
fi
for art in $c/sweep/*.fart; do bench "$art" sweep; done
peers=""
for p in ${PEERS:-$(cd $c/corpus && ls *.py | sed 's/\.py$//')}; do peers="$peers corpus/$p.py"; done
(cd $c && timeout ${PEERS_TIMEOUT:-120} python3 peers.py $peers) > "$out/peers.jsonl" 2>> "$log"
cat "$log"; cat "$out/ours.jsonl" "$out/peers.jsonl"
