#!/usr/bin/env bash
# Session 12's first device call: session 11's final.sh (the funnel shift's A/B, the
# small twins through the binding with small-call specialization, the ragged tile,
# memcheck), then PyTorch eager and torch.compile (peers.py) on the table's four
# patterns and the ragged tile. Carries from session 11's final_prep.sh (+ peers.py).
#   bash bench/results/h200_2026-12-07_session12/call1.sh .carry/f11 .carry/py11
c=${1:?F11 carry} py=${2:?PY carry}
bash bench/results/h200_2026-12-07_session11/final.sh "$c" "$py"
S=$c/scripts
timeout 100 python3 "$c/peers.py" $S/slice1_large.py $S/two_inputs_large.py $S/permute_large.py $S/transpose_large.py \
  $S/tadd_ragged_bf16_large.py > "$OUT/peers.jsonl" 2> "$OUT/peers.err"
echo "peers exit $?"; cut -c1-300 "$OUT/peers.jsonl"; tail -3 "$OUT/peers.err"
# the tiles at any size (tile0_prep.sh's carry, $3) against tiles from 2^18 points, on /tmp/rt
t0=${3:-}
if [ -n "$t0" ]; then
  rm -rf /tmp/t0 && mkdir /tmp/t0 && xz -dc "$t0/ab.tar.xz" | tar xf - -C /tmp/t0
  for side in base new; do sed "s| BASE/| /tmp/t0/ab/base/|; s| NEW/| /tmp/t0/ab/new/|" "/tmp/t0/ab/$side.manifest" > /tmp/t0/$side.manifest; done
  timeout 80 python3 bench/gpu/ab_bench.py --side "base=/tmp/rt/fuser-run:/tmp/t0/base.manifest" \
    --side "new=/tmp/rt/fuser-run:/tmp/t0/new.manifest" --mode bench --calls 30 --rounds 10 --deadline 50 --out "$OUT/tile0" \
    > "$OUT/tile0.txt" 2>&1
  echo "tile0 exit $?"
  python3 bench/gpu/compare_base.py "$OUT/tile0/base.jsonl" "$OUT/tile0/new.jsonl" > "$OUT/tile0_table.md" 2>&1; cut -c1-160 "$OUT/tile0_table.md"
  grep -h "check:" "$OUT"/tile0/*.log | sed "s/(fnv1a.*//" | sort | uniq -c | sort -rn | head -5; rm -f "$OUT"/tile0/*.log
fi
# the ragged tile's SASS, and ncu's per-instruction source view of one launch of it
if [ -n "$t0" ] && [ -f "$t0/ragged.ptx" ]; then
  ptxas -arch=sm_90 "$t0/ragged.ptx" -o /tmp/ragged.cubin && cuobjdump -sass -fun fusion_tadd_ragged_bf16_k0__tile /tmp/ragged.cubin > "$OUT/ragged_tile.sass" 2>&1
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2> /dev/null)
  [ -n "$ncu" ] && timeout 60 "$ncu" --cache-control none --section SourceCounters --section WarpStateStats -k regex:tile -s 2 -c 1 \
    --page source --print-source sass --csv /tmp/rt/fuser-run --artifact /tmp/ab/new/tadd_ragged_bf16_large.fart --bench 3 > "$OUT/ragged_source.csv" 2>&1
  echo "ncu source exit $?"; wc -l "$OUT/ragged_tile.sass" "$OUT/ragged_source.csv"
fi
