#!/usr/bin/env bash
# test.sh: installs what is missing, builds, and runs every test (lit is one
# ctest test, each C unit test another), then each fuzz target for a short
# budget (scripts/fuzz-smoke.sh). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
(cd "${FUSER_BUILD_DIR:-build}" && ctest --output-on-failure)
# every fuzz target briefly under ASan+UBSan (skipped without libFuzzer)
bash scripts/fuzz-smoke.sh
