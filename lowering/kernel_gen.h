/* kernel_gen.h: generating the loop-level function of one variant of a
 * kernel function (plan contract and analysis in passes/kernel_info.h;
 * notes in docs/lowering.md), built through the op builder (builder.h).
 *
 * For one point (or one vector of W consecutive points) of the iteration
 * space it evaluates every result by walking the op DAG back to the
 * arguments, and makes the loads, f32 arithmetic and stores as upstream
 * scf/arith/math/vector/memref ops, each at the location of the fuser op it
 * lowers. */
#ifndef FUSER_LOWERING_KERNEL_GEN_H
#define FUSER_LOWERING_KERNEL_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "passes/kernel_info.h"

/* The most parameters a kernel variant may take (the launch plan's fixed
 * arrays, lowering/launch_plan.h); more is a located error. */
#define FK_MAX_PARAMS 160

/* FK_PARAM_CHECK: the index flag, a pointer to one i32 the plan zeroes
 * before the launch and reads after it (kernels with index ops only,
 * fk_index_sites; tensor and dim -1). */
typedef enum { FK_PARAM_PTR, FK_PARAM_SIZE, FK_PARAM_STRIDE, FK_PARAM_SCALAR, FK_PARAM_CHECK } fk_param_kind;
typedef struct {
  fk_param_kind kind;
  int tensor, dim; /* dim for SIZE/STRIDE */
} fk_param;

typedef struct {
  int width;  /* vector width W (1: the scalar variant) */
  int unroll; /* vectors (or elements) per thread */
  int index_bits;
  bool tail; /* emit the grid-stride scalar tail (the run may end inside a vector) */
  /* The whole iteration space is one flattened group (fuser.flat_groups,
   * merged statically or under the variant's `merge` conditions): every
   * access is indexed by the flat point index times its innermost stride,
   * without delinearizing it (no division per thread). */
  bool flat;
  const char *variant;      /* "vector", "scalar", ... */
  MlirAttribute conditions; /* the variant's fuser.vector_conditions (an array) */
  /* Null, or per-tensor align/stride conditions checked in the kernel: a
   * tensor whose conditions fail there gets W element accesses instead of
   * one W-wide access (passes/access_select.h). */
  MlirAttribute access_conditions;
  /* Null, or the tensors (a dense i64 array of argument numbers) loaded
   * lane by lane at each lane's own delinearized coordinates in a flat
   * variant: inputs whose reads cannot follow the flat run (the pointwise
   * `gather` variant, passes/vectorize.c). */
  MlirAttribute gather;
  int block_size;           /* threads per block (fuser.block_size of the function) */
} fk_codegen_options;

/* Builds `func.func @<kernel>__<variant>(...)` at loop level right after
 * `after`: an scf.parallel over threads, each doing `unroll` vectors of W
 * elements of the flattened iteration space and a grid-stride scalar tail.
 * Returns it, or a null op after a located error. */
MlirOperation fk_codegen(fk_kernel *k, const fk_codegen_options *opts, MlirOperation after);

#endif
