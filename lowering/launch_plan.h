/* launch_plan.h: the kernel lowering's launch records, in kernel terms,
 * read from a module after the PTX pipeline (fuser-kernels-to-gpu puts the
 * module attribute `fuser.launches`; gpu-module-to-binary the PTX) and
 * written in a plain text form the driver reads without MLIR. For the plan
 * they are an interchange: fuser-plan-launches (plan_launch_ops.c) turns
 * them into the plan's fuser.launch ops and removes them;
 * --emit-ptx/--launch-plan and ptx_text read them before that. (The CPU
 * has no records: the CPU plan runs the plan's launch ops.)
 *
 * Per kernel variant:
 *   entry      the PTX entry name, e.g. "rope_k0__vector", and
 *   binary     the gpu.binary (one PTX module per index width) holding it:
 *              the record's `entry = @fuser_kernels_i32::@rope_k0__vector`
 *   kernel     the kernel function of the plan (func.call target): `kernel = @rope_k0`
 *   variant    its name, for messages, dumps and a forced variant
 *   params     in order: ptr(t) one pointer per tensor, then size(t,d),
 *              stride(t,d) (elements) and scalar(t) by value; tensor t < num_args
 *              is kernel argument t, t >= num_args is result t - num_args.
 *              Sizes and strides are u64 (param_bits, 64 in every variant, so
 *              all variants of a kernel take the same parameters);
 *              index_bits is the width of the kernel's index math.
 *   threads    max(ceil((n / W) / unroll), n mod W) for n points of the
 *              iteration space (the product of result 0's sizes);
 *              grid = ceil(threads / block_size) blocks of block_size threads
 *   row_grid   row kernels (lowering/row_gen.h) instead: grid =
 *              ceil(rows / rows_per_block), rows the product of `dims`
 *              sizes of tensor `tensor` from dim `first`; with `tile` T and
 *              `tile_sides` (transpose tiles, lowering/transpose_gen.h; one
 *              entry per dim: 1 or 2 for the tile's sides, 0 otherwise) each
 *              side counts ceil(E / T), E the product of its dims' sizes,
 *              the other dims their sizes: a block per tile;
 *              with `blocks_per_row` S > 1 (the row schedules' cluster
 *              variant) grid = rows x S: S blocks per row, one cluster;
 *              with `skip` [a, b) (the outer persistent schedule: result 0
 *              has the row space's shape) dims a..b-1 are not counted
 *   conditions all must hold to use this variant; try the variants of a
 *              kernel in order, the last one (scalar) has none.
 *
 * Text form (fuser_launch_plan_write), one record per variant:
 *   launch <entry> binary <binary> kernel <kernel> variant <v> width <W> unroll <U> index_bits <b> param_bits <p> block <B> num_args <N>
 *   row_grid <tensor> <first> <dims> <rows_per_block> [blocks_per_row <S> | skip <a> <b>]   (row kernels only)
 *   param ptr <t> | param size <t> <d> | param stride <t> <d> | param scalar <t> |
 *   param check   (the index flag: kernels with index ops, kernel_gen.h)
 *   condition align <t> <bytes> | condition stride <t> <d> <multiple> |
 *   condition extent <t> <d> <multiple> | condition index32 |
 *   condition merge <t> <d> <inner>   (stride(t,d) == stride(t,inner) * size(t,inner))
 *   ptx <bytes>\n<exactly that many bytes of PTX>\n  (the binary's whole PTX, repeated per entry)
 *   end */
#ifndef FUSER_LOWERING_LAUNCH_PLAN_H
#define FUSER_LOWERING_LAUNCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowering/kernel_gen.h"
#include "mlir-c/IR.h"
#include "passes/conditions.h"

/* A condition of a variant: passes/conditions.h's, read by its reader. */
typedef fk_condition fuser_launch_condition;

#define FUSER_LAUNCH_MAX_CONDITIONS 64

typedef struct {
  char entry[160], binary[64], kernel[128], variant[16];
  int vector_width, unroll, index_bits, param_bits, block_size, num_args;
  int num_params;
  fk_param params[FK_MAX_PARAMS];
  int grid_tensor, grid_first, grid_dims, rows_per_block; /* row_grid; grid_tensor -1: the threads formula */
  /* row_grid of a transpose tile kernel (grid_tile 0: none): the dims q of
   * side 1 and of side 2 (grid_tile_side[q - grid_first]; 0: a dim of its
   * own) are each one extent, the product of their sizes, that counts
   * ceil(extent / grid_tile) blocks: a merged tile's group of dims is one side */
  int grid_tile;
  int8_t grid_tile_side[FK_R];
  int blocks_per_row; /* row_grid: blocks (one cluster) per row, 1 but for the cluster variant */
  int grid_skip[2];   /* row_grid: dims [grid_skip[0], grid_skip[1]) not counted (empty: none) */
  int num_conditions;
  fuser_launch_condition conditions[FUSER_LAUNCH_MAX_CONDITIONS];
  char *ptx; /* owned, NUL-terminated; NULL before gpu-module-to-binary */
  size_t ptx_len;
} fuser_launch;

/* Reads every launch of `module` in order. Returns the count (0 if none)
 * and a malloc'ed array in *out (free with fuser_launch_plan_free), or -1
 * after a located error when a launch record does not read (*out NULL):
 * a field of the wrong form, a symbol naming no function of its kind, an
 * entry function (still in the module) taking another number of arguments
 * than the record has parameters, or a num_args or tensor index that does
 * not fit the kernel function. */
int fuser_launch_plan_read(MlirOperation module, fuser_launch **out);
void fuser_launch_plan_free(fuser_launch *launches, int n);

void fuser_launch_plan_write(FILE *out, const fuser_launch *launches, int n);

/* The PTX of gpu.binary @name of the module (malloc'ed, NUL-terminated,
 * *len bytes), NULL when there is none. */
char *fuser_binary_ptx(MlirOperation module, const char *name, size_t *len);

/* The launch dictionary (an entry of `fuser.launches`) of one loop-level
 * function: entry (@binary::@entry), kernel, variant, vector_width, unroll, index_bits,
 * param_bits, block_size, num_args, params, conditions. */
MlirAttribute fuser_launch_dict(MlirOperation loop_func, const char *binary, const char *entry, int block);


#endif
