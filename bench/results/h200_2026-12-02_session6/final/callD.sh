#!/usr/bin/env bash
# Session 6 call D: the issue-15 table patterns and two small ones, fuser and torch.compile (peers.py)
# alternating, 3 rounds; then the two memcheck runs whose fuser-run exit was 1, with their messages.
out=$1; start=$(date +%s)
cd .carry/final/src || exit 1
bash bench/gpu/build_harness.sh . ../gpu/include /tmp/rtD > "$out/build.txt" 2>&1 || { tail "$out/build.txt"; exit 1; }
run=/tmp/rtD/fuser-run-ab
fs="transpose_large permute_large two_inputs_large slice1_large two_inputs_small transpose_add_small"
for r in 1 2 3; do
  for f in $fs; do
    [ $(( $(date +%s) - start )) -ge 200 ] && break 2
    timeout 30 "$run" --artifact ../gpu/arts/$f.fart --bench 100 --name $f 2>&1 | grep '"graph_us"' | sed "s/^/round $r fuser: /"
    (cd ../gpu && timeout 40 python3 peers.py corpus/$f.py 2>/dev/null | grep compile_graph_us | sed "s/^/round $r peers: /")
  done
done > "$out/alt.txt"
echo "alternation done at $(( $(date +%s) - start )) s"; cut -c1-260 "$out/alt.txt"
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for n in softmax_small:1 index_ops:0; do
  a=${n%%:*} m=${n##*:}
  timeout 60 "$cs" --tool memcheck "$run" --artifact ../gpu/arts/$a.fart --check --misalign $m > "$out/mc_$a.txt" 2>&1
  echo "memcheck $a misalign $m rc $?"; grep -v "^=========\s*$" "$out/mc_$a.txt" | tail -8 | cut -c1-300
  timeout 30 "$run" --artifact ../gpu/arts/$a.fart --check --check-ulp 2 --misalign $m 2>&1 | tail -4 | cut -c1-300
done
echo "done at $(( $(date +%s) - start )) s"
