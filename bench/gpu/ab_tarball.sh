#!/usr/bin/env bash
# ab_tarball.sh: the A/B of one prepared tarball (a session's prep script: ab/base.manifest,
# ab/new.manifest, ab/base/*.fart, ab/new/*.fart; manifest lines "NAME BASE/F.fart [check
# flags]") on the GPU machine: unpacks it, times both sides with ab_bench.py on one fuser-run
# and writes compare_base.py's table to TABLE (its first 150 columns to stdout, with the
# counts of the CPU-reference checks). Raw output in OUT_DIR.
#   bash bench/gpu/ab_tarball.sh TARBALL FUSER_RUN OUT_DIR TABLE DEADLINE_S ROUNDS
set -uo pipefail
tarball=${1:?} run=${2:?} out=${3:?} table=${4:?} deadline=${5:?} rounds=${6:?}
here=$(dirname "$0")
dir=$(mktemp -d)
xz -dc "$tarball" | tar xf - -C "$dir" || { echo "ab_tarball: cannot unpack $tarball"; exit 1; }
for side in base new; do
  sed "s| BASE/| $dir/ab/base/|; s| NEW/| $dir/ab/new/|" "$dir/ab/$side.manifest" > "$dir/$side.manifest"
done
timeout $((deadline + 50)) python3 "$here/ab_bench.py" --side "base=$run:$dir/base.manifest" --side "new=$run:$dir/new.manifest" \
  --mode bench --calls 30 --rounds "$rounds" --deadline "$deadline" --out "$out" > "$out.txt" 2>&1
echo "ab_tarball: ab_bench exit $?"
python3 "$here/compare_base.py" "$out/base.jsonl" "$out/new.jsonl" > "$table" 2>&1
cut -c1-150 "$table"
grep -h "check:" "$out"/*.log 2> /dev/null | sed "s/(fnv1a.*//" | awk '{print $1, $2, $3}' | sort | uniq -c | sort -rn | head -4
