/* lowering.h: from kernel functions to loops, GPU kernels, PTX and the CPU
 * JIT (docs/lowering.md describes the levels, the ABI and the schedule).
 *
 * Passes (registered by fuser_lowering_register_passes, usable in fuser-opt pipelines):
 *   fuser-lower-kernels   kernel functions -> loop-level func.func per variant
 *   fuser-kernels-to-gpu  loop-level funcs -> gpu.module/gpu.func (bare-pointer ABI)
 *                         + the launch plan as module attribute fuser.launches
 *   fuser-kernels-to-cpu  loop-level funcs -> C-interface funcs for the JIT;
 *                         removes the fuser-level functions */
#ifndef FUSER_LOWERING_LOWERING_H
#define FUSER_LOWERING_LOWERING_H

#include <stdbool.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds fuser-lower-kernels, fuser-kernels-to-gpu and fuser-kernels-to-cpu
 * to the pass registry (once; every tool calls it at start-up, and the
 * compile entry points below do too). */
void fuser_lowering_register_passes(void);
/* Adds the registered pipelines fuser-plan and fuser-to-ptx
 * (passes/named_pipeline.h); fuser_lowering_register_passes calls it. */
void fuser_lowering_register_pipelines(void);

/* Runs a textual pipeline (fuser and upstream passes, passes/pipeline.h) on
 * a builtin.module op, with the lowering's passes registered: the one place
 * the compiler, the CPU JIT and libfuser run a pipeline. On failure writes
 * "pipeline failed: TEXT" (or the parse error) into err. */
bool fuser_run_pipeline(MlirOperation module, const char *text, char *err, size_t errlen);

/* Whether op is a loop-level function (func.func with fuser.loops): what
 * fuser-lower-kernels makes of each variant, and what the CPU JIT calls and
 * fuser-kernels-to-gpu turns into kernels. */
bool fuser_is_loops_func(MlirOperation op);

/* Lowers one kernel function following its fuser.schedule (fuser-schedule). */
bool fuser_lower_kernel(MlirOperation func);
/* The same for a target: the row schedules' block reductions take a GPU
 * (gpu.shuffle, workgroup memory) or a CPU form (lowering/row_gen.h). */
bool fuser_lower_kernel_for(MlirOperation func, bool gpu);
/* The pointwise lowering: one loop-level function per variant of a
 * verified pointwise schedule (not necessarily the kernel's own: another
 * kind may append pointwise fallbacks), inserted after *after, which it
 * advances. */
bool fuser_lower_pointwise(MlirOperation func, MlirAttribute schedule, MlirOperation *after);

/* The upstream pipeline from gpu.module to PTX, for a chip ("sm_90"):
 * writes into buf (at least 512 bytes, plus the FUSER_LIBDEVICE path).
 * libdevice: the file FUSER_LIBDEVICE names if set (linked through
 * nvvm-attach-target's l= option); else the toolkit of CUDA_ROOT,
 * CUDA_HOME or CUDA_PATH; else CUDA_ROOT is set to the toolkit of the
 * first ptxas/nvcc on PATH or to /usr/local/cuda, the first that has
 * nvvm/libdevice/libdevice.10.bc. */
void fuser_gpu_to_ptx_pipeline(const char *chip, char *buf, size_t len);

/* The full pipeline from plan-level IR (kernel functions) to gpu.binary
 * ops holding PTX. */
void fuser_plan_to_ptx_pipeline(const char *chip, char *buf, size_t len);
/* The same with the vector variant's unroll (0: chosen per kernel) and the block size (defaults 0, 128). */
void fuser_plan_to_ptx_pipeline_with(const char *chip, int unroll, int block_size, char *buf, size_t len);

/* The plan passes that turn fusions into plans and kernel functions. */
#define FUSER_PLAN_PIPELINE \
  "builtin.module(fuser-specialize-shapes{empty-only=true}, fuser-remove-empty, fuser-hoist-reshape, fuser-alias-meta-ops, fuser-input-sizes, fuser-allocation-order, fuser-split-reductions, fuser-segment, fuser-fuse-inner-outer)"

/* Whether `module` holds fusions not planned yet (fuser.fusion without fuser.plan). */
bool fuser_module_needs_plan(MlirOperation module);

/* Compiles `module` in place: FUSER_PLAN_PIPELINE when needed, then the
 * PTX pipeline (its gpu.binary ops hold the PTX). False
 * with a message in err on failure (the located diagnostics go through the
 * context's handler). */
bool fuser_module_compile_to_ptx(MlirOperation module, const char *chip, int unroll, int block_size, char *err,
                                 size_t errlen);

/* The upstream pipeline from fuser-kernels-to-cpu output to LLVM dialect. */
const char *fuser_cpu_to_llvm_pipeline(void);

#ifdef __cplusplus
}
#endif
#endif
