#!/usr/bin/env bash
# build_harness.sh: one side of an A/B on the GPU machine: the runtime of
# SRC (scripts/build-runtime.sh, into OUT) and the measuring harness
# (HARNESS's tools/fuser-run: --artifact, --serve) compiled against SRC's
# runtime headers and library, as OUT/fuser-run-ab. Both sides of
# host_ab.sh and ab_run.sh use this tree's harness, so only the runtime and
# the artifacts differ between them (the baseline's own fuser-run has no
# --serve).
#   bash bench/gpu/build_harness.sh SRC DLPACK_INCLUDE OUT [HARNESS]
set -euo pipefail
src=$(cd "$1" && pwd) inc=$(cd "$2" && pwd) out=$3 harness=$(cd "${4:-$(dirname "$0")/../..}" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$src" && FUSER_DLPACK_INCLUDE="$inc" bash scripts/build-runtime.sh "$out")
# The harness's headers first, so SRC's copies of tools/fuser-run do not
# shadow them. driver/tensor_io.c (the host-side checksums, printing and
# .npy files of outputs copied back: not part of a call) is the harness's
# too: f1c0792's walked a whole output for each of the 8 values printed,
# 10 s of a 10.7 s run of a 1 GB output; linked before the library, SRC's
# copy is not pulled in.
tmp=$(mktemp -d)
mkdir -p "$tmp/tools" "$tmp/driver"
cp -r "$harness/tools/fuser-run" "$tmp/tools/"
cp "$harness/driver/tensor_io.c" "$harness/driver/tensor_io.h" "$tmp/driver/"
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$tmp" -I"$src" -isystem "$inc" \
  "$tmp/tools/fuser-run/runtime_only_main.c" "$tmp/tools/fuser-run/artifact_run.c" "$tmp/tools/fuser-run/serve.c" \
  "$tmp/driver/tensor_io.c" "$out/libfuser_runtime.a" -ldl -lpthread -lm -o "$out/fuser-run-ab"
rm -rf "$tmp"
echo "build_harness: $out/fuser-run-ab ($src's runtime, $harness's harness)"
