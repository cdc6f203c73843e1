#!/usr/bin/env bash
# host_ab.sh: host µs per call (the time fuser_execute takes on the host,
# issue 14's "host time per call is no worse") of two runtimes side by side
# on the GPU machine: OLD_SRC's runtime running CARRY_DIR/arts/old/*.fart
# and NEW_SRC's running CARRY_DIR/arts/new/*.fart (the same scripts compiled
# by each side's compiler).
#   bash bench/gpu/host_ab.sh OLD_SRC NEW_SRC CARRY_DIR [ROUNDS [CALLS [DEADLINE_S]]]
# CARRY_DIR holds include/dlpack/dlpack.h and arts/{old,new}/
# (bench/gpu/prepare_host_ab.sh makes it).
#
# Each side is one `fuser-run --serve` process holding every artifact
# (bench/gpu/ab_bench.py --mode host): the driver starts, the modules load
# and the (zeroed: --zero-inputs, host time does not depend on the values)
# inputs are made once per process. Session 5's version ran one
# `fuser-run --artifact F --bench 50` per measurement, ~7 s apiece of
# driver start, PTX JIT, the large outputs' checksums and a 1 GiB copy
# measurement, so 7 of 14 fusions fit its 105 s, and its 2 samples of 50
# calls spread by ±15%. Here: ROUNDS (default 20) rounds alternating old and
# new per fusion (the first side alternating too); each sample holds two
# numbers: host_us, the median of CALLS (default 200) calls made one at a
# time after the GPU went idle (session 5's number; on the H200 in session
# 6 its samples of one fusion still spread by 20-40%: a call after an idle
# wait runs on cold caches), and host_batch_us, per call over CALLS/10 calls
# issued back to back (median of 10 batches: the steady cost a framework
# issuing fusions in a row pays, what the verdict should use); no output is
# copied back (--no-fetch: the 1 GB outputs' checksums took seconds). A
# new process pair after half
# the rounds (the spread includes what differs between processes), both
# sides pinned to the same CPUs (HOST_AB_CPUS, default 2-5; "" unpins); no
# round starts after DEADLINE_S (default 100) s. The harness
# (tools/fuser-run) is NEW_SRC's on both sides, compiled against each
# side's own runtime (bench/gpu/build_harness.sh): only the runtime and the
# artifacts differ. Prints compare_base.py's tables (paired ratios, their
# interval, the verdict) for host_batch_us and host_us; each side's start-up
# output is in OUT/samples/*.log.
# HOST_AB_OUT (default /tmp/host-ab) keeps the samples.
set -uo pipefail
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd) carry=$(cd "$3" && pwd)
rounds=${4:-20} calls=${5:-200} deadline=${6:-100}
out=${HOST_AB_OUT:-/tmp/host-ab}
start=$SECONDS
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out"
bash "$here/build_harness.sh" "$old" "$carry/include" "$out/rt-old" "$new" > "$out/build-old.log" 2>&1 & pold=$!
bash "$here/build_harness.sh" "$new" "$carry/include" "$out/rt-new" "$new" > "$out/build-new.log" 2>&1 & pnew=$!
for side in old new; do
  pid=$([ $side = old ] && echo $pold || echo $pnew)
  wait "$pid" || { echo "host_ab: the $side runtime does not build:"; tail "$out/build-$side.log"; exit 1; }
done
echo "host_ab: built both runtimes in $((SECONDS - start)) s; ROUNDS=$rounds CALLS=$calls"
for side in old new; do
  for art in "$carry/arts/$side"/*.fart; do echo "$(basename "$art" .fart) $art"; done > "$out/$side.manifest"
done
python3 "$here/ab_bench.py" --side "old=$out/rt-old/fuser-run-ab:$out/old.manifest" \
  --side "new=$out/rt-new/fuser-run-ab:$out/new.manifest" --mode host --zero-inputs --worker-arg=--no-fetch --calls "$calls" \
  --rounds "$rounds" --restart-every $(( (rounds + 1) / 2 )) --deadline $((deadline - (SECONDS - start))) \
  --cpus "${HOST_AB_CPUS-2-5}" --out "$out/samples"
grep -h "FAILED" "$out/samples/"*.log | sort -u
echo "host µs per call, calls issued back to back (median of 10 batches of CALLS/10 per sample):"
python3 "$here/compare_base.py" "$out/samples/old.jsonl" "$out/samples/new.jsonl" --key host_batch_us
echo
echo "host µs per call, one call at a time after the GPU went idle (session 5's host_us: median of CALLS per sample):"
python3 "$here/compare_base.py" "$out/samples/old.jsonl" "$out/samples/new.jsonl" --key host_us
echo "host_ab: $((SECONDS - start)) s in all"
