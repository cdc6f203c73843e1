/* import_op_call.h: one fd.ops.* call being imported (op_call), shared by
 * the op importer's files: import_ops.c (the dispatch on the op's kind),
 * import_op_call.c (what every op does: binding operands, inferring the
 * result types, appending the op, binding its names) and one file per op
 * family: import_pointwise.c, import_meta_ops.c, import_reductions.c,
 * import_factories.c, import_sizes.c, import_index_ops.c,
 * import_matmul.c. */
#ifndef FUSER_FRONTEND_IMPORT_OP_CALL_H
#define FUSER_FRONTEND_IMPORT_OP_CALL_H

#include "frontend/import_internal.h"
#include "mlir-c/BuiltinTypes.h"

typedef struct {
  importer *imp;
  const py_stmt *stmt;
  const py_expr *call;
  fuser_op_id id;
  char what[64]; /* "fd.ops.<name>" */
  MlirValue operands[FUSER_MAX_RANK + 4];
  int n_operands;
  MlirNamedAttribute attrs[4];
  int n_attrs;
  int64_t hint_shape[FUSER_MAX_RANK];
  int hint_rank;
  fuser_dtype hint_dtype;
  bool var_only; /* fd.ops.var: a var_mean binding only its variance */
} op_call;

static inline int64_t dynamic(void) { return mlirShapedTypeGetDynamicSize(); }

static inline int rank_of(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }
static inline int64_t extent_of(MlirValue v, int d) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), d); }

static inline void add_attr(op_call *c, const char *name, MlirAttribute a) {
  c->attrs[c->n_attrs++] = imp_named(c->imp, name, a);
}

/* ---- every op (import_op_call.c) ---- */
/* Infers the result types and appends the op; `loc` names it. */
MlirOperation imp_op_emit(op_call *c, MlirLocation loc, int n_results);
/* Appends op `id` on `n` operands at `loc` (the call's attributes and hints
 * reset); its result #res, or null after a located error. */
MlirValue imp_op_emit_value(op_call *c, fuser_op_id id, int n, const MlirValue *operands, MlirLocation loc,
                            int n_results, int res);
/* NameLoc(target, call site) of the statement's results (two targets: a
 * fused location). */
MlirLocation imp_op_result_loc(op_call *c);
/* Binds the statement's names to op's results (false for a null op). */
bool imp_op_bind_results(op_call *c, MlirOperation op);
/* Binds the statement's name #i to `v`. */
void imp_op_bind_name(op_call *c, int i, MlirValue v);
/* Checks the number of names assigned, emits the op and binds them. */
bool imp_op_finish(op_call *c);
/* Evaluates an argument into the next operand (any value / a tensor). */
bool imp_op_push_operand(op_call *c, const py_expr *e, const char *what);
bool imp_op_push_tensor(op_call *c, const py_expr *e);
/* Normalizes a dim index against `rank` like nvFuser (wrapping negatives). */
bool imp_op_normalize_dim(op_call *c, const py_expr *at, int64_t *dim, int rank, const char *what);
/* A dim or a list of dims, each normalized against `rank`. */
bool imp_op_dims_list(op_call *c, const py_expr *e, int rank, int64_t *dims, int *n, const char *what);
/* The extent of dim `d` of `t` as an i64 value (import_sizes.c). */
MlirValue imp_op_extent_value(op_call *c, MlirValue t, int64_t d, MlirLocation loc);

/* ---- the op families: each imports one fd.ops.* call ---- */
/* import_pointwise.c: unary/binary/ternary ops, cast, triu/tril, truediv,
 * add_alpha/sub_alpha */
bool imp_op_elementwise(op_call *c, int arity);
bool imp_op_triangle(op_call *c);
bool imp_op_truediv(op_call *c);
bool imp_op_alpha(op_call *c, fuser_op_id outer);
/* import_meta_ops.c: shape-taking and meta ops */
bool imp_op_broadcast_in_dim(op_call *c);
bool imp_op_expand(op_call *c);
bool imp_op_reshape(op_call *c);
bool imp_op_broadcast(op_call *c);
bool imp_op_permute_or_squeeze(op_call *c);
bool imp_op_slice(op_call *c);
bool imp_op_copy(op_call *c);
bool imp_op_stride_order(op_call *c);
bool imp_op_pad(op_call *c);
bool imp_op_cat(op_call *c);
/* import_reductions.c: reductions, var_mean/var, welford */
bool imp_op_reduction(op_call *c);
bool imp_op_welford(op_call *c);
/* import_factories.c: full, iota, uniform/normal, rand_like/randn_like */
bool imp_op_full(op_call *c);
bool imp_op_iota(op_call *c);
bool imp_op_rng(op_call *c);
bool imp_op_rng_like(op_call *c, bool normal);
/* import_sizes.c: size, shape (tensor_sizes), at */
bool imp_op_size(op_call *c);
bool imp_op_shape(op_call *c);
bool imp_op_at(op_call *c);
/* import_index_ops.c: index_select, gather, take_along_axis */
bool imp_op_index(op_call *c);
/* import_matmul.c: matmul, linear */
bool imp_op_matmul(op_call *c);

#endif
