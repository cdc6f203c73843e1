#!/usr/bin/env bash
# Prepares the carry folder of bench/layouts/gpu_run.sh (issue 15): this
# build's artifacts of every pattern (arts/), the base build's of the
# transposes (base/, FUSER_BASE_BUILD, default ../main/build), the scripts
# for the peers (corpus/), peers.py and the DLPack header.
#   bash bench/layouts/prepare.sh CARRY   (e.g. /work/main/.carry/layouts)
set -euo pipefail
cd "$(dirname "$0")/../.."
c=${1:?carry folder}
base=${FUSER_BASE_BUILD:-../main/build}
rm -rf "$c" && mkdir -p "$c/arts" "$c/base" "$c/corpus" "$c/include/dlpack"
for s in bench/layouts/*.py; do
  n=$(basename "$s" .py)
  build/bin/fuser-translate --emit-artifact "$s" -o "$c/arts/$n.fart"
  cp "$s" "$c/corpus/"
done
for n in transpose_large transpose_add_large; do
  "$base/bin/fuser-translate" --emit-artifact "bench/layouts/$n.py" -o "$c/base/$n.fart"
done
cp ../shared/bench/peers.py ../shared/bench/nvfuser_torch.py "$c/"
cp /usr/include/dlpack/dlpack.h "$c/include/dlpack/"
cp bench/layouts/gpu_run.sh "$c/run.sh"
