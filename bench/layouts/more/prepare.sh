#!/usr/bin/env bash
# prepare.sh: the carry folder of one GPU command for the kept-back layouts
# (issue 15, bench/layouts/more): this build's artifacts of every script
# here and of the in-tree merged-tile tests (gpu/arts/: test/lowering/Inputs/
# layouts_{from_last,to_last,nchw_nhwc,from_last_padded}.py, for memcheck),
# the base build's of the same (base/arts/, FUSER_BASE_BUILD, default
# ../main/build) with the base tree's runtime sources (base/src/, `git
# archive` of FUSER_BASE_TREE, default ../main), the scripts for the peers
# (gpu/corpus/), peers.py, the DLPack header, and run.sh (bench/gpu/ab_run.sh
# on it: base and new alternating, then the peers named in PEERS, then
# memcheck aligned and misaligned). ONLY="name ..." narrows the scripts.
#   bash bench/layouts/more/prepare.sh CARRY      (e.g. /work/main/.carry/layouts3)
set -euo pipefail
cd "$(dirname "$0")/../../.."
c=${1:?carry folder}
base=${FUSER_BASE_BUILD:-../main/build}
tree=${FUSER_BASE_TREE:-../main}
rm -rf "$c" && mkdir -p "$c/gpu/arts" "$c/gpu/corpus" "$c/gpu/include/dlpack" "$c/base/arts" "$c/base/src" "$c/base/include/dlpack"
for s in bench/layouts/more/*.py test/lowering/Inputs/layouts_from_last.py test/lowering/Inputs/layouts_to_last.py \
         test/lowering/Inputs/layouts_nchw_nhwc.py test/lowering/Inputs/layouts_from_last_padded.py; do
  n=$(basename "$s" .py)
  [ "$n" = gen ] && continue
  case " ${ONLY:-$n} " in *" $n "*) ;; *) continue;; esac
  expected=--expected # the reference's values, for the check (not for the large twins: CPU time)
  case $n in *large*) expected="";; esac
  build/bin/fuser-translate --emit-artifact "$s" -o "$c/gpu/arts/$n.fart" $expected
  "$base/bin/fuser-translate" --emit-artifact "$s" -o "$c/base/arts/$n.fart" $expected
  case $s in bench/*) cp "$s" "$c/gpu/corpus/";; esac
done
git -C "$tree" archive HEAD | tar -x -C "$c/base/src"
cp ../shared/bench/peers.py ../shared/bench/nvfuser_torch.py "$c/gpu/"
cp /usr/include/dlpack/dlpack.h "$c/gpu/include/dlpack/"
cp /usr/include/dlpack/dlpack.h "$c/base/include/dlpack/"
cp bench/layouts/more/run.sh bench/layouts/more/call*.sh "$c/"
du -sh "$c"
