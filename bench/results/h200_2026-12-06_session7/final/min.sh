#!/usr/bin/env bash
# The short device call of sessions 7 and 8, cut to what ~200 s allow: the four table patterns and the
# kept-back layouts this session changed (new, and base 49b7c4a for the changed ones), the
# peers (eager, torch.compile) of the large ones in the same command, memcheck of the small
# ones aligned and misaligned by one element.   bash .carry/min8/min.sh (CARRY: the script's folder)
set -uo pipefail
c=$(dirname "$0"); start=$(date +%s); log=$OUT/log.txt
FUSER_DLPACK_INCLUDE=$c/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
run=/tmp/rt/fuser-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $log
for n in transpose_large permute_large two_inputs_large slice1_large transpose_add_large split_heads_bf16_large merge_heads_bf16_large from_last_bf16_large nchw_nhwc_bf16_large; do
  for side in new base; do
    [ -f $c/$side/$n.fart ] || continue
    timeout 30 $run --artifact $c/$side/$n.fart --bench 30 --name $side:$n > /tmp/one.txt 2>&1 || echo "FAILED $side $n rc $?" | tee -a $log
    grep -E '^\{|variant' /tmp/one.txt | cut -c1-600 | tee -a $log
  done
done
echo "ours done at $(( $(date +%s) - start )) s" | tee -a $log
(cd $c && timeout 80 python3 peers.py corpus/*.py) 2>/dev/null | cut -c1-500 | tee -a $log
echo "peers done at $(( $(date +%s) - start )) s" | tee -a $log
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in $c/new/*_small.fart $c/new/layouts_*.fart; do
  n=$(basename $f .fart)
  for m in 0 1; do
    (timeout 50 $cs --tool memcheck $run --artifact $f --check --check-ulp 1 --misalign $m > /tmp/mc.$n.$m 2>&1
     echo "memcheck $n misalign $m rc $? $(grep -E 'ERROR SUMMARY|FAILED|DIFFERS' /tmp/mc.$n.$m | head -2 | tr '\n' ' ')") >> /tmp/mc.lines &
  done
done
wait
sort /tmp/mc.lines | tee -a $log
echo "all done at $(( $(date +%s) - start )) s" | tee -a $log
