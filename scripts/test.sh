#!/usr/bin/env bash
# test.sh: installs what is missing, builds, and runs every test through
# ctest (lit is one ctest test, each C unit test another), then each fuzz
# target for a short budget under ASan+UBSan (scripts/fuzz-smoke.sh; skipped
# without libFuzzer). Exits non-zero on any failure.
#
# Quiet when all is well: each step's full output goes to a log under
# <build>/test-logs/ and is shown only when the step fails. The last lines
# are lit's counts (passed, failed, unsupported, ...) and ctest's. A missing
# corpus (../shared/corpus or $FUSER_CORPUS_DIR) is a loud warning: the
# tests that need it are then skipped, not run.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${FUSER_BUILD_DIR:-build}
logs="$build/test-logs"
mkdir -p "$logs"

# Runs a step with its output in a log; on failure shows the log's tail.
step() {
  local name=$1 log="$logs/$1.log"
  shift
  if ! "$@" > "$log" 2>&1; then
    echo "test.sh: $name failed; the end of $log:" >&2
    tail -n "${FUSER_TEST_LOG_LINES:-60}" "$log" >&2
    exit 1
  fi
}

step install-deps bash scripts/install-deps.sh
tail -n 1 "$logs/install-deps.log"
# CI builds libfuser.so too, for its install test (docs/libfuser.md);
# FUSER_SHARED_LIBRARY=OFF in the environment leaves it out.
export FUSER_CMAKE_ARGS="-DFUSER_SHARED_LIBRARY=${FUSER_SHARED_LIBRARY:-ON} ${FUSER_CMAKE_ARGS:-}"
step build bash scripts/build.sh
echo "build: ok ($build; log: $logs/build.log)"

corpus=$(sed -n 's/^config.fuser_corpus_dir = "\(.*\)"$/\1/p' "$build/test/lit.site.cfg.py" 2>/dev/null)
corpus_warning() {
  if [ -z "$corpus" ] || [ ! -d "$corpus" ]; then
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
    echo "!! WARNING: no corpus at '${corpus:-<unset>}': the tests that need the" >&2
    echo "!! nvFuser corpus are SKIPPED. Put it at ../shared/corpus or set" >&2
    echo "!! FUSER_CORPUS_DIR (then rerun; cmake reads it at configure time)." >&2
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
  fi
}
corpus_warning

echo "ctest: running (log: $logs/ctest.log) ..."
(cd "$build" && ctest -V --output-on-failure) > "$logs/ctest.log" 2>&1
rc=$?

if [ $rc -ne 0 ]; then
  echo "test.sh: FAILED. The failures (everything: $logs/ctest.log):" >&2
  bash scripts/test-summary.sh --failures "$logs/ctest.log" | head -n -2 >&2
fi
# every fuzz target briefly under ASan+UBSan (docs/fuzzing.md)
fuzz_rc=0
if bash scripts/fuzz-smoke.sh > "$logs/fuzz-smoke.log" 2>&1; then
  echo "fuzz: $(tail -n 1 "$logs/fuzz-smoke.log")"
else
  fuzz_rc=1
  echo "test.sh: fuzz-smoke FAILED; the end of $logs/fuzz-smoke.log:" >&2
  tail -n "${FUSER_TEST_LOG_LINES:-60}" "$logs/fuzz-smoke.log" >&2
fi
corpus_warning
bash scripts/test-summary.sh "$logs/ctest.log" | tail -n 2
[ $rc -ne 0 ] && exit $rc
exit $fuzz_rc
