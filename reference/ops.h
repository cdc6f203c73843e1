/* ops.h: how the evaluator runs one op (internal to reference/).
 *
 * Every fuser op is run by one handler; eval.c picks it from the op's kind
 * (dialects/ops.def) and the handler switches on the op id for the
 * details. Element-wise ops are rows of a table (elementwise.c) giving
 * their f32, f64 and int64 semantics as one expression each. Adding an op:
 * a line in ops.def, then a line in elementwise.c or a case in the handler
 * of its kind.
 */
#ifndef FUSER_REFERENCE_OPS_H
#define FUSER_REFERENCE_OPS_H

#include "reference/tensor.h"

/* Computes the op's results (already-evaluated operands in order; scalars
 * are rank-0 tensors). On failure sets the error and returns false. */
typedef bool (*ref_op_fn)(ref_ctx *c, const ref_tensor *operands, int num_operands, ref_tensor *results);

bool ref_eval_elementwise(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);
bool ref_eval_view(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);     /* SHAPED, META, VIEW */
bool ref_eval_query(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);    /* size, stride */
bool ref_eval_check(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);    /* check (no results) */
bool ref_eval_host(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);     /* ceildiv */
bool ref_eval_address(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);  /* address */
bool ref_eval_launch(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);   /* launch (no results) */
bool ref_eval_pad(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);
bool ref_eval_cat(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);
bool ref_eval_reduction(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results); /* + var_mean */
bool ref_eval_factory(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);   /* full, iota */
bool ref_eval_scalar(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);
bool ref_eval_matmul(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results);    /* matmul, linear */

/* Whether each handler gives `id` semantics (fuser_ref_supports_op). */
bool ref_elementwise_knows(fuser_op_id id);
bool ref_view_knows(fuser_op_id id);
bool ref_resize_knows(fuser_op_id id);
bool ref_reduction_knows(fuser_op_id id);
bool ref_factory_knows(fuser_op_id id);
bool ref_eval_rng(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results); /* uniform, normal (philox_eval.c) */
bool ref_matmul_knows(fuser_op_id id);
bool ref_eval_triangle(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results); /* triu, tril (index.c) */
bool ref_eval_index(ref_ctx *c, const ref_tensor *operands, int n, ref_tensor *results); /* index_select, gather, take_along_axis */

/* What the op's result #i declares: dtype, rank, extents (-1 for `?`). */
typedef struct {
  fuser_dtype dtype;
  bool is_tensor;
  int rank;
  int64_t sizes[FUSER_MAX_RANK];
} ref_type;

bool ref_result_type(ref_ctx *c, int i, ref_type *out);
bool ref_type_of(ref_ctx *c, MlirType t, ref_type *out);

/* The runtime shape of a result whose `?` dims come from i64 scalar
 * operands (operands[first..]), in order; -1 values are left as -1. */
bool ref_shape_from_operands(ref_ctx *c, const ref_type *type, const ref_tensor *operands, int first, int n,
                             int64_t *sizes);

/* Checks runtime extents against the static ones of `type`. */
bool ref_check_extents(ref_ctx *c, const ref_type *type, const int64_t *sizes);

/* Attribute readers that fail with a message naming the attribute. */
bool ref_attr_i64_array(ref_ctx *c, const char *name, int64_t *out, int cap, int *n);
bool ref_attr_i64(ref_ctx *c, const char *name, int64_t *out);

#endif
