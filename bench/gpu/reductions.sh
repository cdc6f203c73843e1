#!/usr/bin/env bash
# reductions.sh: the reduction fusions on the GPU machine, fuser and the
# peers in one command (artifacts from bench/gpu/prepare_reductions.sh):
#   1. every artifact checked: small ones against the CPU reference recorded
#      at compile time (within 2 bf16 ulp: the sums run in another order),
#      every one against PyTorch in float64 (bench/check_torch.py), and run
#      twice with the outputs compared bit for bit (determinism);
#   2. timed (fuser-run --bench: CUDA graph, GB/s, % of the copy bandwidth
#      measured in the same process): ours.jsonl;
#   3. the row-length sweep (RMSNorm, softmax) timed the same way: sweep.jsonl;
#   4. peers.py (PyTorch eager, torch.compile) on the corpus and pattern
#      scripts: peers.jsonl (PEERS=0 skips it and step 5); PEER_CASES (a glob
#      under CARRY_DIR/corpus, default *) limits its cases;
#   5. torch.compile on the sweep's scripts (bench/reductions/sweep_peers.py:
#      the compiles in parallel first, then graph time only, fewer repeats,
#      so all 12 cases fit the step): sweep_peers.jsonl.
#   SWEEP_ONLY=1 skips steps 1, 2 and 4 (each artifact's check imports
#   PyTorch once: about 8 s apiece, 12 artifacts took 150 s of a 190 s call).
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
#   corpus/logsumexp_large.py) timed with the sweep's peers.
#   bash bench/gpu/reductions.sh CARRY_DIR OUT_DIR
set -uo pipefail
carry=$1
out=$2
mkdir -p "$out"
log=$out/log.txt
FUSER_DLPACK_INCLUDE="$carry/include" bash scripts/build-runtime.sh build-runtime > "$log" 2>&1 || { tail "$log"; exit 1; }
run=build-runtime/fuser-run
lock=/tmp/red/gpu.lock
mkdir -p /tmp/red
command -v flock > /dev/null || flock() { shift; "$@"; } # no util-linux: timings unlocked
peers_pid=
start_peers() {
if [ "${PEERS:-1}" = 1 ] && [ "${SWEEP_PEERS:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  (cd "$carry" && timeout "${SWEEP_PEERS_TIMEOUT:-250}" python3 sweep_peers.py --lock "$lock" sweep/*.py ${SWEEP_PEER_EXTRA:-}) \
    > "$out/sweep_peers.jsonl" 2>> "$out/sweep_peers.log" &
  peers_pid=$!
fi
}
[ "${PEERS_AFTER_SWEEP:-0}" = 1 ] || start_peers
arts=("$carry"/arts/${ART_CASES:-*}.fart)
[ "${SWEEP_ONLY:-0}" = 1 ] && arts=()
check_and_time() {
for art in "${arts[@]}"; do
  name=$(basename "$art" .fart)
  check="--check --check-ulp 2"
  case $name in *large*) check="";; esac
  echo "== $name" >> "$log"
  mkdir -p "/tmp/red/$name.1" "/tmp/red/$name.2"
  # shellcheck disable=SC2086
  flock "$lock" timeout 120 $run --artifact "$art" $check --save "/tmp/red/$name.1" --bench 30 --name "$name" > /tmp/red/one.txt 2>&1 ||
    echo "FAILED $name" >> "$log"
  grep -v '^{' /tmp/red/one.txt | grep -v "^  first" >> "$log"
  grep '^{' /tmp/red/one.txt >> "$out/ours.jsonl"
  flock "$lock" timeout 60 $run --artifact "$art" --save "/tmp/red/$name.2" > /dev/null 2>&1
  for o in /tmp/red/$name.1/output_*.npy; do
    cmp -s "$o" "/tmp/red/$name.2/$(basename "$o")" && echo "deterministic $name $(basename "$o")" >> "$log" ||
      echo "DIFFERS between runs: $name $(basename "$o")" >> "$log"
  done
  # shellcheck disable=SC2254
  case $name in ${TORCH_CASES:-*}) flock "$lock" timeout 120 python3 "$carry/check_torch.py" "$carry/corpus/$name.py" "/tmp/red/$name.1" \
    --nvfuser-torch "$carry/nvfuser_torch.py" >> "$out/torch.jsonl" 2>> "$log";;
  esac
  rm -rf "/tmp/red/$name.1" "/tmp/red/$name.2"
done
}
sweep() {
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
cat "$out/ours.jsonl" "$out/torch.jsonl" 2> /dev/null
