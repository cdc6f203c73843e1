#!/usr/bin/env bash
# test-summary.sh CTEST_LOG: the closing lines of scripts/test.sh, read from
# the output of `ctest -V` (lit runs inside it with -sv, so its summary
# lines come prefixed by ctest's test number: "1:   Passed     : 140 (96.55%)").
#   lit:   140 passed, 0 failed, 9 unsupported, 0 skipped
#   ctest: 100% tests passed, 0 tests failed out of 23
# With --failures it first prints lit's failure reports (40 lines each),
# lit's list of failed tests and ctest's.
set -uo pipefail
failures=false
if [ "${1:-}" = --failures ]; then failures=true; shift; fi
log=$1
unprefixed() { sed -n -E 's/^[0-9]+: //p' "$log"; }
if $failures; then
  unprefixed | awk '/^\*+ TEST .* FAILED \*+$/ {show=1; n=0} show && n < 40 {print; n++} /^\*+$/ {show=0}'
  unprefixed | sed -n '/^Failed Tests (/,/^$/p'
  sed -n '/^The following tests FAILED:/,$p' "$log"
fi
# lit's "  Name : N (P%)" lines after "Total Discovered Tests:", as "name|N"
categories='Passed|Passed With Retry|Failed|Unsupported|Skipped|Excluded|Expectedly Failed|Unexpectedly Passed|Unresolved|Timed Out'
counts=$(unprefixed | sed -n '/^Total Discovered Tests:/,/^[^ ]/p' |
  sed -n -E "s/^ +($categories) *: *([0-9]+).*/\\1|\\2/p" | tr 'A-Z' 'a-z')
if unprefixed | grep '^Total Discovered Tests:' > /dev/null; then
  lit=$(printf '%s\n' "$counts" | awk -F'|' '
    NF == 2 { if (!($1 in n)) keys[++count] = $1; n[$1] += $2 }
    END {
      out = sprintf("%d passed, %d failed, %d unsupported, %d skipped", n["passed"], n["failed"], n["unsupported"], n["skipped"])
      for (i = 1; i <= count; i++) {
        k = keys[i]
        if (k != "passed" && k != "failed" && k != "unsupported" && k != "skipped") out = out sprintf(", %d %s", n[k], k)
      }
      print out
    }')
else
  lit="no summary (see $log)"
fi
ctest_line=$(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1)
echo "lit:   $lit"
echo "ctest: ${ctest_line:-no summary (see $log)}"
