#!/bin/bash
# Runs fuser-run --cpu on corpus scripts and checks their .npy output with
# NumPy (when the system python3 has it).
#   run_corpus.sh CORPUS small|large
# small: seed/*.py and visible/*_small.py; large: visible/*_large.py.
corpus=$1 which=$2
here=$(dirname "$0")
if [ "$which" = large ]; then scripts=("$corpus"/visible/*_large.py)
else scripts=("$corpus"/seed/*.py "$corpus"/visible/*_small.py); fi
have_numpy=0
/usr/bin/python3 -c "import numpy" 2>/dev/null && have_numpy=1
failed=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "${scripts[@]}"; do
  name=$(basename "$f" .py)
  if ! fuser-run --cpu --save "$out/$name" "$f" > "$out/$name.txt" 2>&1; then
    echo "FAILED $name:"; cat "$out/$name.txt"; failed=1; continue
  fi
  if [ $have_numpy = 1 ] && ! /usr/bin/python3 "$here/check_npy.py" "$out/$name" "$out/$name.txt" > /dev/null; then
    echo "FAILED $name: .npy files do not match"; failed=1; continue
  fi
  echo "ok $name: $(grep -c '^output #' "$out/$name.txt") outputs"
done
echo "ran ${#scripts[@]} scripts"
exit $failed
