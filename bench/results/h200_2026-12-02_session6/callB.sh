#!/usr/bin/env bash
# Session 6 final call B (device command: bash .carry/final/src/bench/results/h200_2026-12-02_session6/callB.sh $OUT):
# the 13 reductions (corpus rmsnorm/softmax/bias_grad + bench/reductions/large):
# each checked (small ones against the CPU reference within 2 bf16 ulp),
# called twice with the outputs compared byte for byte (--repeat), saved
# and checked against PyTorch in float64 (one check_torch.py --batch
# process), timed; torch.compile on all 13 (sweep_peers.py: compiles in
# parallel, graph time under the GPU lock) in the same command; no sweep.
# Then the host-time A/B of f1c0792 against the merged tree (host_ab.sh).
out=$1
start=$(date +%s)
cd .carry/final/src || exit 1
SWEEP=0 CORPUS_PEERS=0 SWEEP_PEER_EXTRA='corpus/*.py' SWEEP_PEERS_TIMEOUT=300 timeout 380 bash bench/gpu/reductions.sh ../red "$out/red" > "$out/red.txt" 2>&1
echo "reductions exit $? at $(( $(date +%s) - start )) s"; cut -c1-300 "$out/red.txt" | tail -60
timeout 130 bash bench/gpu/host_ab.sh ../base/src . ../host 20 200 100 > "$out/host_ab.txt" 2>&1
echo "host_ab exit $? at $(( $(date +%s) - start )) s"; tail -45 "$out/host_ab.txt"
cp -r /tmp/host-ab/samples "$out/host_ab_samples" 2> /dev/null
