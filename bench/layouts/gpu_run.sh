#!/usr/bin/env bash
# One GPU command for issue 15 (layouts), made to fit a short device lease:
# our kernels (arts/: this build; base/: the base build's, for before and
# after in one run), then sweep/ (the transpose sizes with the
# tile variant forced on and off), then, when the carry has old/ (an old
# commit's artifacts and runtime sources), REPEAT rounds (default 5) of each
# old artifact on the old runtime and the same-named arts/ one on this
# runtime in turns (tags old<round>, new<round>: a before/after in one
# machine state), then the peers of the scripts in corpus/ (PEERS narrows them, e.g.
# "two_inputs_large slice1_large"), then compute-sanitizer memcheck of every
# small pattern and shifted-load and -store test, aligned and misaligned by
# one element (in parallel), then, when ncu runs, one profile of
# each artifact named in NCU (the kernel's speed of light and launch
# statistics, ncu_<name>.txt), and the SASS of the PTX in ptx/ (sass_<name>.txt).
# Prepared by bench/layouts/prepare.sh;
# run from the checkout's root as `bash CARRY/run.sh` (CARRY: the carried
# folder, default .carry/layouts2). Prints the log and the JSON lines; the
# device tool brings back few files, so everything is also in
# $OUT/results.tgz, remade after every step (a call cut short keeps what ran).
set -uo pipefail
c=${CARRY:-.carry/layouts2}
dest=${OUT:-/tmp/out}
out=/tmp/layouts-results
rm -rf "$out" && mkdir -p "$out" "$dest"
log=$out/log.txt
save() { tar czf "$dest/results.tgz" -C "$out" . 2> /dev/null; }
run=/tmp/fuser-run-carried # the carried runtime tool (its mode bits may not travel)
cp "$c/bin/fuser-run" "$run" 2> /dev/null && chmod +x "$run"
help=$("$run" --help 2>&1) # (not piped into grep: under pipefail its exit status would count)
if ! grep -q -- --artifact <<< "$help"; then # it does not run here: build the runtime
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
for art in $c/arts/*.fart; do
  case $(basename "$art") in shift_*|store_shift_*|layouts_rows_*) continue;; esac # tests: checked by memcheck below
  bench "$art" new
done
save
for art in $c/base/*.fart; do bench "$art" base; done
for art in $c/sweep/*.fart; do [ -f "$art" ] && bench "$art" sweep; done
save
if [ -d "$c/old/src" ]; then
  (cd "$c/old/src" && FUSER_DLPACK_INCLUDE=$OLDPWD/$c/include bash scripts/build-runtime.sh /tmp/build-runtime-old > /dev/null 2>&1) ||
    echo "old runtime: build failed" >> "$log"
  for r in $(seq 1 "${REPEAT:-5}"); do
    for art in $c/old/arts/*.fart; do
      n=$(basename "$art" .fart)
      run_new=$run
      run=/tmp/build-runtime-old/fuser-run; bench "$art" "old$r"; run=$run_new
      bench "$c/arts/$n.fart" "new$r"
    done
  done
  save
fi
peers=""
for p in ${PEERS:-$(cd $c/corpus && ls *.py | sed 's/\.py$//')}; do peers="$peers corpus/$p.py"; done
(cd $c && timeout ${PEERS_TIMEOUT:-120} python3 peers.py $peers) > "$out/peers.jsonl" 2>> "$log"
save
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$cs" ]; then
  for art in $c/arts/*_small.fart $c/arts/shift_*.fart $c/arts/layouts_rows_*.fart $c/arts/store_shift_*.fart; do
    [ -f "$art" ] || continue
    n=$(basename "$art" .fart)
    for m in 0 1; do
      (timeout ${MEMCHECK_TIMEOUT:-60} "$cs" --tool memcheck "$run" --artifact "$art" --check --misalign $m > "$out/mc_${n}_$m.txt" 2>&1
       echo "memcheck $n misalign $m rc $?: $(grep -E 'ERROR SUMMARY|variant|check:' "$out/mc_${n}_$m.txt" | tr '\n' ' ')" >> "$out/mc.txt") &
    done
  done
  wait
  sort "$out/mc.txt" >> "$log"
else
  echo "compute-sanitizer not found" >> "$log"
fi
save
for p in $c/ptx/*.ptx; do # SASS of the carried PTX (cuobjdump is on the GPU machine only)
  [ -f "$p" ] || continue
  n=$(basename "$p" .ptx)
  ptxas -arch=sm_90 -O3 -v "$p" -o "/tmp/$n.cubin" > "$out/sass_$n.txt" 2>&1 && cuobjdump -sass "/tmp/$n.cubin" >> "$out/sass_$n.txt" 2>&1
done
if command -v ncu > /dev/null; then
  for n in ${NCU:-}; do
    timeout 60 ncu --section SpeedOfLight --section LaunchStats --section Occupancy -c 1 "$run" --artifact "$c/arts/$n.fart" \
      > "$out/ncu_$n.txt" 2>&1 || echo "ncu $n: failed or cut" >> "$log"
  done
fi
save
cat "$log"; cat "$out/ours.jsonl" "$out/peers.jsonl"
