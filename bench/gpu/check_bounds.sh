# check_bounds.sh (sourced): how close an artifact's GPU outputs must be to
# the CPU reference recorded at compile time, one rule for every GPU script
# that checks (final_run.sh, ab_run.sh). `check_args NAME` prints fuser-run's
# flags: none for large fusions (no recorded reference), else --check with
# the bound the script's arithmetic allows on the GPU.
check_args() {
  case $1 in
  *large*) echo "";;
  # sums in another order (1 ulp)
  rmsnorm*|softmax*) echo "--check --check-ulp 1";;
  # libdevice's documented f32 errors (up to 4 ulp, docs/frontend.md)
  math_ops) echo "--check --check-ulp 4";;
  # erfinv/erfcinv/lgamma: libdevice's documented errors (lgammaf 6 ulp, f64 erfcinv 6)
  # plus glibc's lgammaf in the reference (docs/frontend.md)
  special_math) echo "--check --check-ulp 8";;
  # normal values through libdevice's logf/sinf/cosf in Box-Muller (bench/gpu/rng.sh)
  random_*) echo "--check --check-ulp 5";;
  # var/welford: a reduction's sums in another order (issue 13's 2 ulp); index_ops and
  # stride_order: an exp (CUDA's expf: 2 ulp, the CUDA C Programming Guide's table)
  var|welford|index_ops|stride_order) echo "--check --check-ulp 2";;
  # cuBLASLt sums K in its own order (docs/runtime.md, "Matmul segments"): bf16/f16
  # results were bit-identical on the H200, f32 ones up to 44 ulp off where sums cancel
  matmul_*|linear_*) echo "--check --check-ulp 64";;
  # host_scalars: its per-point kernel sums rows in sequence in f32, the reference in double;
  # x - mean cancels the mean's 1 ulp up to 72 ulp (H200, session 4; test/frontend/scripts.test)
  host_scalars) echo "--check --check-ulp 128";;
  *) echo "--check";;
  esac
}
