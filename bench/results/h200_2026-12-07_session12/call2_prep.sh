#!/usr/bin/env bash
# The carries of call2.sh: .carry/c12 (the columns form against the commit before it, and
# the tiles at any size, merged into one A/B; memcheck's artifacts; the ragged tile's PTX)
# and .carry/py12 (the binding of this tree). Needs /tmp/h12/build (the commit before the
# columns form) and /tmp/tile0/build (this tree with TILE_MIN_POINTS 1).
#   bash bench/results/h200_2026-12-07_session12/call2_prep.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/h200_2026-12-07_session12
bash $D/tile0_prep.sh > /dev/null
bash $D/cols_prep.sh > /dev/null
rm -rf /tmp/merge && mkdir -p /tmp/merge/c /tmp/merge/t
xz -dc .carry/c12/ab.tar.xz | tar xf - -C /tmp/merge/c
xz -dc .carry/t0/ab.tar.xz | tar xf - -C /tmp/merge/t
for side in base new; do
  for f in /tmp/merge/t/ab/$side/*.fart; do n=$(basename "$f" .fart); mv "$f" "/tmp/merge/c/ab/$side/$n.t0.fart"; done
  sed -E "s|^([^ ]+) (BASE\|NEW)/([^ ]+)\.fart|\1.t0 \2/\3.t0.fart|" /tmp/merge/t/ab/$side.manifest >> /tmp/merge/c/ab/$side.manifest
done
tar cf - -C /tmp/merge/c ab | xz -T2 -6 > .carry/c12/ab.tar.xz
bash $D/mc_prep.sh > /dev/null
# the columns form on small tiles too: the tiles-at-any-size build's small transposes
for f in /tmp/merge/c/ab/new/*_small.t0.fart; do n=$(basename "$f" _small.t0.fart); cp "$f" ".carry/c12/mc/arts/${n}_t0_small.fart"; done
build/bin/fuser-translate --emit-ptx bench/layouts/more/tadd_ragged_bf16_large.py --binary=fuser_kernels_i32 -o .carry/c12/ragged.ptx
bash bench/gpu/python_run.sh prepare .carry/py12 > /dev/null
cp ../shared/bench/nvfuser_torch.py .carry/py12/
wc -l /tmp/merge/c/ab/new.manifest; ls .carry/c12/mc/arts | wc -l; du -sh .carry/c12 .carry/py12
