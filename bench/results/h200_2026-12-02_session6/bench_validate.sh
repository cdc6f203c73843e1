#!/usr/bin/env bash
# bench's one validation call (session 6): the three harnesses' timing on
# the H200, each step timed (`date` stamps), from the checkout root:
#   bash .carry/bench/validate.sh $OUT
# 1. host_ab.sh: all 14 corpus fusions, f1c0792's runtime + artifacts vs
#    this branch's, 12 rounds x 200 calls, two process pairs;
# 2. ab_run.sh on 15 corpus fusions (6 byte-identical), 6 rounds, a new
#    process pair after 3, no peers/memcheck;
# 3. reductions.sh on 5 reductions (the two largest inputs among them):
#    check + --repeat + save, batch float64 check; no sweep, no peers.
out=$1
C=$(cd .carry/bench && pwd)
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,persistence_mode --format=csv 2>&1 | tail -1
df -Pk /dev/shm | tail -1
cd "$C/host/new/src" || exit 1
stamp host_ab
timeout 75 bash bench/gpu/host_ab.sh ../../old/src . ../.. 12 200 60 > "$out/host_ab.txt" 2>&1; echo "host_ab exit $?" >> "$out/host_ab.txt"
cp -r /tmp/host-ab/samples "$out/host_ab_samples" 2> /dev/null
stamp "host_ab done"; tail -25 "$out/host_ab.txt"
# where one session-5-style run's wall time goes (fuser-run --times)
for n in rope_qkv_large seed_fusion_id0; do
  s0=$(date +%s%N)
  /tmp/host-ab/rt-new/fuser-run-ab --artifact ../../arts/new/$n.fart --zero-inputs --bench 50 --times --name $n | grep -E "^times|^\{" | cut -c1-160
  echo "$n: $(( ($(date +%s%N) - s0) / 1000000 )) ms wall"
done
mkdir -p "$C/ab/base" && ln -sfn "$C/host/old/src" "$C/ab/base/src"
PEERS=none MEMCHECK=0 AB_ROUNDS=6 AB_RESTART_EVERY=3 AB_DEADLINE=30 timeout 50 bash bench/gpu/ab_run.sh "$C/ab" "$out/ab" > "$out/ab.txt" 2>&1
echo "ab_run exit $?" >> "$out/ab.txt"
stamp "ab_run done"; head -30 "$out/ab.txt"; grep -E "ready in|rounds of|FAILED" "$out/ab.txt"
SWEEP=0 PEERS=0 timeout 45 bash bench/gpu/reductions.sh "$C/red" "$out/red" > "$out/red.txt" 2>&1; echo "red exit $?" >> "$out/red.txt"
stamp "reductions done"; cat "$out/red.txt" | cut -c1-250; grep -E "^== |^times" "$out/red/log.txt"
