#!/usr/bin/env bash
# run.sh: the GPU command for the kept-back layouts (prepared by
# bench/layouts/more/prepare.sh), run from the checkout's root as
# `bash CARRY/run.sh`: bench/gpu/ab_run.sh (base and new artifacts
# alternating, AB_ROUNDS rounds; then the peers of PEERS; then memcheck of
# every small script and in-tree layout test, aligned and misaligned by one
# element), everything in $OUT/results.tgz.
set -uo pipefail
c=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
AB_ROUNDS=${AB_ROUNDS:-3} AB_CALLS=${AB_CALLS:-20} PEERS_TIMEOUT=${PEERS_TIMEOUT:-100} MEMCHECK_TIMEOUT=${MEMCHECK_TIMEOUT:-90} \
  timeout "${RUN_TIMEOUT:-420}" bash bench/gpu/ab_run.sh "$c" "${OUT:-/tmp/out}"
