/* pipelines.c: the pipeline texts of the lowering (lowering.h). Each piece
 * was found necessary by a failing case (../shared/GUIDE.md §5). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lowering/lowering.h"

/* gpu-module-to-binary finds libdevice (math.exp -> __nv_expf) through
 * CUDA_ROOT/CUDA_HOME/CUDA_PATH only: without them the PTX keeps calls to
 * undefined __nv_* functions and ptxas rejects it. Point CUDA_ROOT at the
 * toolkit when none is set. */
static void ensure_cuda_root(void) {
  if (getenv("CUDA_ROOT") || getenv("CUDA_HOME") || getenv("CUDA_PATH")) return;
  if (access("/usr/local/cuda/nvvm/libdevice", R_OK) == 0) setenv("CUDA_ROOT", "/usr/local/cuda", 0);
}

void fuser_gpu_to_ptx_pipeline(const char *chip, char *buf, size_t len) {
  ensure_cuda_root();
  snprintf(buf, len,
           "nvvm-attach-target{chip=%s features=+ptx80 O=3}, "
           "gpu.module(expand-strided-metadata, lower-affine, convert-scf-to-cf, "
           "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv}, canonicalize, cse, reconcile-unrealized-casts), "
           "gpu-module-to-binary{format=isa}",
           chip);
}

void fuser_plan_to_ptx_pipeline(const char *chip, char *buf, size_t len) {
  fuser_plan_to_ptx_pipeline_with(chip, 0, 128, buf, len);
}

void fuser_plan_to_ptx_pipeline_with(const char *chip, int unroll, int block_size, char *buf, size_t len) {
  char tail[768];
  fuser_gpu_to_ptx_pipeline(chip, tail, sizeof tail);
  snprintf(buf, len,
           "builtin.module(fuser-vectorize, fuser-lower-kernels{unroll=%d}, fuser-kernels-to-gpu{block-size=%d}, %s)",
           unroll, block_size, tail);
}

const char *fuser_cpu_to_llvm_pipeline(void) {
  return "builtin.module(func.func(canonicalize, cse, arith-expand{include-bf16=true}), convert-math-to-llvm, convert-math-to-libm, "
         "convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)";
}
