#!/usr/bin/env bash
# build.sh: configures and builds fuser in ./build (or $FUSER_BUILD_DIR).
# Used by test.sh and run-seed.sh; the parallelism follows the core count.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUSER_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=${FUSER_BUILD_TYPE:-RelWithDebInfo} ${FUSER_CMAKE_ARGS:-}
make -C "$build" -j"$(nproc)"
