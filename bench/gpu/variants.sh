#!/usr/bin/env bash
# variants.sh: the lowering's tuning knobs measured on the GPU. Each case is
# a corpus script compiled with some fuser-translate compile options
# (--unroll, --block-size, --specialize-shapes); the artifacts are made here
# and timed on the GPU machine with the runtime alone (fuser-run --artifact
# --bench), one JSON line per case with the options in its name.
#   bash bench/gpu/variants.sh prepare [CORPUS_DIR] [CARRY_DIR]   (here)
#   bash bench/gpu/variants.sh run CARRY_DIR OUT_DIR              (GPU machine,
#                                          after build-runtime.sh, see run_ours.sh)
set -euo pipefail
mode=$1
# script name | options, one case per line
cases="gelu_tanh_large|--unroll=1
gelu_tanh_large|--unroll=2
gelu_tanh_large|--unroll=8
gelu_tanh_large|--specialize-shapes
swiglu_large|--unroll=4
rope_qkv_large|--unroll=4
seed_fusion_id0|--specialize-shapes
seed_fusion_id1|--specialize-shapes"
if [ "$mode" = prepare ]; then
  corpus=${2:-../shared/corpus}
  carry=${3:-.carry/gpu}
  mkdir -p "$carry/variants"
  rm -f "$carry"/variants/*.fart
  while IFS='|' read -r name opts; do
    f=$(ls "$corpus"/*/"$name".py)
    tag=$(echo "$name $opts" | tr -s ' =-' '_' | sed 's/_$//')
    # shellcheck disable=SC2086
    build/bin/fuser-translate --emit-artifact "$f" -o "$carry/variants/$tag.fart" $opts
  done <<< "$cases"
  ls "$carry/variants"
else
  carry=$2
  out=$3
  for art in "$carry"/variants/*.fart; do
    tag=$(basename "$art" .fart)
    timeout 120 build-runtime/fuser-run --artifact "$art" --bench 30 --name "$tag" | grep '^{' >> "$out/variants.jsonl" ||
      echo "FAILED $tag" >> "$out/log.txt"
  done
fi
