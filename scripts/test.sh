#!/usr/bin/env bash
# test.sh: installs what is missing, builds, and runs every test (lit is one
# ctest test, each C unit test another). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# CI builds libfuser.so too, for its install test (docs/libfuser.md);
# FUSER_SHARED_LIBRARY=OFF in the environment leaves it out.
export FUSER_CMAKE_ARGS="-DFUSER_SHARED_LIBRARY=${FUSER_SHARED_LIBRARY:-ON} ${FUSER_CMAKE_ARGS:-}"
bash scripts/build.sh
cd "${FUSER_BUILD_DIR:-build}"
ctest --output-on-failure
