#!/usr/bin/env bash
# Session 9's short device call (~220 s), for when too little device time is left for call.sh:
# vs_compile.py on the four table patterns (large and small: fuser against torch.compile, one
# process, alternating), then memcheck of the small layouts aligned and misaligned by one
# element on this tree's runtime (MIN: session 8's min carry, its new/ artifacts).
#   bash bench/results/h200_2026-12-07_session9/min.sh .carry/min8 .carry/py9   (results in $OUT)
set -uo pipefail
min=${1:?MIN carry} py=${2:?PY carry}
start=$(date +%s); log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$log"
for z in "$py"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
scripts=""; for n in transpose permute two_inputs slice1; do scripts="$scripts bench/layouts/${n}_large.py bench/layouts/${n}_small.py"; done
FUSER_DLPACK_INCLUDE=$min/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 & rb=$!
# shellcheck disable=SC2086
PYTHONPATH=$py/python timeout "${VS_TIMEOUT:-130}" python3 bench/gpu/vs_compile.py --peers-dir "$py" $scripts \
  > "$OUT/vs_compile.jsonl" 2> "$OUT/vs_compile.err"
echo "vs_compile exit $? at $(( $(date +%s) - start )) s" | tee -a "$log"
cut -c1-400 "$OUT/vs_compile.jsonl"; tail -3 "$OUT/vs_compile.err" | cut -c1-300
wait $rb || { tail /tmp/rt.log; exit 1; }
run=/tmp/rt/fuser-run
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in "$min"/new/*_small.fart "$min"/new/layouts_*.fart; do
  n=$(basename "$f" .fart)
  for m in 0 1; do
    (timeout 50 "$cs" --tool memcheck $run --artifact "$f" --check --check-ulp 1 --misalign $m > /tmp/mc.$n.$m 2>&1
     echo "memcheck $n misalign $m rc $? $(grep -E 'ERROR SUMMARY|FAILED|DIFFERS' /tmp/mc.$n.$m | head -2 | tr '\n' ' ')") >> /tmp/mc.lines &
  done
done
wait
sort /tmp/mc.lines | tee -a "$log"
echo "all done at $(( $(date +%s) - start )) s" | tee -a "$log"
