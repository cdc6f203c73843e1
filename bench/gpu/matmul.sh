#!/usr/bin/env bash
# matmul.sh: the matmul scripts on the GPU through cuBLASLt (issue 16):
# each artifact checked against the CPU reference recorded at compile time
# (the worst ulp printed; cuBLASLt sums K in its own order: bf16/f16
# results came out bit-identical on the H200, f32 ones up to 44 ulp off where
# a sum cancels, so 64 ulp pass),
# once with cuBLASLt found by the default search and once through
# FUSER_CUBLASLT; then one 8192^3 bf16 matmul timed (fuser-run --bench) and
# torch.matmul on the same shape in the same command (median of 20 after 3
# warm-up, CUDA events).
#   bash bench/gpu/matmul.sh CARRY_DIR [SRC_ROOT]
# CARRY_DIR holds arts/{matmul_2d,matmul_batched,linear_bias,matmul_epilogue,
# matmul_8192_large}.fart (fuser-translate --emit-artifact, --expected for
# the small ones) and include/dlpack/dlpack.h.
set -uo pipefail
carry=$1
src=${2:-.}
out=$carry/build
FUSER_DLPACK_INCLUDE="$carry/include" bash "$src/scripts/build-runtime.sh" "$out" > "$carry/build.log" 2>&1 ||
  { tail -20 "$carry/build.log"; exit 1; }
run=$out/fuser-run
lib=${FUSER_CUBLASLT_PATH:-/usr/local/cuda/lib64/libcublasLt.so.13}
for name in matmul_2d matmul_batched linear_bias matmul_epilogue; do
  art=$carry/arts/$name.fart
  echo "== $name (default search)"
  timeout 60 "$run" --artifact "$art" --check | grep -E "error|output|check"
  echo "== $name (FUSER_CUBLASLT=$lib, --check-ulp 64)"
  FUSER_CUBLASLT=$lib timeout 60 "$run" --artifact "$art" --check --check-ulp 64 > /tmp/mm.txt 2>&1 &&
    echo "PASS $name" || { grep -E "error|check" /tmp/mm.txt; echo "FAILED $name"; }
done
echo "== 8192^3 bf16"
FUSER_CUBLASLT=$lib timeout 120 "$run" --artifact "$carry/arts/matmul_8192_large.fart" --bench 20 --name matmul_8192_bf16 |
  grep -E "error|^\{"
py=/opt/torch/.venv/bin/python3
[ -x "$py" ] || py=python3
timeout 120 "$py" - <<'PY'
import torch, statistics
a = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
b = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
for _ in range(3): torch.matmul(a, b)
torch.cuda.synchronize()
ts = []
for _ in range(20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); torch.matmul(a, b); e.record(); e.synchronize()
    ts.append(s.elapsed_time(e) * 1e3)
us = statistics.median(ts)
print('{"case": "torch.matmul 8192 bf16", "us": %.1f, "TFLOPs": %.0f, "torch": "%s"}' % (us, 2 * 8192**3 / us / 1e6, torch.__version__))
PY
