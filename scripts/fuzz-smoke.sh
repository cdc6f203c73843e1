#!/usr/bin/env bash
# fuzz-smoke.sh: runs every libFuzzer target for a short fixed budget under
# ASan+UBSan (docs/fuzzing.md). Called by test.sh after ctest; skipped, with
# a note, when clang-14's fuzzer runtime is missing. A finding (crash,
# sanitizer report, or a target's own check) fails the script and leaves the
# input in $FUSER_FUZZ_DIR/crashes/<target>/.
#   FUSER_FUZZ_SECONDS   budget per target (default 20)
#   FUSER_FUZZ_DIR       the instrumented build (default build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${FUSER_FUZZ_SECONDS:-20}
dir=${FUSER_FUZZ_DIR:-build-fuzz}
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' > "$probe/t.c"
if ! command -v clang-14 > /dev/null || ! clang-14 -fsanitize=fuzzer,address,undefined "$probe/t.c" -o "$probe/t" 2> /dev/null; then
  echo "fuzz-smoke: clang-14 with libFuzzer (libclang-rt-14-dev) not found: fuzz targets skipped"
  exit 0
fi
CC=clang-14 CXX=clang++-14 cmake -S . -B "$dir" -DFUSER_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
targets="fuzz_import fuzz_mlir fuzz_artifact fuzz_case"
make -C "$dir" -j"$(nproc)" $targets > "$dir/fuzz-build.log" 2>&1 || { tail -30 "$dir/fuzz-build.log"; exit 1; }
status=0
for t in $targets; do
  kind=${t#fuzz_}
  seeds="$dir/smoke-seeds/$kind"
  mkdir -p "$seeds" "$dir/crashes/$kind" "$dir/smoke-corpus/$kind"
  case $kind in # seeds from the tree: the inputs each reader was written for
  import) cp test/Inputs/*.py "$seeds/" ;;
  mlir) find test -name '*.mlir' -size -16k -not -path '*/Output/*' | head -200 | while read -r f; do cp "$f" "$seeds/$(echo "$f" | tr / _)"; done ;;
  artifact) cp test/driver/Inputs/*.fart "$seeds/" ;;
  case) printf 'inputs 1\ntensor f32 1 2 1 0 2\n\0\0\200?\0\0\0@\noutputs 1\ntensor f32 1 2\n\0\0\0\0\0\0\360?\0\0\0\0\0\0\0@\n' > "$seeds/one.case" ;;
  esac
  echo "fuzz-smoke: $t for ${secs}s"
  if ! "$dir/bin/$t" -max_total_time="$secs" -max_len=16384 -timeout=60 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$dir/crashes/$kind/" "$dir/smoke-corpus/$kind" "$seeds" > "$dir/fuzz-$kind.log" 2>&1; then
    echo "fuzz-smoke: $t FOUND A FAILURE (input in $dir/crashes/$kind/):"
    grep -E 'fuzz finding|ERROR|SUMMARY' "$dir/fuzz-$kind.log" | head -5
    status=1
  else
    grep -E 'stat::number_of_executed_units' "$dir/fuzz-$kind.log" | sed "s/^/fuzz-smoke: $t /"
  fi
done
# fuzz_mlir recreates its MLIR context every 2000 inputs; an hour-long run once
# ended in a LeakSanitizer report from that (docs/fuzzing.md). Here the context
# is recreated every 2nd input, 60 times, with leak detection on.
echo "fuzz-smoke: fuzz_mlir with a fresh context every 2 inputs (leak check)"
leak_corpus=$(mktemp -d)
if ! FUSER_FUZZ_CONTEXT_RUNS=2 "$dir/bin/fuzz_mlir" -runs=120 -detect_leaks=1 -max_len=16384 -timeout=60 -rss_limit_mb=3072 \
    -artifact_prefix="$dir/crashes/mlir/" "$leak_corpus" "$dir/smoke-seeds/mlir" > "$dir/fuzz-mlir-leak.log" 2>&1; then
  echo "fuzz-smoke: fuzz_mlir's context recreation FOUND A FAILURE (input in $dir/crashes/mlir/):"
  grep -E 'fuzz finding|ERROR|SUMMARY' "$dir/fuzz-mlir-leak.log" | head -5
  status=1
fi
rm -rf "$leak_corpus"
exit $status
