#!/usr/bin/env bash
# session_run.sh: every GPU measurement of a session in one or two device
# calls (device time is scarce and the peers must run in the same command as
# fuser). Steps, each with its own time limit, selected by STEPS:
#   base   a baseline's artifacts with the baseline's own runtime sources
#          (CARRY/base/src, a `git archive` of the old commit), no peers;
#   corpus this tree's corpus artifacts (CARRY/gpu) through final_run.sh,
#          with the peers;
#   red    the reduction fusions, patterns and row-length sweep
#          (CARRY/red, bench/gpu/reductions.sh, peers included);
#   host   libfuser.so's cached-call host time beside a bare cuLaunchKernel
#          (CARRY/libfuser, bench/gpu/libfuser_host.sh);
#   python the Python binding on CUDA tensors and its overhead benchmark
#          (CARRY/python, bench/gpu/python_run.sh);
#   rng    the random-number scripts against the CPU reference
#          (CARRY/rng, bench/gpu/rng.sh);
#   memcheck compute-sanitizer memcheck of the small layout patterns and
#          the index scripts of CARRY/gpu, aligned and misaligned by one
#          element (after corpus: it uses the runtime that step built);
#   ncu    one Nsight Compute profile (speed of light, memory workload,
#          occupancy, launch statistics) of the first kernel of each
#          artifact of CARRY/gpu/arts named in NCU, or the first whose name
#          matches after a colon: NCU="transpose_add_large:tile" (after corpus).
# Everything lands in OUT_DIR/results.tgz (the device tool brings back at
# most 8 files) and a summary on stdout.
#   STEPS="base corpus host python" bash bench/gpu/session_run.sh CARRY OUT_DIR
set -uo pipefail
carry=$1
out=$2
res=/tmp/session-results
rm -rf "$res" && mkdir -p "$res"
steps=${STEPS:-base corpus red host python}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
for step in $steps; do
  start=$(date +%s)
  case $step in
  base)
    (cd "$carry/base/src" && PEERS=0 timeout 200 bash bench/gpu/final_run.sh "$PWD/.." "$res/base") > "$res/base.txt" 2>&1 ;;
  corpus)
    timeout 330 bash bench/gpu/final_run.sh "$carry/gpu" "$res/corpus" > "$res/corpus.txt" 2>&1 ;;
  red)
    timeout 480 bash bench/gpu/reductions.sh "$carry/red" "$res/red" > "$res/red.txt" 2>&1 ;;
  host)
    timeout 120 bash bench/gpu/libfuser_host.sh run "$carry/libfuser" 1000 > "$res/host.txt" 2>&1 ;;
  python)
    timeout 240 bash bench/gpu/python_run.sh run "$carry/python" > "$res/python.txt" 2>&1 ;;
  rng)
    timeout 60 bash bench/gpu/rng.sh run "$carry/rng" "$res/rng" > "$res/rng.txt" 2>&1 ;;
  memcheck)
    timeout 150 bash bench/gpu/memcheck.sh "$carry/gpu" build-runtime/fuser-run > "$res/memcheck.txt" 2>&1 ;;
  ncu)
    for n in ${NCU:-}; do
      command -v ncu > /dev/null || { echo "ncu not found"; break; }
      timeout 90 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
        -k "regex:$(case $n in *:*) echo "${n#*:}";; *) echo .;; esac)" -c 1 build-runtime/fuser-run --artifact "$carry/gpu/arts/${n%%:*}.fart" > "$res/ncu_${n%%:*}.txt" 2>&1
      echo "ncu $n: exit $?"
    done > "$res/ncu.txt" 2>&1 ;;
  *) echo "session_run.sh: unknown step $step" >&2 ;;
  esac
  echo "step $step: exit $? in $(( $(date +%s) - start )) s" | tee -a "$res/steps.txt"
  # after every step: a call cut short by its limit still brings back what ran
  tar czf "$out/results.tgz" -C "$res" .
done
