#!/usr/bin/env bash
# ab_run.sh: before/after of the corpus (or the fusions a change touches) in
# one GPU command: each artifact of CARRY/gpu/arts (this tree's,
# bench/gpu/prepare.sh) against its namesake of CARRY/base/arts (the
# baseline's, on the baseline's runtime built from CARRY/base/src), timed in
# AB_ROUNDS rounds (default 5) that alternate base and new fusion by fusion
# (bench/gpu/ab_bench.py: one `fuser-run --serve` process per side holding
# every artifact; large ones first; a new process pair every
# AB_RESTART_EVERY rounds, default 0: never). Each artifact is checked once
# per process at start (bench/gpu/check_bounds.sh's bounds; the check:
# lines go to the log). The table (bench/gpu/compare_base.py, CUDA-graph
# µs) gives medians over the rounds, the measured spread, and marks the
# byte-identical pairs (cmp: same kernels, same plan) "identical artifact".
# Then the peers of the scripts in CARRY/gpu/corpus (PEERS narrows them,
# e.g. "permute_large two_inputs_small"; PEERS=none skips them), memcheck.sh
# of CARRY/gpu (MEMCHECK=0 skips it), and one ncu profile of each
# `art[:kernel regex]` in NCU. Everything goes to OUT_DIR/results.tgz after
# each step (a call cut short keeps what ran); the table, the peers and the
# failures to stdout. DRY_RUN=1 prints the manifests, the A/B plan and the
# steps, runs nothing on the GPU.
#   bash bench/gpu/ab_run.sh CARRY OUT_DIR
set -uo pipefail
carry=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
res=${AB_RESULTS:-/tmp/ab-results}
rm -rf "$res" && mkdir -p "$res" "$out"
out=$(cd "$out" && pwd)
start=$SECONDS
# shellcheck source=bench/gpu/check_bounds.sh
. "$here/check_bounds.sh"
save() { tar czf "$out/results.tgz" -C "$res" .; }
log() { echo "$*" >> "$res/log.txt"; }
manifest() { # arts-dir: one line per artifact, large ones first, with its check bounds
  for art in $(ls "$1"/*_large.fart 2> /dev/null; ls "$1"/*.fart | grep -v _large); do
    n=$(basename "$art" .fart)
    case $n in index_oob*) continue;; esac # they must fail: memcheck.sh runs them
    echo "$n $art $(check_args "$n")"
  done
}
manifest "$carry/gpu/arts" > "$res/new.manifest"
manifest "$carry/base/arts" > "$res/base.manifest"
for art in "$carry"/gpu/arts/*.fart; do
  cmp -s "$art" "$carry/base/arts/$(basename "$art")" && basename "$art" .fart
done > "$res/identical.txt"
if [ "${DRY_RUN:-0}" = 1 ]; then
  echo "ab_run (dry run): $(wc -l < "$res/new.manifest") new, $(wc -l < "$res/base.manifest") base artifacts, $(wc -l < "$res/identical.txt") identical"
  head -3 "$res/new.manifest"
fi
run_ab() {
  python3 "$here/ab_bench.py" --side "base=$res/rt-base/fuser-run-ab:$res/base.manifest" \
    --side "new=$res/rt-new/fuser-run-ab:$res/new.manifest" --mode bench --calls "${AB_CALLS:-30}" \
    --rounds "${AB_ROUNDS:-5}" --restart-every "${AB_RESTART_EVERY:-0}" --deadline "${AB_DEADLINE:-0}" --out "$res/ab" "$@"
}
if [ "${DRY_RUN:-0}" = 1 ]; then
  run_ab --dry-run
  echo "then: peers (${PEERS:-all corpus scripts}), memcheck (${MEMCHECK:-1}), ncu (${NCU:-none})"
  exit 0
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
bash "$here/build_harness.sh" "$carry/base/src" "$carry/base/include" "$res/rt-base" > "$res/build_base.txt" 2>&1 & pb=$!
bash "$here/build_harness.sh" . "$carry/gpu/include" "$res/rt-new" > "$res/build_new.txt" 2>&1 || { tail "$res/build_new.txt"; exit 1; }
wait $pb || { tail "$res/build_base.txt"; exit 1; }
log "built both runtimes at $((SECONDS - start)) s"
run_ab > "$res/ab.txt" 2>&1 || log "FAILED ab_bench (exit $?)"
cat "$res/ab.txt" >> "$res/log.txt"
grep -h -E "FAILED its first|error:" "$res/ab/"*.log | sort -u | sed "s/^/ab: /" >> "$res/log.txt"
log "A/B done at $((SECONDS - start)) s"
save
peers=""
if [ "${PEERS:-}" != none ]; then
  for p in ${PEERS:-$(cd "$carry/gpu/corpus" && ls *.py | sed 's/\.py$//')}; do peers="$peers corpus/$p.py"; done
  (cd "$carry/gpu" && timeout "${PEERS_TIMEOUT:-150}" python3 peers.py $peers) > "$res/peers.jsonl" 2>> "$res/log.txt"
  log "peers done at $((SECONDS - start)) s"
  save
fi
if [ "${MEMCHECK:-1}" = 1 ]; then
  timeout "${MEMCHECK_TIMEOUT:-100}" bash bench/gpu/memcheck.sh "$carry/gpu" "$res/rt-new/fuser-run" > "$res/memcheck.txt" 2>&1
  log "memcheck done at $((SECONDS - start)) s"
  save
fi
for n in ${NCU:-}; do
  command -v ncu > /dev/null || { log "ncu not found"; break; }
  timeout 60 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    -k "regex:$(case $n in *:*) echo "${n#*:}";; *) echo .;; esac)" -c 1 \
    "$res/rt-new/fuser-run" --artifact "$carry/gpu/arts/${n%%:*}.fart" > "$res/ncu_${n%%:*}.txt" 2>&1
  log "ncu $n: exit $?"
done
save
python3 "$here/compare_base.py" "$res/ab/base.jsonl" "$res/ab/new.jsonl" --identical "$res/identical.txt"
[ -f "$res/peers.jsonl" ] && cut -c1-400 "$res/peers.jsonl"
cat "$res/log.txt" "$res/memcheck.txt" 2> /dev/null
