#!/usr/bin/env bash
# memcheck-negative.sh: runs the whole negative suite (every invalid_*.mlir
# under -verify-diagnostics, every malformed input, every bad pipeline and
# command line) through valgrind's memcheck. Fails when memcheck reports an
# invalid read/write, a use of uninitialized memory or a definite leak, or
# when fuser-opt's exit status is not the expected one. Opt-in (10-20 s
# per run, 10-15 minutes in all on 2 cores); not part of CI. docs/testing.md has the
# last result and the ASan alternative.
#
#   bash scripts/memcheck-negative.sh            # builds ./build first
#   FUSER_OPT=path/to/fuser-opt bash scripts/memcheck-negative.sh
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FUSER_OPT:-}" ]; then
  bash scripts/build.sh >/dev/null || exit 1
  FUSER_OPT=${FUSER_BUILD_DIR:-build}/bin/fuser-opt
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MEMCHECK_RC=99
vg=(valgrind --error-exitcode=$MEMCHECK_RC --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite -q)   # add --track-origins=yes to investigate a report
runs=0 failures=0

# run EXPECTED_RC [STDIN_FILE|-] ARGS...: one fuser-opt run under memcheck
run() {
  local want=$1 input=$2; shift 2
  local rc
  if [ "$input" = - ]; then "${vg[@]}" "$FUSER_OPT" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  else "${vg[@]}" "$FUSER_OPT" "$@" >"$tmp/out" 2>"$tmp/err" <"$input"; fi
  rc=$?
  runs=$((runs + 1))
  if [ $rc -eq $MEMCHECK_RC ]; then
    echo "MEMCHECK ERROR: fuser-opt $*"; cat "$tmp/err"; failures=$((failures + 1))
  elif [ $rc -ne "$want" ]; then
    echo "UNEXPECTED EXIT $rc (want $want): fuser-opt $*"; tail -5 "$tmp/err"; failures=$((failures + 1))
  else
    echo "ok ($rc): fuser-opt $*"
  fi
}

# The dialect's negative tests, each chunk checked against its expectations.
for f in test/dialect/invalid_*.mlir; do run 0 - "$f" -split-input-file -verify-diagnostics; done
# A missing expectation must fail (exit 1) without memory errors.
run 1 - test/tools/Inputs/missing_expectation.mlir -split-input-file -verify-diagnostics
# Malformed inputs.
for f in test/tools/malformed_*.mlir test/tools/split_input_errors.mlir; do run 1 - "$f" -split-input-file; done
run 1 - test/tools/Inputs/truncated.mlir
run 1 test/tools/Inputs/truncated.mlir -
printf '\177ELF\002\001\377\376\200abc' >"$tmp/garbage.bin"
run 1 - "$tmp/garbage.bin"
printf 'module {\n  %%0 = \000\n}\n' >"$tmp/nul.mlir"
run 1 - "$tmp/nul.mlir"
run 1 - "$tmp/does-not-exist.mlir"
python3 -c "print('module attributes {fuser.a = ' + '[' * 20000 + ']' * 20000 + '} {}')" >"$tmp/deep.mlir"
run 1 - "$tmp/deep.mlir"
# Bad pipelines and command lines.
for p in 'builtin.module(' 'builtin.module(cse' 'func.func(cse)' '' 'builtin.module(cse) junk' \
         'builtin.module(canonicalize,,cse)' 'builtin.module(cse{' 'builtin.module(func.func{x=1}(cse))' \
         'builtin.module(fuser-nosuch)' 'builtin.module(no-such-pass)' 'builtin.module(fuser-verify{bogus=1})' \
         'builtin.module(fuser-verify{x})' 'builtin.module(canonicalize{nosuch=1})' 'builtin.module(fuser-verify(cse))'; do
  run 1 - test/tools/Inputs/empty_module.mlir --pass-pipeline="$p"
done
run 1 - test/tools/Inputs/empty_module.mlir --pass-pipeline="builtin.module($(python3 -c "print('a.b(' * 20000 + ')' * 20000)"))"
run 1 - --no-such-flag test/tools/Inputs/empty_module.mlir
run 1 - test/tools/Inputs/empty_module.mlir -o
run 1 - test/tools/Inputs/empty_module.mlir -o "$tmp/no-such-dir/out.mlir"
# A good pipeline with IR printing, for contrast (exercises the pass manager).
run 0 - test/dialect/seed_fusion_id1.mlir --pass-pipeline='builtin.module(fuser-verify, func.func(cse))' --mlir-print-ir-after-all

echo "memcheck-negative: $runs runs, $failures failures"
[ $failures -eq 0 ]
