#!/usr/bin/env bash
# host_overhead.sh: the host µs per fuser_execute call on the GPU machine
# (`fuser-run --artifact F --bench 30`'s host_us), for every artifact in
# CARRY_DIR/arts (bench/gpu/prepare.sh), REPEAT times each, with the
# call-plan memo as by default (on) and off (FUSER_EXECUTE_MEMO=0), so both sides
# of the comparison come from the same machine and run.
#   bash bench/gpu/host_overhead.sh CARRY_DIR [REPEAT]
set -uo pipefail
carry=$1
repeat=${2:-3}
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime > /tmp/build-runtime.log 2>&1 ||
  { tail /tmp/build-runtime.log; exit 1; }
printf '%-18s %-6s %s\n' fusion memo "host_us (each run)"
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  for memo in on 0; do
    line=""
    for r in $(seq "$repeat"); do
      [ "$memo" = on ] && unset FUSER_EXECUTE_MEMO || export FUSER_EXECUTE_MEMO=0
      us=$(timeout 60 build-runtime/fuser-run --artifact "$art" --bench 30 --name "$name" 2>&1 |
        grep -o '"host_us": [0-9.]*' | grep -o '[0-9.]*$')
      line="$line ${us:-FAILED}"
    done
    printf '%-18s %-6s %s\n' "$name" "$memo" "$line"
  done
done
