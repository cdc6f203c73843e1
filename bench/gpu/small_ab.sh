#!/usr/bin/env bash
# small_ab.sh: before/after of the small fusions in one GPU command, the
# way their ±0.15 µs run-to-run spread needs: each artifact of CARRY/gpu/arts
# beside its namesake of CARRY/base/arts (built by the baseline, on the
# baseline's runtime from CARRY/base/src), ROUNDS rounds, the order of base
# and new swapped each round; then peers.py on CARRY/gpu/corpus (PEERS
# narrows it) PEER_ROUNDS times. CARRY has the layout of ab_run.sh (base/
# from the baseline, gpu/ from bench/gpu/prepare.sh with FUSER_ONLY); the
# new runtime is built from this tree. Every run is checked against the CPU
# reference (check_bounds.sh). Results under OUT as they come; at the end
# bench/gpu/small_ab_table.py prints medians: base, new, new / base and
# torch.compile's graph time.
#   ROUNDS=3 PEER_ROUNDS=2 bash bench/gpu/small_ab.sh CARRY OUT
set -uo pipefail
carry=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${ROUNDS:-3}
mkdir -p "$out"
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start )) s] $*" >> "$out/log.txt"; }
# shellcheck source=bench/gpu/check_bounds.sh
. "$here/check_bounds.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
(cd "$carry/base/src" && FUSER_DLPACK_INCLUDE=$carry/base/include bash scripts/build-runtime.sh /tmp/sab-rt-base > "$out/build_base.txt" 2>&1) &
(cd "$root" && FUSER_DLPACK_INCLUDE=$carry/gpu/include bash scripts/build-runtime.sh /tmp/sab-rt-new > "$out/build_new.txt" 2>&1)
wait
stamp built
one() { # runtime artifact tag round
  local n
  n=$(basename "$2" .fart)
  # shellcheck disable=SC2046
  timeout 60 "$1" --artifact "$2" $(check_args "$n") --bench "${BENCH:-100}" --name "$n" > /tmp/sab-one.txt 2>&1 || echo "FAILED $3 $n" >> "$out/log.txt"
  grep -E "check:|error" /tmp/sab-one.txt | sed "s/^/$3 $n /" >> "$out/checks.txt"
  grep '^{' /tmp/sab-one.txt | sed "s/^{/{\"round\": $4, /" >> "$out/$3.jsonl"
}
for r in $(seq 1 "$rounds"); do
  for art in "$carry"/gpu/arts/*.fart; do
    n=$(basename "$art")
    if [ -f "$carry/base/arts/$n" ] && [ $((r % 2)) = 1 ]; then one /tmp/sab-rt-base/fuser-run "$carry/base/arts/$n" base "$r"; fi
    one /tmp/sab-rt-new/fuser-run "$art" new "$r"
    if [ -f "$carry/base/arts/$n" ] && [ $((r % 2)) = 0 ]; then one /tmp/sab-rt-base/fuser-run "$carry/base/arts/$n" base "$r"; fi
  done
  stamp "round $r"
done
peers=""
for p in ${PEERS:-$(cd "$carry/gpu/corpus" && ls *.py | sed 's/\.py$//')}; do peers="$peers corpus/$p.py"; done
for r in $(seq 1 "${PEER_ROUNDS:-2}"); do
  (cd "$carry/gpu" && timeout "${PEERS_TIMEOUT:-150}" python3 peers.py $peers) >> "$out/peers.jsonl" 2>> "$out/peers_err.txt"
  stamp "peers $r"
done
python3 "$here/small_ab_table.py" "$out"
grep -c "bit-identical\|within" "$out/checks.txt" | sed 's/^/checks passed: /'
grep -v "bit-identical\|within" "$out/checks.txt" | head -20
cat "$out/log.txt"
