/* kernel_info.h: what the passes and the lowering know of a kernel
 * function (plan contract, docs/lowering.md): its tensors (arguments, then
 * results) with shapes and `fuser.strides`, the iteration space (the shape
 * of result 0), and, from the access analysis (passes/kernel_access.c),
 * every global read and write as an index map over the iteration space and
 * the cat/pad boundaries along iteration dims.
 *
 * Tensor numbering ("tensor t"): kernel arguments 0..num_args-1 (scalar
 * arguments included, they are just never indexed), then results
 * num_args..num_args+num_results-1. */
#ifndef FUSER_PASSES_KERNEL_INFO_H
#define FUSER_PASSES_KERNEL_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "mlir-c/IR.h"

#define FK_R FUSER_MAX_RANK
#define FK_MAX_TENSORS 64
#define FK_DYN INT64_MIN /* kDynamic: a `?` extent or a run-time stride */

typedef struct {
  bool is_tensor, is_result;
  fuser_dtype dtype;
  int rank;
  int64_t shape[FK_R];   /* FK_DYN for `?` */
  int64_t strides[FK_R]; /* fuser.strides; FK_DYN where known only at run time */
  /* a result's `fuser.stride_order` (nvFuser convention: 0 the fastest),
   * given by fuser-segment for a permuted dense buffer; else row-major */
  bool ordered;
  int64_t stride_order[FK_R];
} fk_tensor;

/* One read of an argument or one write of a result: tensor index
 * j = sum_d coef[j][d] * i_d + off[j] over iteration indices i_d. */
typedef struct {
  int tensor;
  bool opaque; /* through a reshape or a reduction loop: no affine map */
  /* through an in-kernel reshape that keeps the vector lanes together
   * (kernel_access.c, reshape_lanes): only the column of the innermost
   * iteration dim (coef[j][rank - 1]) and the offsets are a map; the dims
   * that do not move with the lanes are indexed by values no affine map
   * follows (delinearized outer indices), and the first lane's index along
   * the dim that moves is a multiple of the width */
  bool lanes_only;
  int8_t coef[FK_R][FK_R];
  int64_t off[FK_R];
} fk_access;

/* What a boundary is: where a cat switches operands (the right one is read
 * shifted by the position), where a pad's source begins or ends, or an
 * extent an in-kernel reshape's lanes must not cross (kernel_access.c). */
typedef enum { FK_BOUNDARY_CAT, FK_BOUNDARY_PAD, FK_BOUNDARY_RESHAPE } fk_boundary_kind;

/* A cat/pad predicate boundary along iteration dim `dim`: the predicate
 * flips at i_dim == value (static), or at extent(src_tensor, src_dim) + shift. */
typedef struct {
  fk_boundary_kind kind;
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
  int rank; /* iteration space = the dims of result 0, in iter_dim order */
  int64_t extent[FK_R];
  /* Iteration dim d walks dim iter_dim[d] of every result: the identity,
   * except that a result 0 contiguous along another dim than its last walks
   * that dim innermost (a permuted output such as permute(x, [1, 0]) whose
   * allocation follows x's: both stay contiguous along the vectors), and
   * that a pointwise kernel whose result 0 has a stride order walks its dims
   * in that order, slowest first (permute(x * x, [0, 2, 1, 3]) allocated as
   * x: the points in memory order, so every dim can merge at run time). */
  int8_t iter_dim[FK_R];
  /* has_reshape: an index no map follows (a reshape that does not keep the
   * lanes, iota, RNG, index ops...): the scalar variant only;
   * reshape_lanes: an in-kernel reshape keeps the lanes (lanes_only
   * accesses): vectors along the last iteration dim only, no flattening */
  bool has_reduction, has_reshape, reshape_lanes;
  /* filled by fk_kernel_analyze; dynamic arrays (fk_kernel_free) */
  int num_accesses, cap_accesses;
  fk_access *acc;
  int num_boundaries, cap_boundaries;
  fk_boundary *bnd;
} fk_kernel;

/* Reads the signature and the layout attributes of a `fuser.kernel`
 * function. Emits a located error and returns false on a malformed kernel. */
bool fk_kernel_read(MlirOperation func, fk_kernel *k);
/* Frees what fk_kernel_analyze allocated. */
void fk_kernel_free(fk_kernel *k);

/* Runs the access analysis (passes/kernel_access.c): fills acc/bnd/has_*.
 * Emits a located error at the fuser op and returns false when an op cannot
 * be lowered into a GPU kernel. */
bool fk_kernel_analyze(fk_kernel *k);

/* Element offset of access `a` along iteration dim d (FK_DYN if it depends
 * on a run-time stride), and its constant offset (FK_DYN likewise). */
int64_t fk_access_stride(const fk_kernel *k, const fk_access *a, int d);
int64_t fk_access_offset(const fk_kernel *k, const fk_access *a);

/* The index ops (index_select, gather, take_along_axis) of a kernel
 * function's body, in body order: site k + 1 is sites[k]. A kernel with
 * sites takes the index flag parameter (FK_PARAM_CHECK); an index out of
 * range stores its site number there, and the plan reports that site's
 * location. Returns the count (fills at most cap). */
int fk_index_sites(MlirOperation func, MlirOperation *sites, int cap);

/* Whether `op` is a func.func with the `fuser.kernel` attribute. */
bool fuser_is_kernel(MlirOperation op); /* a kernel our code generation compiles (not a matmul segment) */
/* A matmul segment (`fuser.kernel` + `fuser.matmul`, made by fuser-segment):
 * one fuser.matmul/linear the plan runs through cuBLASLt. */
bool fuser_is_matmul_kernel(MlirOperation op);

/* A located error at each fuser.kernel function of `module` without a body
 * (a declaration: nothing to compile; every kernel walker reads its first
 * block, and a plan's call of one crashed fuser-report and
 * fuser-fuse-inner-outer). False if there is one. */
bool fuser_check_kernel_bodies(MlirOperation module);

/* For the passes that work on kernels: fuser_check_kernel_bodies, and a
 * located error at each fusion function of `module` that is not segmented
 * yet (fuser.fusion without fuser.plan), naming the pass. False if there is
 * one. */
bool fuser_check_segmented(MlirOperation module, const char *pass);

#endif
