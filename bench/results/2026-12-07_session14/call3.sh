#!/usr/bin/env bash
# Session 14's device call, all in one (starts were scarce): call2.sh (the tile twins' A/B,
# vs_compile, memcheck), then call1.sh's diagnostics (ncu of torch.compile's kernels and
# ours, Triton's source and PTX, unroll 2 / 4 and 256-thread blocks on two_inputs_large), then
# peers.py (eager and torch.compile) on the table patterns.
#   bash bench/results/2026-12-07_session14/call3.sh .carry/f14 .carry/a14 .carry/py14b .carry/u14 .carry/n14
set -uo pipefail
here=$(dirname "$0")
SKIP_PEERS=1 bash "$here/call2.sh" "$1" "$2" "$3"
SKIP_VS_COMPILE=1 bash "$here/call1.sh" "$1" "$4" "$5" "$3"
# PyTorch eager beside torch.compile on the table patterns, last (the rest matters more)
S=$1/scripts
(TORCHINDUCTOR_CACHE_DIR=/tmp/ind2 timeout 100 python3 "$1/peers.py" $S/transpose_large.py $S/permute_large.py \
  $S/two_inputs_large.py $S/slice1_large.py > "$OUT/peers.jsonl" 2> /tmp/peers.err)
echo "peers exit $?"; cut -c1-300 "$OUT/peers.jsonl"
