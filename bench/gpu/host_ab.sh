#!/usr/bin/env bash
# host_ab.sh: host µs per call (`fuser-run --artifact F --bench N`'s
# host_us: the median over N calls of the time fuser_execute takes on the
# host) of two runtimes side by side on the GPU machine: OLD_SRC's runtime
# running CARRY_DIR/arts/old/*.fart and NEW_SRC's running
# CARRY_DIR/arts/new/*.fart (the same scripts compiled by each side's
# compiler), alternating old and new per fusion, REPEAT rounds, so that both
# sides see the same machine state. Prints each run's host_us, whether the
# two sides' output checksums agree, and per fusion the median of each side
# and new/old.
#   bash bench/gpu/host_ab.sh OLD_SRC NEW_SRC CARRY_DIR [REPEAT [BENCH [DEADLINE_S]]]
# CARRY_DIR holds include/dlpack/dlpack.h and arts/{old,new}/.
#
# Cheap enough for one 120 s call (14 corpus fusions, REPEAT 2): the inputs
# are zeroed device memory (--zero-inputs: host time per call does not
# depend on the values, and generating the large corpus inputs on the host
# took seconds per run: the previous version was cut at 100 s after 2
# fusions), both runtimes build at once, and no run starts after DEADLINE_S
# (default 105) seconds, so what was measured is printed before the limit.
# The measuring harness (tools/fuser-run) is NEW_SRC's on both sides,
# compiled against each side's own runtime headers and library: only the
# runtime and the artifacts differ between old and new.
set -uo pipefail
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd) carry=$(cd "$3" && pwd) repeat=${4:-2} bench=${5:-50} deadline=${6:-105}
start=$SECONDS
inc=$(cd "$carry/include" && pwd)
harness=$(mktemp -d)
mkdir -p "$harness/tools"
cp -r "$new/tools/fuser-run" "$harness/tools/"
build() { # side src: the runtime of src, then NEW_SRC's fuser-run against it
  local side=$1 src=$2 out=$2/build-runtime-ab
  (cd "$src" && FUSER_DLPACK_INCLUDE="$inc" bash scripts/build-runtime.sh "$out") > "/tmp/ab-$side.log" 2>&1 &&
    cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$harness" -I"$src" -isystem "$inc" \
      "$harness/tools/fuser-run/runtime_only_main.c" "$harness/tools/fuser-run/artifact_run.c" \
      "$out/libfuser_runtime.a" -ldl -lpthread -lm -o "$out/fuser-run-ab" >> "/tmp/ab-$side.log" 2>&1
}
build old "$old" & pold=$!
build new "$new" & pnew=$!
for side in old new; do
  pid=$([ $side = old ] && echo $pold || echo $pnew)
  wait "$pid" || { echo "host_ab: the $side runtime does not build:"; tail "/tmp/ab-$side.log"; exit 1; }
done
echo "host_ab: built both runtimes in $((SECONDS - start)) s; REPEAT=$repeat BENCH=$bench"
printf '%-18s %-4s %-9s %s\n' fusion side checksum "host_us (each run)"
summary=()
for art in "$carry"/arts/new/*.fart; do
  name=$(basename "$art" .fart)
  declare -A line=() sum=()
  for r in $(seq "$repeat"); do
    for side in old new; do
      if [ $((SECONDS - start)) -ge "$deadline" ]; then line[$side]="${line[$side]:-} (deadline)"; continue; fi
      src=$([ $side = old ] && echo "$old" || echo "$new")
      out=$(timeout 30 "$src/build-runtime-ab/fuser-run-ab" --artifact "$carry/arts/$side/$name.fart" --zero-inputs \
            --bench "$bench" --name "$name" 2>&1)
      us=$(grep -o '"host_us": [0-9.]*' <<< "$out" | grep -o '[0-9.]*$')
      [ -z "$us" ] && echo "host_ab: $name $side failed: $(tail -1 <<< "$out")"
      line[$side]="${line[$side]:-} ${us:-FAILED}"
      sum[$side]=$(grep 'checksum' <<< "$out" | md5sum | cut -c1-8)
    done
  done
  same=$([ "${sum[old]:-x}" = "${sum[new]:-y}" ] && echo same || echo DIFFERENT)
  for side in old new; do printf '%-18s %-4s %-9s %s\n' "$name" $side "$same" "${line[$side]}"; done
  summary+=("$name ${line[old]} | ${line[new]}")
done
echo
echo "median host_us per call (old -> new, new/old), $((SECONDS - start)) s in all:"
for s in "${summary[@]}"; do
  python3 - "$s" <<'EOF' 2>/dev/null || echo "$s"
import statistics, sys
name, rest = sys.argv[1].split(' ', 1)
o, n = ([float(x) for x in side.split() if x.replace('.', '', 1).isdigit()] for side in rest.split('|'))
if o and n:
    mo, mn = statistics.median(o), statistics.median(n)
    print(f"{name:18s} {mo:8.2f} -> {mn:8.2f}  {mn / mo:5.3f}")
else:
    print(f"{name:18s} incomplete")
EOF
done
rm -rf "$harness"
