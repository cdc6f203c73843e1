/* kernel_gen.h: reading a kernel function (plan contract, notes in
 * docs/lowering.md) and generating its loop body as MLIR text.
 *
 * One walker serves two clients:
 *   - analysis (fuser-vectorize): it records every global access as an
 *     index map from the iteration space (coefficients and offsets), and the
 *     boundaries of cat/pad predicates along iteration dims;
 *   - code generation (fuser-lower-kernels): it emits, for one point (or one
 *     vector of W consecutive points) of the iteration space, the loads,
 *     f32 arithmetic and stores, as upstream scf/arith/math/vector/memref text.
 *
 * Tensor numbering ("tensor t"): kernel arguments 0..num_args-1 (scalar
 * arguments included, they are just never indexed), then results
 * num_args..num_args+num_results-1. */
#ifndef FUSER_LOWERING_KERNEL_GEN_H
#define FUSER_LOWERING_KERNEL_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "lowering/strbuf.h"
#include "mlir-c/IR.h"

#define FK_R FUSER_MAX_RANK
#define FK_MAX_TENSORS 64
#define FK_MAX_ACCESSES 256
#define FK_MAX_PARAMS 160
#define FK_DYN INT64_MIN /* kDynamic: a `?` extent or a run-time stride */

typedef struct {
  bool is_tensor, is_result;
  fuser_dtype dtype;
  int rank;
  int64_t shape[FK_R];   /* FK_DYN for `?` */
  int64_t strides[FK_R]; /* fuser.strides; FK_DYN where known only at run time */
} fk_tensor;

/* One read of an argument or one write of a result: tensor index
 * j = sum_d coef[j][d] * i_d + off[j] over iteration indices i_d. */
typedef struct {
  int tensor;
  bool opaque; /* through a reshape or a reduction loop: no affine map */
  int8_t coef[FK_R][FK_R];
  int64_t off[FK_R];
} fk_access;

/* A cat/pad predicate boundary along iteration dim `dim`: the predicate
 * flips at i_dim == value (static), or at extent(src_tensor, src_dim) + shift. */
typedef struct {
  int dim;
  int64_t value; /* FK_DYN when symbolic */
  int src_tensor, src_dim;
  int64_t shift;
} fk_boundary;

typedef struct {
  MlirOperation func;
  const char *name; /* symbol name, points into the op's attribute storage */
  size_t name_len;
  int num_args, num_results, num_tensors;
  fk_tensor t[FK_MAX_TENSORS];
  int rank; /* iteration space = shape of result 0 */
  int64_t extent[FK_R];
  bool has_reduction, has_reshape;
  int num_accesses;
  fk_access acc[FK_MAX_ACCESSES];
  int num_boundaries;
  fk_boundary bnd[FK_MAX_ACCESSES];
} fk_kernel;

/* Reads the signature and the layout attributes of a `fuser.kernel`
 * function. Emits a located error and returns false on a malformed kernel. */
bool fk_kernel_read(MlirOperation func, fk_kernel *k);

/* Runs the walker in analysis mode: fills acc/bnd/has_*. Emits a located
 * error and returns false when an op cannot be lowered. */
bool fk_kernel_analyze(fk_kernel *k);

/* Element offset of access `a` along iteration dim d (FK_DYN if it depends
 * on a run-time stride), and its constant offset (FK_DYN likewise). */
int64_t fk_access_stride(const fk_kernel *k, const fk_access *a, int d);
int64_t fk_access_offset(const fk_kernel *k, const fk_access *a);

/* ---- code generation ---------------------------------------------------- */

typedef enum { FK_PARAM_PTR, FK_PARAM_SIZE, FK_PARAM_STRIDE, FK_PARAM_SCALAR } fk_param_kind;
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
  const char *variant; /* "vector" or "scalar" */
  const char *extra_attrs; /* attribute text appended to the func's attributes */
} fk_codegen_options;

/* Emits `func.func @<kernel>__<variant>(...)` at loop level: an
 * scf.parallel over threads, each doing `unroll` vectors of W elements of
 * the flattened iteration space and a grid-stride scalar tail. Appends the
 * text to `out` and the parameter list to params/num_params. */
bool fk_codegen(fk_kernel *k, const fk_codegen_options *opts, strbuf *out, fk_param *params,
                int *num_params);

/* Formats a parameter as "ptr(t0)", "size(t5,1)", "stride(t2,1)", "scalar(t3)". */
void fk_param_format(const fk_param *p, char *buf, size_t len);

#endif
