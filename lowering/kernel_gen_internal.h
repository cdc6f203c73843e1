/* kernel_gen_internal.h: the private state and shared helpers of the kernel
 * generator (the implementation of kernel_gen.h), which is split by
 * responsibility into:
 *   kernel_gen_emit.c      text emission: fresh names, index constants and
 *                          arithmetic, parameters, value types, conversions;
 *   kernel_gen_prologue.c  extents and scalars, computed at function entry;
 *   kernel_gen_ops.c       element-wise ops;
 *   kernel_gen_access.c    global loads and stores, recorded for analysis;
 *   kernel_gen_walk.c      the walker: index remapping through the op DAG;
 *   kernel_gen.c           one point of the iteration space and the public
 *                          entry points (fk_kernel_analyze, fk_codegen).
 * Only those files include this header; every other client uses kernel_gen.h.
 *
 * Text goes to two buffers: the prologue (function entry: constants, memref
 * views, extents derived from parameters, scalar arithmetic; all
 * point-independent) and the body (index math, loads, compute, stores).
 * Values computed inside an scf.if branch are memoized only inside it. */
#ifndef FUSER_LOWERING_KERNEL_GEN_INTERNAL_H
#define FUSER_LOWERING_KERNEL_GEN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "lowering/kernel_gen.h"
#include "mlir-c/IR.h"

#define NAME 40 /* room for one SSA name or type */

/* An index into a value: one SSA index name per dim and, for analysis, its
 * affine map over the iteration indices (opaque: none). */
typedef struct {
  int rank;
  char name[FK_R][NAME];
  int8_t coef[FK_R][FK_R];
  int64_t off[FK_R];
  bool opaque;
} idx_t;

/* A computed value: its SSA name, scalar or vector<W>, and dtype. */
typedef struct {
  char name[NAME];
  bool vec;
  fuser_dtype dt;
} kval;

/* An extent (index SSA name) and, when symbolic, the argument size it follows. */
typedef struct {
  char name[NAME];
  int64_t value; /* static extent or FK_DYN */
  int src_tensor, src_dim;
  int64_t shift; /* extent = size(src) + shift when src_tensor >= 0 */
} dimv;

/* The walker's memo: a value at an index, valid at scope depth >= depth. */
typedef struct {
  const void *key;
  char *idx;
  kval v;
  int depth;
} memo_entry;

/* The generator's state for one kernel function. */
typedef struct {
  fk_kernel *k;
  bool analysis;
  int W;
  bool flat; /* index every access by the flat point index (fk_codegen_options.flat) */
  strbuf *pro, *body, *cur;
  int indent, depth, counter;
  memo_entry *memo;
  int nmemo, capmemo;
  struct dim_memo { const void *key; int dim; dimv d; } dims[512];
  int ndims;
  struct scalar_memo { const void *key; kval v; } scalars[256];
  int nscalars;
  fk_param *params;
  int nparams;
  bool mem_made[FK_MAX_TENSORS];
  bool failed;
} gen;

/* ---- emission helpers, values, conversions (kernel_gen_emit.c) ----------- */

/* A fresh SSA name %vN. */
void kg_fresh(gen *g, char *out);
/* One line of text into the current buffer, indented. */
void kg_emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Emits a located error once (the first failure) and marks the run failed. */
bool kg_fail_op(gen *g, MlirOperation op, const char *msg);
/* The memref element type of a dtype (i1 is stored as i8). */
const char *kg_storage_type(fuser_dtype dt);
void kg_type_str(gen *g, fuser_dtype dt, bool vec, char *out);
/* An index constant, emitted once in the prologue. */
const char *kg_cidx(gen *g, int64_t v, char *out);
/* The SSA name of a kernel parameter, added to the parameter list once. */
const char *kg_param(gen *g, fk_param_kind kind, int tensor, int dim, char *out);
bool kg_is_zero(const char *name);
/* Index arithmetic, folding 0 and 1. */
void kg_iadd(gen *g, const char *a, const char *b, char *out);
void kg_imul(gen *g, const char *a, const char *b, char *out);
void kg_iaddc(gen *g, const char *a, int64_t c, char *out);
MlirOperation kg_owner(MlirValue v);
int kg_tensor_rank(MlirValue v);
/* Static extent of dim j of v, FK_DYN for `?`. */
int64_t kg_static_dim(MlirValue v, int j);
bool kg_is_float(fuser_dtype dt);
/* A float constant of dtype dt (splat to a vector when vec), in the prologue. */
void kg_fconst(gen *g, double v, fuser_dtype dt, bool vec, char *out);
/* A scalar broadcast to vector<W> (no-op when already a vector or W == 1). */
kval kg_splat(gen *g, kval x);
kval kg_convert(gen *g, kval x, fuser_dtype to);

/* ---- extents and scalars, in the prologue (kernel_gen_prologue.c) -------- */

/* Extent of dim j of tensor value v, and which argument size it follows. */
dimv kg_dim_of(gen *g, MlirValue v, int j);
/* A scalar (non-tensor) value: a parameter, a constant, or scalar math. */
kval kg_scalar_of(gen *g, MlirValue v);

/* ---- element-wise ops (kernel_gen_ops.c) ---------------------------------- */

kval kg_elementwise(gen *g, MlirOperation op, fuser_op_id id, kval *x, int n, fuser_dtype out_dt);
/* `r = opname a, b` in a's type. */
kval kg_op2(gen *g, const char *opname, kval a, kval b);
/* The constant v in the type (and vector shape) of `like`. */
kval kg_kconst(gen *g, double v, kval like);

/* ---- global loads and stores (kernel_gen_access.c) ------------------------ */

kval kg_load(gen *g, int t, const idx_t *ix);
void kg_store(gen *g, int t, const idx_t *ix, kval v);

/* ---- the walker (kernel_gen_walk.c) --------------------------------------- */

/* The value v at index ix (memoized per value and index). */
kval kg_visit(gen *g, MlirValue v, const idx_t *ix);

#endif
