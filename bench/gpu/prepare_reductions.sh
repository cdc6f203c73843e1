#!/usr/bin/env bash
# prepare_reductions.sh: compile the reduction fusions into artifacts here
# (MLIR is here, not on the GPU machine) for bench/gpu/reductions.sh:
# the corpus' reduction scripts (rmsnorm, softmax, bias_grad), the pattern
# scripts of bench/reductions/patterns, and the row-length sweep
# (bench/reductions/make_scripts.py: RMSNorm and softmax, 256 to 262144
# bf16 columns, about 1 GB moved per case). Small fusions record the CPU
# reference's results (--expected) so the GPU run checks them.
# FILES (scripts, default the set above) replaces the first list; CHECK_N
# (row lengths) adds small checked cases of the sweep's patterns at those
# lengths (make_scripts.py --elems 2^20: few rows, the same schedule as the
# 1 GB case; artifacts check_<pattern>_n<N>, with --expected).
#   bash bench/gpu/prepare_reductions.sh [CORPUS_DIR] [CARRY_DIR] [SWEEP_N...]
set -euo pipefail
corpus=${1:-../shared/corpus}
carry=${2:-.carry/red}
shift 2 || true
sweep=${*:-256 1024 4096 16384 65536 262144}
translate=${FUSER_TRANSLATE:-build/bin/fuser-translate}
export CUDA_ROOT=${CUDA_ROOT:-/usr/local/cuda}
mkdir -p "$carry/arts" "$carry/corpus" "$carry/sweep" "$carry/include/dlpack"
cp /usr/include/dlpack/dlpack.h "$carry/include/dlpack/"
cp "$corpus/../bench/nvfuser_torch.py" "$corpus/../bench/peers.py" "$carry/"
cp bench/check_torch.py bench/gpu_lock.py bench/reductions/sweep_peers.py "$carry/"
# shellcheck disable=SC2206
files=(${FILES:-"$corpus"/visible/rmsnorm_*.py "$corpus"/visible/softmax_*.py "$corpus"/visible/bias_grad_*.py
       bench/reductions/patterns/*.py bench/reductions/large/*.py})
if [ -n "${CHECK_N:-}" ]; then
  # shellcheck disable=SC2086
  python3 bench/reductions/make_scripts.py "$carry/check" --elems 1048576 $CHECK_N
  for f in "$carry"/check/*.py; do
    mv "$f" "$carry/check/check_$(basename "$f")"
    files+=("$carry/check/check_$(basename "$f")")
  done
fi
for f in "${files[@]}"; do
  name=$(basename "$f" .py)
  cp "$f" "$carry/corpus/"
  expected=--expected
  case $name in *large*) expected="";; esac
  "$translate" --emit-artifact "$f" -o "$carry/arts/$name.fart" $expected || echo "prepare_reductions: $name does not compile" >&2
done
# shellcheck disable=SC2086
python3 bench/reductions/make_scripts.py "$carry/sweep" $sweep
for f in "$carry"/sweep/*.py; do
  "$translate" --emit-artifact "$f" -o "${f%.py}.fart"
done
du -sh "$carry"
