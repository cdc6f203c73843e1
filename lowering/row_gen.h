/* row_gen.h: code generation of the row schedules (inner persistent and
 * inner reduce, passes/schedule_reduction.h) through the op builder.
 *
 * For a kernel whose reductions reduce the innermost dims of a row space
 * [rows..., cols...], every variant of its schedule becomes one loop-level
 * function `@<kernel>__<variant>` (attribute fuser.loops, as the pointwise
 * variants, plus fuser.row_kernel):
 *
 *   GPU form (target gpu): the body of one thread block. T threads per row,
 *   rows_per_block rows per block; thread t of row r holds the row's vectors
 *   t, t + T, ... (V of them, 16-byte loads) in registers (persistent) or
 *   strides over the row (looped). Each reduction, in program order: the
 *   thread's partial (a fixed pairwise tree over the vector lanes), a warp
 *   butterfly (gpu.shuffle xor), per-warp partials through a shared-memory
 *   buffer (a trailing `memref<NxT, #gpu.address_space<workgroup>>`
 *   argument, one per reduction: no write-after-read barrier), one
 *   gpu.barrier, and a butterfly over the row's warps: every thread holds
 *   the row's result, bitwise the same in every thread. The epilogue
 *   evaluates the results from the registers and stores them.
 *   fuser-kernels-to-gpu turns the workgroup arguments into attributions.
 *
 *   CPU form (target cpu): scf.parallel over blocks; inside, each phase is a
 *   scf.for over the block's threads writing per-thread partials to a
 *   memref.alloc (freed at the block's end), then the warp and block butterflies replayed in the same
 *   pairing order (the same bits as the GPU, up to fma contraction), then
 *   the epilogue's scf.for over threads.
 *
 * The cluster variants (`cluster` S > 1; row_cluster.h): S blocks per
 * row, each striding over its chunk (looped) or holding T x V vectors of it
 * (persistent), their partials combined through distributed shared memory
 * after each block reduction; their CPU form is the looped code with one
 * block per row. A persistent variant with `reload` loads its vectors
 * again in every pass and in the epilogue (each pass's values live in their
 * own memo scope) instead of holding them in registers across the passes.
 *
 * Launch (fuser.row_grid): grid = ceil(rows / rows_per_block) blocks of
 * T x rows_per_block threads (fuser.block_size), x blocks_per_row (S) for
 * the cluster variant. */
#ifndef FUSER_LOWERING_ROW_GEN_H
#define FUSER_LOWERING_ROW_GEN_H

#include <stdbool.h>

#include "lowering/builder.h"
#include "mlir-c/IR.h"
#include "passes/schedule_reduction.h"

/* Emits every variant of kernel `func`'s row schedule after *after (which
 * it advances). Returns false with *unsupported set when the kernel holds
 * something the row generator does not handle (the caller then lowers it
 * with the per-point generator); false otherwise only on a located error. */
bool fuser_row_kernel_lower(MlirOperation func, const fuser_reduction_schedule *s, bool gpu, MlirOperation *after,
                            bool *unsupported);

/* Whether loop-level function f is a row kernel (fuser.row_kernel). */
bool fuser_is_row_kernel(MlirOperation f);

/* fuser-kernels-to-gpu's conversion of a row kernel: the gpu.func at the
 * end of gmod (workgroup attributions, known_block_size), built with b;
 * returns its launch dictionary (with row_grid). */
MlirAttribute fuser_row_kernel_to_gpu(fb_builder *b, MlirOperation f, MlirOperation gmod);

#endif
