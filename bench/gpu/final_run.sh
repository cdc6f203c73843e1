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
for art in "$carry"/arts/*.fart; do
  name=$(basename "$art" .fart)
  check=--check
  # rmsnorm/softmax: sums in another order (1 ulp); math_ops: libdevice's documented
  # f32 errors (up to 4 ulp, docs/frontend.md); random_*: normal values through
  # libdevice's logf/sinf/cosf (bench/gpu/rng.sh)
  case $name in
  *large*) check="";;
  rmsnorm*|softmax*) check="--check --check-ulp 1";;
  math_ops) check="--check --check-ulp 4";;
  # erfinv/erfcinv/lgamma: libdevice's documented errors (lgammaf 6 ulp, f64 erfcinv 6)
  # plus glibc's lgammaf in the reference (docs/frontend.md)
  special_math) check="--check --check-ulp 8";;
  random_*) check="--check --check-ulp 5";; # libdevice logf/sinf/cosf through Box-Muller (bench/gpu/rng.sh)
  # var/welford: a reduction's sums in another order (issue 13's 2 ulp); index_ops: an exp
  # before the gather (CUDA's expf: 2 ulp, the CUDA C Programming Guide's table)
  var|welford|index_ops) check="--check --check-ulp 2";;
  # cuBLASLt sums K in its own order (docs/runtime.md, "Matmul segments"): bf16/f16
  # results were bit-identical on the H200, f32 ones up to 44 ulp off where sums cancel
  matmul_*|linear_*) check="--check --check-ulp 64";;
  # host_scalars: its per-point kernel sums rows in sequence in f32, the reference in double;
  # x - mean cancels the mean's 1 ulp up to 72 ulp (H200, session 4; test/frontend/scripts.test)
  host_scalars) check="--check --check-ulp 128";;
  esac
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
