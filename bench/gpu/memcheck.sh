#!/usr/bin/env bash
# memcheck.sh: compute-sanitizer memcheck of the small layout patterns and
# the in-tree layout tests (layouts_*: the tile variant with ragged tiles;
# issue 15: aligned and misaligned by one element) and of the in-tree
# index scripts (issue 16: the index flag, an out-of-range index that must
# fail without an out-of-bounds read), several in parallel. One line per
# run: the artifact, the misalignment, fuser-run's exit status and the
# sanitizer's ERROR SUMMARY, and the check's line when it failed. Outputs
# are checked against the CPU reference with check_bounds.sh's bound for the
# script (session 6: a bit-exact --check made softmax_small misaligned and
# index_ops exit 1 for 1-ulp differences, with 0 memory errors). At most
# MEMCHECK_JOBS (default 12) run at once: 122 at once (session 12) gave
# "ERROR SUMMARY: 1 error" on 36 runs that report 0 errors alone and 12 at
# a time.
#   bash bench/gpu/memcheck.sh CARRY_DIR FUSER_RUN
set -uo pipefail
. "$(dirname "$0")/check_bounds.sh"
carry=$1
run=$2
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$cs" ] || { echo "memcheck: compute-sanitizer not found"; exit 1; }
out=$(mktemp -d)
for art in "$carry"/arts/*_small.fart "$carry"/arts/layouts_*.fart "$carry"/arts/index_*.fart; do
  [ -f "$art" ] || continue
  n=$(basename "$art" .fart)
  check=$(check_args "$n")
  case $n in index_oob*) check="";; esac
  for m in 0 1; do
    while [ "$(jobs -rp | wc -l)" -ge "${MEMCHECK_JOBS:-12}" ]; do wait -n; done
    (timeout 100 "$cs" --tool memcheck "$run" --artifact "$art" $check --misalign $m > "$out/$n.$m.txt" 2>&1
     echo "memcheck $n misalign $m rc $? $(grep -E 'ERROR SUMMARY|index out of range|FAILED' "$out/$n.$m.txt" | head -3 | tr '\n' ' ')" > "$out/$n.$m.line") &
  done
done
wait
cat "$out"/*.line | sort
