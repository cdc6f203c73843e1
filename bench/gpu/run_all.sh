#!/usr/bin/env bash
# run_all.sh: one GPU-machine command for docs/PERFORMANCE.md: fuser on
# every artifact (bench/gpu/run_ours.sh: checks, timing, memcheck), then
# the peers (PyTorch eager and torch.compile, ../shared/bench/peers.py) on
# the same scripts, in the same run. Results go to OUT_DIR (ours.jsonl,
# torch.jsonl, peers.jsonl, log.txt).
#   bash bench/gpu/run_all.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$1
out=$2
bash "$(dirname "$0")/run_ours.sh" "$carry" "$out"
echo "== peers" >> "$out/log.txt"
(cd "$carry" && timeout 330 python3 peers.py corpus/seed_fusion_id0.py corpus/seed_fusion_id1.py corpus/*_large.py corpus/*_small.py) \
  > "$out/peers.jsonl" 2>> "$out/log.txt"
tail -3 "$out/peers.jsonl"
