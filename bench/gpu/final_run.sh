#!/usr/bin/env bash
# final_run.sh: one short GPU-machine command for docs/PERFORMANCE.md when
# device time is scarce: every artifact checked (small ones, against the CPU
# reference recorded at compile time; reductions within 1 ulp) and timed,
# host time also with a caching allocator (a framework's setting), the
# #2613 pair on the same data (seed_pair), then the peers (peers.py) in the
# same command (PEERS=0 skips them: a second set of artifacts timed in the
# same command, e.g. a baseline, needs no second peer run). (run_all.sh adds
# the PyTorch float64 check and memcheck.)
#   [PEERS=0] bash bench/gpu/final_run.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$1
out=$2
mkdir -p "$out"
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime > "$out/log.txt" 2>&1 || exit 1
run=build-runtime/fuser-run
# shellcheck source=bench/gpu/check_bounds.sh
. "$(dirname "$0")/check_bounds.sh"
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  check=$(check_args "$name")
  # index_oob*: every run must fail with the kernel's index error (FUSER_ERR_INDEX, the op's line)
  case $name in index_oob*)
    if timeout 60 $run --artifact "$art" > /tmp/one.txt 2>&1; then echo "FAILED $name (ran; expected the index error)" >> "$out/log.txt"
    elif grep -q "index out of range" /tmp/one.txt; then echo "index error as expected: $name: $(grep -m1 'index out of range' /tmp/one.txt)" >> "$out/log.txt"
    else echo "FAILED $name (not the index error)" >> "$out/log.txt"; cat /tmp/one.txt >> "$out/log.txt"; fi
    continue;;
  esac
  # shellcheck disable=SC2086
  timeout 60 $run --artifact "$art" $check --bench 30 --name "$name" > /tmp/one.txt 2>&1 || echo "FAILED $name" >> "$out/log.txt"
  grep -v '^{' /tmp/one.txt | grep -E "variants|check" >> "$out/log.txt"
  grep '^{' /tmp/one.txt >> "$out/ours.jsonl"
  case $name in *small*|seed*)
    timeout 60 $run --artifact "$art" --bench 30 --caching-allocator --name "$name" | grep '^{' >> "$out/ours_caching.jsonl";;
  esac
done
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I. -isystem "$carry/include" bench/gpu/seed_pair.c \
  build-runtime/libfuser_runtime.a -ldl -lpthread -lm -o build-runtime/seed_pair &&
  build-runtime/seed_pair "$carry/arts/seed_fusion_id0.fart" "$carry/arts/seed_fusion_id1.fart" 100 > "$out/seed_pair.txt"
[ "${PEERS:-1}" = 0 ] || (cd "$carry" && timeout 300 python3 peers.py corpus/seed_fusion_id0.py corpus/seed_fusion_id1.py corpus/*_large.py corpus/*_small.py) \
  > "$out/peers.jsonl" 2>> "$out/log.txt"
cat "$out/seed_pair.txt"; grep -E "FAILED|DIFFERS" "$out/log.txt"
