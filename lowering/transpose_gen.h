/* transpose_gen.h: code generation of the transpose schedule's `tile`
 * variant (passes/schedule_transpose.h; notes in transpose_gen.c and
 * docs/lowering.md "Transpose tiles"). */
#ifndef FUSER_LOWERING_TRANSPOSE_GEN_H
#define FUSER_LOWERING_TRANSPOSE_GEN_H

#include <stdbool.h>

#include "lowering/kernel_gen.h"
#include "mlir-c/IR.h"
#include "passes/schedule_transpose.h"

/* Builds `func.func @<kernel>__tile(...)` after `after` for analyzed kernel
 * k under plan p: the GPU form (thread and block ids, workgroup buffers as
 * trailing arguments, barriers; fuser.row_kernel so fuser-kernels-to-gpu
 * keeps its block and grid) or the CPU form (threads as loops, alloca
 * buffers). Returns it, or a null op after a located error. */
MlirOperation fk_transpose_codegen(fk_kernel *k, const fk_codegen_options *o, const fuser_tile_plan *p, bool gpu,
                                   MlirOperation after);

#endif
