#!/usr/bin/env bash
# run.sh SEED N [OUTDIR] [JOBS]: the random layout differential fuzzer.
# Generates N cases (gen_random.py, seeds SEED..SEED+N-1) into OUTDIR
# (default /tmp/layout-fuzz-SEED), checks each with check_one.sh on JOBS
# processes (default 2), prints one line per case and a summary: failures
# by stage, the variants run aligned / misaligned, the variants present in
# the PTX, and the case kinds. Run from anywhere; binaries from build/bin
# of this checkout (FUSER_BIN overrides). FUZZ_TORCH=1 also compares the
# CPU JIT against PyTorch eager (needs /usr/bin/python3 with torch).
# Exit status 1 when any case failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
seed=$1 n=$2 out=${3:-/tmp/layout-fuzz-$1} jobs=${4:-2}
mkdir -p "$out"
python3 "$here/gen_random.py" "$seed" "$n" "$out" ${FUZZ_GEN_ARGS:-} || exit 2
results=$out/results.txt
for i in $(seq "$seed" $((seed + n - 1))); do echo "$out/c$i.py"; done |
  xargs -P "$jobs" -n 1 bash "$here/check_one.sh" | tee "$results"
echo "== summary of $(wc -l < "$results") cases in $out"
echo "ok $(grep -c ' OK ' "$results")  failed $(grep -c ' FAIL:' "$results")"
grep -o 'FAIL:[^ ]*' "$results" | sed 's/FAIL://' | tr ',' '\n' | sort | uniq -c | sed 's/^/  failure /'
echo "variants run (aligned/misaligned):"
sed -n 's/.* ran=\([^ ]*\) .*/\1/p' "$results" | sort | uniq -c | sort -rn | sed 's/^/  /'
echo "cases whose PTX has the variant:"
sed -n 's/.* has=\([^ ]*\) .*/\1/p' "$results" | tr ',' '\n' | sort | uniq -c | sort -rn | sed 's/^/  /'
echo "runs per variant (aligned + misaligned, per kernel):"
sed -n 's/.* ran=\([^ ]*\) .*/\1/p' "$results" | tr '/+' '\n\n' | grep -v '^-$' | sort | uniq -c | sort -rn | sed 's/^/  /'
echo "kinds:"
sed -n 's/.*| //p' "$results" | tr ' ' '\n' | sort | uniq -c | sort -rn | tr '\n' ' ' | fold -w 120 -s | sed 's/^/  /'
echo
! grep -q ' FAIL:' "$results"
