#!/usr/bin/env bash
# small_prof.sh: profile the small fusions against torch.compile in one GPU
# command (issues 13 and 15, "What bounds small fusions"). CARRY holds src/
# (this tree), gpu/ (bench/gpu/prepare.sh with FUSER_ONLY) and optionally
# sd/ (two strided_define artifacts and the runtime sources they ran on).
# Steps, each writing under OUT as it goes (a call cut short keeps what ran):
#   1. the runtime; every artifact of gpu/arts timed twice (--bench 100),
#      three with --caching-allocator too (graph memory nodes or not);
#   2. sd/*.fart alternating with gpu/arts/strided_define.fart, 3 rounds;
#   3. peers.py on gpu/corpus with the inductor cache under OUT/ind
#      (Triton's generated code and PTX come back);
#   4. ncu --set full of one warm launch of each small artifact, then of
#      torch.compile's kernels (bench/gpu/ncu_peers.py): details and SASS.
#   bash bench/gpu/small_prof.sh CARRY OUT
set -uo pipefail
carry=$(cd "$1" && pwd)
out=$2
mkdir -p "$out/ncu"
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start )) s] $*" >> "$out/log.txt"; }
here=$(cd "$(dirname "$0")" && pwd)
export FUSER_DLPACK_INCLUDE=$carry/gpu/include
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
(cd "$carry/src" && bash scripts/build-runtime.sh /tmp/sp-rt > "$out/build.txt" 2>&1)
[ -d "$carry/sd/rt" ] && (cd "$carry/sd/rt" && bash scripts/build-runtime.sh /tmp/sp-rt-sd > "$out/build_sd.txt" 2>&1)
rt=/tmp/sp-rt/fuser-run
# shellcheck source=bench/gpu/check_bounds.sh
. "$here/check_bounds.sh"
stamp built
for r in 1 2; do
  for a in "$carry"/gpu/arts/*.fart; do
    n=$(basename "$a" .fart)
    case $n in *large*) [ "$r" = 2 ] && continue;; esac
    timeout 60 "$rt" --artifact "$a" $(check_args "$n") --bench 100 --name "$n" 2>&1 | grep -E '^\{|check|error' | cut -c1-300
  done
done > "$out/ours.txt"
for n in rmsnorm_small two_inputs_small swiglu_small; do
  timeout 60 "$rt" --artifact "$carry/gpu/arts/$n.fart" --caching-allocator --bench 100 --name "caching_$n" 2>&1 | grep '^{'
done >> "$out/ours.txt"
stamp timed ours
if [ -d "$carry/sd" ]; then
  for r in 1 2 3; do
    for a in "$carry"/sd/*.fart; do
      timeout 30 /tmp/sp-rt-sd/fuser-run --artifact "$a" --bench 200 --name "$(basename "$a" .fart)" 2>&1 | grep '^{'
    done
    timeout 30 "$rt" --artifact "$carry/gpu/arts/strided_define.fart" --bench 200 --name sd_main 2>&1 | grep '^{'
  done > "$out/strided_define.txt"
  stamp strided_define
fi
peers=$(cd "$carry/gpu/corpus" && ls *.py | grep -v -e strided_define -e _large | sed 's|^|corpus/|')
(cd "$carry/gpu" && TORCHINDUCTOR_CACHE_DIR=/tmp/sp-ind timeout "${PEERS_TIMEOUT:-120}" python3 peers.py $peers) > "$out/peers.jsonl" 2> "$out/peers_err.txt"
mkdir -p "$out/ind" && (cd /tmp/sp-ind && find . -name '*.py' -o -name '*.ptx' | head -200 | tar cf - -T - | tar xf - -C "$out/ind")
stamp peers
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { stamp "no ncu"; exit 0; }
nflags=(--set full --import-source no --clock-control none --cache-control none)
report() { # rep name
  "$ncu" -i "$1" --page details > "$out/ncu/$2.txt" 2>&1
  "$ncu" -i "$1" --page source --print-source sass --csv > "$out/ncu/$2_sass.csv" 2>&1
}
for a in "$carry"/gpu/arts/*_small.fart "$carry"/gpu/arts/seed_fusion_id0.fart "$carry"/gpu/arts/strided_define.fart; do
  n=$(basename "$a" .fart)
  timeout 40 "$ncu" "${nflags[@]}" -k regex:. --launch-skip 10 -c 1 -f -o "/tmp/sp-ours_$n" \
    "$rt" --artifact "$a" --bench 20 > /dev/null 2>> "$out/ncu/err.txt"
  report "/tmp/sp-ours_$n.ncu-rep" "ours_$n"
done
stamp ncu ours
(cd "$carry/gpu" && TORCHINDUCTOR_CACHE_DIR=/tmp/sp-ind timeout 120 "$ncu" "${nflags[@]}" --profile-from-start off -k regex:triton -f -o /tmp/sp-peers \
  python3 "$here/ncu_peers.py" . $peers > "$out/ncu/peers_run.txt" 2>&1)
report /tmp/sp-peers.ncu-rep peers
stamp ncu peers
if command -v cuobjdump > /dev/null; then
  for c in $(find /tmp/sp-ind -name '*.cubin' | head -40); do echo "== $c"; cuobjdump -sass "$c"; done > "$out/peers_sass.txt" 2>&1
fi
stamp done
