#!/usr/bin/env bash
# session 5 final call B: the reductions (large + corpus) checked against
# PyTorch in f64 and run twice, timed, torch.compile on the large ones;
# then the host plan's host-time A/B (old f1c0792 vs hostplan)
out=$1
start=$(date +%s)
( cd .carry/final/src && PEER_CASES='*_large' timeout 290 bash bench/gpu/reductions.sh ../red "$out/red" > "$out/red.txt" 2>&1; echo "red exit $?" >> "$out/red.txt" )
echo "red done at $(( $(date +%s) - start )) s"; tail -40 "$out/red.txt" | cut -c1-300
( cd .carry/hostplan/new/src && timeout 120 bash bench/gpu/host_ab.sh ../../old/src . ../.. 2 50 105 > "$out/host_ab.txt" 2>&1; echo "host_ab exit $?" >> "$out/host_ab.txt" )
echo "host_ab done at $(( $(date +%s) - start )) s"; tail -45 "$out/host_ab.txt"
