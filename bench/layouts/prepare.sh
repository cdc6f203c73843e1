#!/usr/bin/env bash
# Prepares the carry folder of bench/layouts/gpu_run.sh (issue 15): this
# build's artifacts of every pattern and of the shifted-load tests (arts/),
# the base build's of the patterns named in BASE (base/; FUSER_BASE_BUILD,
# default ../main/build), the scripts for the peers (corpus/), peers.py, the
# DLPack header, this build's runtime tool (bin/fuser-run, rebuilt there when
# it does not run) and, when SWEEP_BUILDS names builds (dir:tag ...), the
# transpose sizes of SWEEP_SIZES compiled by each (sweep/, e.g. a build
# with the tile variant forced on and one with it off). Also:
#   EXTRA="name ..."      corpus scripts (../shared/corpus/*/) beside the
#                         patterns: arts/, corpus/ (peers) and BASE may name them;
#   OPTIONS="name:--opt[,--opt] ..."  more artifacts of a pattern compiled with
#                         other options, arts/<name>__<opts without dashes>.fart
#                         (e.g. permute_large:--unroll=1, the rows variant's unroll);
#   PTX="name ..."        the 32-bit index PTX module of this build and the
#                         base build (ptx/), for their SASS on the GPU machine;
#   OLD_BUILD=dir OLD_SRC=dir OLD="name ..."  an old build's artifacts of the
#                         named scripts (old/arts/) with that commit's runtime
#                         sources (old/src/, a `git archive`), timed by
#                         gpu_run.sh in turns with this build's (REPEAT rounds).
#   bash bench/layouts/prepare.sh CARRY   (e.g. /work/main/.carry/layouts2)
set -euo pipefail
cd "$(dirname "$0")/../.."
c=${1:?carry folder}
base=${FUSER_BASE_BUILD:-../main/build}
rm -rf "$c" && mkdir -p "$c/arts" "$c/base" "$c/sweep" "$c/corpus" "$c/include/dlpack" "$c/bin"
script_of() { # a pattern's or corpus script's path
  if [ -f "bench/layouts/$1.py" ]; then echo "bench/layouts/$1.py"; else ls ../shared/corpus/*/"$1.py"; fi
}
extra=""
for n in ${EXTRA:-}; do extra="$extra $(script_of "$n")"; done
for s in bench/layouts/*.py test/lowering/Inputs/shift_*.py test/lowering/Inputs/layouts_rows_*.py test/lowering/Inputs/store_shift_*.py $extra; do
  n=$(basename "$s" .py)
  expected=--expected # the reference's values, for --check (not for the large twins: CPU time)
  case $n in *large*) expected="";; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$c/arts/$n.fart" $expected
  case $s in bench/*|../shared/*) cp "$s" "$c/corpus/";; esac
done
for no in ${OPTIONS:-}; do
  n=${no%%:*} opts=${no#*:}
  expected=--expected
  case $n in *large*) expected="";; esac
  # shellcheck disable=SC2046
  build/bin/fuser-translate --emit-artifact "$(script_of "$n")" -o "$c/arts/${n}__$(echo "$opts" | tr -d '=,-').fart" $expected $(echo "$opts" | tr ',' ' ')
done
for n in ${BASE:-two_inputs_large transpose_add_small}; do
  "$base/bin/fuser-translate" --emit-artifact "$(script_of "$n")" -o "$c/base/$n.fart"
done
for n in ${PTX:-}; do # the PTX of this build and the base build, for SASS (cuobjdump) there
  mkdir -p "$c/ptx"
  build/bin/fuser-translate --emit-ptx "$(script_of "$n")" --binary=fuser_kernels_i32 -o "$c/ptx/${n}_new.ptx"
  "$base/bin/fuser-translate" --emit-ptx "$(script_of "$n")" --binary=fuser_kernels_i32 -o "$c/ptx/${n}_base.ptx"
done
if [ -n "${OLD:-}" ]; then
  mkdir -p "$c/old/arts" "$c/old/src"
  cp -r "${OLD_SRC:?OLD_SRC: the old sources}/." "$c/old/src/"
  for n in $OLD; do
    expected=--expected
    case $n in *large*) expected="";; esac
    "${OLD_BUILD:?OLD_BUILD: the old build}/bin/fuser-translate" --emit-artifact "$(script_of "$n")" -o "$c/old/arts/$n.fart" $expected
  done
fi
for bt in ${SWEEP_BUILDS:-}; do
  b=${bt%%:*} tag=${bt##*:}
  for rc in ${SWEEP_SIZES:-200x328 512x512 1024x1024 2048x2048}; do
    r=${rc%x*} k=${rc#*x}
    sed -e "s/(200, 328)/($r, $k)/" -e "s/(328, 200)/($k, $r)/" bench/layouts/transpose_add_small.py > "$c/sweep/t.py"
    "$b/bin/fuser-translate" --emit-artifact "$c/sweep/t.py" -o "$c/sweep/transpose_add_${rc}_$tag.fart"
  done
  rm -f "$c/sweep/t.py"
done
cp ../shared/bench/peers.py ../shared/bench/nvfuser_torch.py "$c/"
cp /usr/include/dlpack/dlpack.h "$c/include/dlpack/"
bash scripts/build-runtime.sh build-runtime > /dev/null && cp build-runtime/fuser-run "$c/bin/"
cp bench/layouts/gpu_run.sh "$c/run.sh"
du -sh "$c"
