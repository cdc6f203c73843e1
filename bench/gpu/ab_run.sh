#!/usr/bin/env bash
# ab_run.sh: a short before/after of the fusions a change touches, in one
# GPU command (device time is scarce; session_run.sh's base + corpus steps
# time the whole corpus twice): each artifact of CARRY/gpu/arts (this
# tree's, bench/gpu/prepare.sh with FUSER_ONLY) right after its namesake of
# CARRY/base/arts (the baseline's, on the baseline's runtime built from
# CARRY/base/src), large ones first; then the peers of the scripts in
# CARRY/gpu/corpus (PEERS narrows them, e.g. "permute_large two_inputs_small");
# then memcheck.sh of CARRY/gpu; then one ncu profile of each `art[:kernel
# regex]` in NCU. Everything goes to OUT_DIR/results.tgz after each step
# (a call cut short keeps what ran), the new / base table
# (bench/gpu/compare_base.py) and the peers to stdout.
#   bash bench/gpu/ab_run.sh CARRY OUT_DIR
set -uo pipefail
carry=$(cd "$1" && pwd)
out=$2
res=/tmp/ab-results
rm -rf "$res" && mkdir -p "$res" "$out"
# shellcheck source=bench/gpu/check_bounds.sh
. "$(dirname "$0")/check_bounds.sh"
save() { tar czf "$out/results.tgz" -C "$res" .; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
(cd "$carry/base/src" && FUSER_DLPACK_INCLUDE=$carry/base/include bash scripts/build-runtime.sh /tmp/ab-rt-base > "$res/build_base.txt" 2>&1) &
FUSER_DLPACK_INCLUDE=$carry/gpu/include bash scripts/build-runtime.sh /tmp/ab-rt-new > "$res/build_new.txt" 2>&1
wait
one() { # runtime artifact tag
  local n check
  n=$(basename "$2" .fart)
  check=$(check_args "$n")
  timeout 60 "$1" --artifact "$2" $check --bench 30 --name "$n" > /tmp/ab-one.txt 2>&1 || echo "FAILED $3 $n" >> "$res/log.txt"
  grep -v '^{' /tmp/ab-one.txt | grep -E "variants|check|error" | sed "s/^/$3 /" >> "$res/log.txt"
  grep '^{' /tmp/ab-one.txt >> "$res/$3.jsonl"
}
for art in $(ls "$carry"/gpu/arts/*_large.fart; ls "$carry"/gpu/arts/*.fart | grep -v _large); do
  n=$(basename "$art")
  [ -f "$carry/base/arts/$n" ] && one /tmp/ab-rt-base/fuser-run "$carry/base/arts/$n" base
  one /tmp/ab-rt-new/fuser-run "$art" new
done
save
peers=""
for p in ${PEERS:-$(cd "$carry/gpu/corpus" && ls *.py | sed 's/\.py$//')}; do peers="$peers corpus/$p.py"; done
(cd "$carry/gpu" && timeout "${PEERS_TIMEOUT:-150}" python3 peers.py $peers) > "$res/peers.jsonl" 2>> "$res/log.txt"
save
timeout "${MEMCHECK_TIMEOUT:-100}" bash bench/gpu/memcheck.sh "$carry/gpu" /tmp/ab-rt-new/fuser-run > "$res/memcheck.txt" 2>&1
save
for n in ${NCU:-}; do
  command -v ncu > /dev/null || { echo "ncu not found" >> "$res/log.txt"; break; }
  timeout 60 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    -k "regex:$(case $n in *:*) echo "${n#*:}";; *) echo .;; esac)" -c 1 \
    /tmp/ab-rt-new/fuser-run --artifact "$carry/gpu/arts/${n%%:*}.fart" > "$res/ncu_${n%%:*}.txt" 2>&1
  echo "ncu $n: exit $?" >> "$res/log.txt"
done
save
python3 bench/gpu/compare_base.py "$res/base.jsonl" "$res/new.jsonl"
cut -c1-400 "$res/peers.jsonl"
cat "$res/log.txt" "$res/memcheck.txt"
