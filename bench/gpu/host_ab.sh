#!/usr/bin/env bash
# host_ab.sh: host µs per call (`fuser-run --artifact F --bench 30`'s
# host_us) of two builds side by side on the GPU machine: OLD_SRC's runtime
# running CARRY_DIR/arts/old/*.fart and NEW_SRC's running
# CARRY_DIR/arts/new/*.fart (the same scripts compiled by each compiler),
# alternating old and new REPEAT times so that both sides see the same
# machine state. Also prints whether the two give the same output checksums.
#   bash bench/gpu/host_ab.sh OLD_SRC NEW_SRC CARRY_DIR [REPEAT]
# CARRY_DIR holds include/dlpack/dlpack.h and arts/{old,new}/ (made here by
# copying the artifacts each compiler wrote).
set -uo pipefail
old=$1 new=$2 carry=$3 repeat=${4:-5}
inc=$(cd "$carry/include" && pwd)
for side in old new; do
  src=$([ $side = old ] && echo "$old" || echo "$new")
  (cd "$src" && FUSER_DLPACK_INCLUDE="$inc" bash scripts/build-runtime.sh "$PWD/build-runtime-ab") > "/tmp/ab-$side.log" 2>&1 ||
    { echo "host_ab: the $side runtime does not build:"; tail "/tmp/ab-$side.log"; exit 1; }
done
printf '%-18s %-4s %-9s %s\n' fusion side checksum "host_us (each run)"
for art in "$carry"/arts/new/*.fart; do
  name=$(basename "$art" .fart)
  declare -A line=() sum=()
  for r in $(seq "$repeat"); do
    for side in old new; do
      src=$([ $side = old ] && echo "$old" || echo "$new")
      out=$(timeout 60 "$src/build-runtime-ab/fuser-run" --artifact "$carry/arts/$side/$name.fart" --bench 30 --name "$name" 2>&1)
      us=$(grep -o '"host_us": [0-9.]*' <<< "$out" | grep -o '[0-9.]*$')
      line[$side]="${line[$side]:-} ${us:-FAILED}"
      sum[$side]=$(grep 'checksum' <<< "$out" | md5sum | cut -c1-8)
    done
  done
  same=$([ "${sum[old]}" = "${sum[new]}" ] && echo same || echo DIFFERENT)
  for side in old new; do printf '%-18s %-4s %-9s %s\n' "$name" $side "$same" "${line[$side]}"; done
done
