#!/usr/bin/env bash
# middle's one GPU call: the runtime, fuser after (art) and before (base,
# main's compiler) on the middle-dim softmax and batch-norm statistics, then
# PyTorch eager and torch.compile (peers.py) on the same scripts. OUT=$1.
# Every step writes under $OUT at once: a call cut short keeps what ran.
set -u
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/src" || exit 1
start=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - start )) s" >> "$out/steps.txt"; }
FUSER_DLPACK_INCLUDE=../art/include bash scripts/build-runtime.sh build-runtime > "$out/build.log" 2>&1 || { tail "$out/build.log"; exit 1; }
t built
R=build-runtime/fuser-run
run() { timeout "$1" $R --artifact "$2" "${@:4}" --name "$3" >> "$out/ours.txt" 2>&1; t "$3"; }
peer() { (cd ../art && timeout 40 python3 peers.py "corpus/$1.py" >> "$out/peers.jsonl" 2>> "$out/peers.log"); t "peers $1"; }
run 40 ../art/arts/softmax_middle_large.fart softmax_middle_large --bench 20
peer softmax_middle_large
run 40 ../base/arts/softmax_middle_large.fart base_softmax_middle_large --bench 20
run 30 ../art/arts/batchnorm_stats_large.fart batchnorm_stats_large --bench 20
run 30 ../base/arts/batchnorm_stats_large.fart base_batchnorm_stats_large --bench 20
for a in softmax_middle softmax_channels; do
  run 20 ../art/arts/$a.fart "$a" --check --check-ulp 2 --bench 30
  run 20 ../base/arts/$a.fart "base_$a" --bench 30
done
peer softmax_middle
peer batchnorm_stats_large
grep -hE '^\{|MATCH|MISMATCH|error' "$out/ours.txt"
cat "$out/peers.jsonl" "$out/steps.txt"
