#!/usr/bin/env bash
# check_one.sh S.py: checks one fuzz case the way test/lowering/layouts.test
# checks its scripts, and prints one line:
#   NAME OK|FAIL:<stages> pts=<points> ran=<aligned>/<misaligned> has=<variants in the PTX> t=<s> | <kinds>
# Stages: import (fuser-translate --import-nvfuser), ref (fuser-run --cpu
# --save-case, aligned and --misalign 1), check/mcheck (fuser-cpu-check
# against the reference, aligned / misaligned: mismatch or crash), ptx
# (fuser-translate --emit-ptx), kcheck<K> (a third run, every input K = 2..7
# elements off), ptxas (sm_90, every written .ptx), torch
# (fuser-cpu-check against PyTorch's CPU eager run of the script,
# test/lowering/Inputs/torch_oracle.py; only when FUZZ_TORCH=1), strides
# (an output with add_output(stride_order=) not dense in that order in
# fuser-run --cpu's printout, check_strides.py), scheck (fuser-cpu-check of
# the IR with static sizes, fuser-specialize-shapes, against the aligned and
# misaligned cases: how the binding compiles a call under 4 MiB).
# Logs stay beside the script (S.log). Env: FUSER_BIN (default
# build/bin), PTXAS, FUZZ_TORCH, FUZZ_TIMEOUT (s per command, default 300).
set -u
s=$1
d=$(dirname "$s"); n=$(basename "$s" .py); b=$d/$n
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${FUSER_BIN:-$root/build/bin}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
to=${FUZZ_TIMEOUT:-300}
log=$b.log
: > "$log"
fails=()
notes=()
t0=$(date +%s.%N)
step() { # name cmd...: runs, logs, returns rc
  local name=$1; shift
  echo "== $name: $*" >> "$log"
  timeout "$to" "$@" >> "$log" 2>&1
  local rc=$?
  echo "== rc $rc" >> "$log"
  return $rc
}
classify() { # stage rc [file]: appends stage:kind
  local st=$1 rc=$2
  if [ "$rc" = 124 ]; then fails+=("$st:timeout")
  elif [ "$rc" -gt 128 ]; then fails+=("$st:signal$((rc - 128))")
  else fails+=("$st:rc$rc"); fi
}
ran=-/-
has=-
if step import "$bin/fuser-translate" --import-nvfuser "$s" -o "$b.mlir"; then
  step ref "$bin/fuser-run" --cpu "$s" --save-case "$b.case" || classify ref $?
  if [ -f "$b.case" ]; then
    sed -n '/^== ref:/,/^== rc/p' "$log" > "$b.ref.txt"
    step strides python3 "$root/bench/layouts/fuzz/check_strides.py" "$s" "$b.ref.txt" || fails+=(strides:layout)
  fi
  step mref "$bin/fuser-run" --cpu "$s" --save-case "$b.m.case" --misalign 1 > /dev/null || classify mref $?
  va=-; vm=-
  if [ -f "$b.case" ]; then
    step check "$bin/fuser-cpu-check" "$b.mlir" "$b.case"; rc=$?
    va=$(grep -m1 '^kernels:' "$log" | tail -1 | sed 's/^kernels: *//; s/fusion_[a-z0-9_]*__//g; s/ /+/g')
    if [ $rc = 1 ] && tail -5 "$log" | grep -q MISMATCH; then fails+=(check:mismatch); elif [ $rc != 0 ]; then classify check $rc; fi
  fi
  if [ -f "$b.m.case" ]; then
    step mcheck "$bin/fuser-cpu-check" "$b.mlir" "$b.m.case"; rc=$?
    vm=$(grep '^kernels:' "$log" | sed -n 2p | sed 's/^kernels: *//; s/fusion_[a-z0-9_]*__//g; s/ /+/g')
    if [ $rc = 1 ] && tail -5 "$log" | grep -q MISMATCH; then fails+=(mcheck:mismatch); elif [ $rc != 0 ]; then classify mcheck $rc; fi
  fi
  # a third run, misaligned by K = 2..7 elements (partly aligned pointers: 4 or 8 bytes)
  k=$(( $(echo "$n" | tr -dc 0-9) % 6 + 2 ))
  if step kref "$bin/fuser-run" --cpu "$s" --save-case "$b.k.case" --misalign $k > /dev/null; then
    step kcheck "$bin/fuser-cpu-check" "$b.mlir" "$b.k.case"; rc=$?
    if [ $rc = 1 ] && tail -5 "$log" | grep -q MISMATCH; then fails+=(kcheck$k:mismatch); elif [ $rc != 0 ]; then classify kcheck$k $rc; fi
  elif [ -f "$b.case" ]; then classify kref $?; fi
  # static sizes (fuser-specialize-shapes: how the binding compiles a call under 4 MiB; small
  # transposes get 32 x 32 tiles there), against the same two cases
  if step simport "$bin/fuser-opt" --fuser-specialize-shapes "$b.mlir" -o "$b.s.mlir"; then
    for c in case m.case; do
      [ -f "$b.$c" ] || continue
      step scheck "$bin/fuser-cpu-check" "$b.s.mlir" "$b.$c"; rc=$?
      if [ $rc = 1 ] && tail -5 "$log" | grep -q MISMATCH; then fails+=(scheck:$c:mismatch); elif [ $rc != 0 ]; then classify scheck $rc; fi
    done
  else classify simport $?; fi
  ran=${va:-none}/${vm:-none}
  rm -f "$b".ptx "$b".*.ptx
  if step ptx "$bin/fuser-translate" --emit-ptx "$s" -o "$b.ptx"; then
    for f in "$b".ptx "$b".*.ptx; do
      [ -f "$f" ] || continue
      step ptxas "$ptxas" -arch=sm_90 "$f" -o /dev/null || { classify ptxas $?; break; }
    done
    has=$(cat "$b".ptx "$b".*.ptx 2>/dev/null | sed -n 's/^.visible .entry fusion_[a-z0-9_]*__\([a-z0-9_]*\)(.*/\1/p' | sort -u | tr '\n' ',' | sed 's/,$//')
  else
    classify ptx $?
  fi
  if [ "${FUZZ_TORCH:-0}" = 1 ] && [ -f "$b.case" ]; then
    if step torch_case /usr/bin/python3 "$root/test/lowering/Inputs/torch_oracle.py" "$s" "$b.t.case" script "${FUZZ_TORCH_DIR:-$root/../shared/bench}"; then
      step torch "$bin/fuser-cpu-check" "$b.mlir" "$b.t.case"; rc=$?
      if [ $rc = 1 ] && tail -5 "$log" | grep -q MISMATCH; then fails+=(torch:mismatch); elif [ $rc != 0 ]; then classify torch $rc; fi
    else
      notes+=(torch_oracle_failed) # the stand-in cannot run it (e.g. relu of f16 in CPU torch 1.13)
    fi
  fi
else
  classify import $?
fi
t=$(echo "$(date +%s.%N) - $t0" | bc)
pts=$(sed -n 's/.*points \([0-9]*\);.*/\1/p' "$s" | head -1)
kinds=$(sed -n 's/.*kinds: //p' "$s" | head -1)
if [ ${#fails[@]} = 0 ]; then st=OK; rm -f "$b.case" "$b.m.case" "$b.k.case" "$b.t.case" "$b.ref.txt" "$b.s.mlir" "$b".ptx "$b".*.ptx; else st="FAIL:$(IFS=,; echo "${fails[*]}")"; fi
[ ${#notes[@]} = 0 ] || kinds="$kinds note:$(IFS=,; echo "${notes[*]}")"
printf '%s %s pts=%s ran=%s has=%s t=%.1f | %s\n' "$n" "$st" "$pts" "$ran" "${has:--}" "$t" "$kinds"
