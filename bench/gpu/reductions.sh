#!/usr/bin/env bash
# reductions.sh: the reduction fusions on the GPU machine, fuser and the
# peers in one command (artifacts from bench/gpu/prepare_reductions.sh):
#   1. every artifact checked: small ones against the CPU reference recorded
#      at compile time (within 2 bf16 ulp: the sums run in another order),
#      every one against PyTorch in float64 (bench/check_torch.py --batch:
#      one process for all), and called twice with the outputs compared bit
#      for bit (fuser-run --repeat, determinism);
#   2. timed (fuser-run --bench: CUDA graph, GB/s, % of the copy bandwidth
#      measured in the same process): ours.jsonl;
#   3. the row-length sweep (RMSNorm, softmax) timed the same way: sweep.jsonl;
#   4. peers.py (PyTorch eager, torch.compile) on the corpus and pattern
#      scripts: peers.jsonl (PEERS=0 skips it and step 5); PEER_CASES (a glob
#      under CARRY_DIR/corpus, default *) limits its cases;
#   5. torch.compile on the sweep's scripts (bench/reductions/sweep_peers.py:
#      the compiles in parallel first, then graph time only, fewer repeats,
#      so all 12 cases fit the step): sweep_peers.jsonl.
#   SWEEP_ONLY=1 skips steps 1, 2 and 4.
#   ART_CASES (a glob of artifact names, default *) limits steps 1-2;
#   TORCH_CASES (a glob, default *) limits their PyTorch check (the CPU
#   reference check stays; TORCH_CASES=none: no PyTorch check);
#   CORPUS_PEERS=0 skips step 4.
#   Step 5 runs beside steps 1-3: sweep_peers.py starts right after the
#   runtime's build (its Inductor compiles are CPU work, all cases at once)
#   and every GPU use of steps 1-3 and 5, fuser's and torch.compile's, holds
#   one flock ($lock), so no timing overlaps another's kernels.
#   SWEEP_FIRST=1 runs step 3 before steps 1-2. PEERS_AFTER_SWEEP=1 starts
#   step 5 after step 3: each fuser-run of a 1 GB sweep case generates its
#   inputs on the host (measured: ~20 s apiece beside the 14 compiles, 5 of
#   12 cases in 140 s), so the compiles then do not slow it down.
#   SWEEP_PEER_EXTRA: more scripts (paths under CARRY_DIR, e.g.
#   'corpus/*_large.py': torch.compile on the large reductions, compiled in
#   parallel) timed with the sweep's peers. SWEEP=0 skips step 3 and leaves
#   the sweep's scripts out of step 5 (step 5 then times SWEEP_PEER_EXTRA).
#   CHECK_TORCH_ARGS: more options of check_torch.py (--device cpu: a test
#   without a GPU). RED_TMP: where the saved inputs/outputs wait for the float64 check
#   (default /dev/shm/red-saves: memory, when it has 8 GB free; else
#   /tmp/red/saves; removed at the end, the lock in /tmp/red stays).
#   bash bench/gpu/reductions.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$(cd "$1" && pwd)
out=$2
mkdir -p "$out"
log=$out/log.txt
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime > "$log" 2>&1 || { tail "$log"; exit 1; }
run=build-runtime/fuser-run
lock=/tmp/red/gpu.lock
mkdir -p /tmp/red
command -v flock > /dev/null || flock() { shift; "$@"; } # no util-linux: timings unlocked
peers_pid=
sweep_scripts=$([ "${SWEEP:-1}" = 1 ] && echo 'sweep/*.py')
start_peers() {
if [ "${PEERS:-1}" = 1 ] && [ "${SWEEP_PEERS:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  (cd "$carry" && timeout "${SWEEP_PEERS_TIMEOUT:-250}" python3 sweep_peers.py --lock "$lock" $sweep_scripts ${SWEEP_PEER_EXTRA:-}) \
    > "$out/sweep_peers.jsonl" 2>> "$out/sweep_peers.log" &
  peers_pid=$!
fi
}
[ "${PEERS_AFTER_SWEEP:-0}" = 1 ] || start_peers
arts=("$carry"/arts/${ART_CASES:-*}.fart)
[ "${SWEEP_ONLY:-0}" = 1 ] && arts=()
# Step 1-2 in one fuser-run per artifact: --repeat calls it twice on the same
# inputs and compares the outputs' bytes (determinism), --save writes inputs
# and outputs for the float64 check (to RED_TMP: memory, not disk), --bench
# times it, --times says where the run's time went. Session 5 ran fuser-run
# twice per artifact (making the 0.3-1 GB inputs on the host twice) and one
# PyTorch process per check (~8 s of import each), and was cut at 12 of 13.
# Here one check_torch.py --batch process checks every saved case as it
# comes (under the GPU lock) and deletes it.
shm_kb=$(df -Pk /dev/shm 2> /dev/null | awk 'NR == 2 { print $4 }')
tmp=${RED_TMP:-$( [ -w /dev/shm ] && [ "${shm_kb:-0}" -gt 8388608 ] && echo /dev/shm/red-saves || echo /tmp/red/saves)}
check_and_time() {
mkdir -p "$tmp"
exec 7> >(cd "$carry" && python3 check_torch.py --batch --lock "$lock" --remove --nvfuser-torch nvfuser_torch.py ${CHECK_TORCH_ARGS:-} \
  >> "$out/torch.jsonl" 2>> "$out/torch.log")
checker=$!
for art in "${arts[@]}"; do
  name=$(basename "$art" .fart)
  check="--check --check-ulp 2"
  case $name in *large*) check="";; esac
  echo "== $name" >> "$log"
  # shellcheck disable=SC2254
  case $name in ${TORCH_CASES:-*}) save="--save $tmp/$name";; *) save="";; esac
  # shellcheck disable=SC2086
  flock "$lock" timeout 120 $run --artifact "$art" $check --repeat $save --bench 30 --times --name "$name" > "$tmp/one.txt" 2>&1 ||
    echo "FAILED $name" >> "$log"
  grep -v '^{' "$tmp/one.txt" | grep -v "^  first" >> "$log"
  grep '^{' "$tmp/one.txt" >> "$out/ours.jsonl"
  [ -z "$save" ] || echo "$carry/corpus/$name.py $tmp/$name" >&7
done
exec 7>&-
wait "$checker"
rm -rf "$tmp"
}
sweep() {
[ "${SWEEP:-1}" = 1 ] || return 0
for art in "$carry"/sweep/*.fart; do
  name=$(basename "$art" .fart)
  flock "$lock" timeout 60 $run --artifact "$art" --bench 20 --name "$name" 2>> "$log" | grep '^{' >> "$out/sweep.jsonl" ||
    echo "FAILED sweep $name" >> "$log"
done
}
# SWEEP_FIRST=1: the sweep (step 3) before steps 1-2
if [ "${SWEEP_FIRST:-0}" = 1 ]; then
  sweep
  [ "${PEERS_AFTER_SWEEP:-0}" = 0 ] || start_peers
  check_and_time
else
  check_and_time
  sweep
  [ "${PEERS_AFTER_SWEEP:-0}" = 0 ] || start_peers
fi
[ -z "$peers_pid" ] || wait "$peers_pid"
if [ "${PEERS:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  [ "${SWEEP_ONLY:-0}" = 1 ] || [ "${CORPUS_PEERS:-1}" = 0 ] ||
    (cd "$carry" && timeout 200 python3 peers.py corpus/${PEER_CASES:-*}.py) > "$out/peers.jsonl" 2>> "$log"
fi
grep -E "FAILED|DIFFERS|differ|error" "$log"
grep -c "same bits in a second call" "$log" | sed 's/^/outputs with the same bits in a second call: /'
awk '/^== / { name = $2 } /^times:/ { print name ": " $0 }' "$log"
cat "$out/ours.jsonl" "$out/torch.jsonl" 2> /dev/null
cat "$out/sweep_peers.jsonl" "$out/peers.jsonl" 2> /dev/null
# the device tool brings back at most 8 files from $OUT: everything also as one archive
# (session 6's call B lost sweep_peers.jsonl and torch.jsonl to that limit)
tar czf "$out.tgz" -C "$out" . 2> /dev/null
