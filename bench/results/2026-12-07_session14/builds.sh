#!/usr/bin/env bash
# Builds the two fuser-translate binaries prep2.sh compares this tree against:
#   /tmp/wt_base/build  6689f30, the start of session 14 (before the tile twins)
#   /tmp/wt_t/build     this checkout's HEAD with small tiles at any size and for `narrow`
#                       outputs too (SMALL_TILE_MIN_POINTS 1, no narrow exclusion): the .t1 rows
# About 5 minutes each on 2 cores.
#   bash bench/results/2026-12-07_session14/builds.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
build() { # DIR
  cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
  make -C "$1/build" -j"$(nproc)" fuser-translate > /dev/null
}
rm -rf /tmp/wt_base /tmp/wt_t && git worktree prune
git worktree add -f /tmp/wt_base 6689f30 > /dev/null
git worktree add -f /tmp/wt_t HEAD > /dev/null
sed -i 's/#define SMALL_TILE_MIN_POINTS ((int64_t)1 << 14)/#define SMALL_TILE_MIN_POINTS ((int64_t)1)/' /tmp/wt_t/passes/schedule_transpose.c
python3 - <<'PY'
p = '/tmp/wt_t/passes/schedule_transpose.c'
s = open(p).read()
old = """  for (int t = k->num_args; t < k->num_tensors; t++)
    if (p->narrow[t]) return false;
  return points >= SMALL_TILE_MIN_POINTS;"""
assert old in s, "small_tiles_pay changed: update builds.sh"
open(p, 'w').write(s.replace(old, "  return points >= SMALL_TILE_MIN_POINTS;"))
PY
build /tmp/wt_base
build /tmp/wt_t
ls -l /tmp/wt_base/build/bin/fuser-translate /tmp/wt_t/build/bin/fuser-translate
