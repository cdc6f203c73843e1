#!/usr/bin/env bash
# Session 6 final call B: the reductions (each checked, --repeat, PyTorch float64, timed, torch.compile on
# all), then the host-time A/B of f1c0792 against merged main.
out=$1; start=$(date +%s)
cd .carry/final/src || exit 1
SWEEP=0 CORPUS_PEERS=0 SWEEP_PEER_EXTRA='corpus/*.py' SWEEP_PEERS_TIMEOUT=200 timeout 260 bash bench/gpu/reductions.sh ../red "$out/red" > "$out/red.txt" 2>&1
echo "reductions exit $? at $(( $(date +%s) - start )) s"; cut -c1-300 "$out/red.txt" | tail -60
timeout 100 bash bench/gpu/host_ab.sh ../base/src . ../host 20 200 85 > "$out/host_ab.txt" 2>&1
echo "host_ab exit $? at $(( $(date +%s) - start )) s"; tail -45 "$out/host_ab.txt"
cp -r /tmp/host-ab/samples "$out/host_ab_samples" 2> /dev/null
