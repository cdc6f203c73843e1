/* fd.ops.size, fd.ops.shape (tensor_sizes) and fd.ops.at: extents as Int
 * scalars (constants when static, fuser.size when symbolic) and vectors
 * of them. */
#include "frontend/import_op_call.h"
#include "mlir-c/BuiltinAttributes.h"

/* The extent of dim `d` of `t` as an i64 value: a constant when static,
 * else fuser.size (which the plan evaluates on the host). */
MlirValue imp_op_extent_value(op_call *c, MlirValue t, int64_t d, MlirLocation loc) {
  int64_t e = extent_of(t, (int)d);
  if (e != dynamic()) return imp_scalar(c->imp, loc, FUSER_DTYPE_I64, false, e, 0.0, c->call->line, c->call->col);
  MlirNamedAttribute a = imp_named(c->imp, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), d));
  MlirType i64 = mlirIntegerTypeGet(c->imp->ctx, 64);
  return mlirOperationGetResult(imp_append_op(c->imp, "fuser.size", loc, 1, &t, 1, &i64, 1, &a), 0);
}

/* fd.ops.size(arg, dim): an Int scalar. */
bool imp_op_size(op_call *c) {
  static const char *const params[] = {"arg", "dim"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
  int64_t dim;
  if (!imp_eval_int(c->imp, a[1], "size dim", &dim) || !imp_op_normalize_dim(c, a[1], &dim, rank_of(c->operands[0]), "dim"))
    return false;
  MlirValue v = imp_op_extent_value(c, c->operands[0], dim, imp_op_result_loc(c));
  if (mlirValueIsNull(v)) return false;
  binding *b = imp_bind(c->imp, c->stmt->names[0]);
  b->kind = BIND_VALUE;
  b->value = v;
  return true;
}

/* fd.ops.shape(arg): a vector of its extents (for shapes, as define_vector). */
bool imp_op_shape(op_call *c) {
  static const char *const params[] = {"arg"};
  py_expr *a[1];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 1, 1, a) || !imp_op_push_tensor(c, a[0])) return false;
  if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
  MlirValue t = c->operands[0];
  int rank = rank_of(t);
  vector_elem *elems = py_arena_alloc(c->imp->arena, sizeof *elems * (rank ? rank : 1));
  for (int d = 0; d < rank; d++) {
    elems[d].is_const = extent_of(t, d) != dynamic();
    if (elems[d].is_const) elems[d].value = extent_of(t, d);
    else elems[d].dyn = imp_op_extent_value(c, t, d, imp_loc(c->imp, c->call->line, c->call->col));
  }
  binding *b = imp_bind(c->imp, c->stmt->names[0]);
  b->kind = BIND_VECTOR;
  b->n_elems = rank;
  b->elems = elems;
  return true;
}

/* fd.ops.at(arg, index) (classic): element `index` of a vector (negative
 * counts from the end): a static extent is an Int constant (a
 * define_scalar), a symbolic one its fuser.size; exported as what it is. */
bool imp_op_at(op_call *c) {
  static const char *const params[] = {"arg", "index"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a)) return false;
  if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
  binding *v = a[0]->kind == PY_NAME ? imp_lookup(c->imp, a[0]->name) : NULL;
  if (!v || v->kind != BIND_VECTOR)
    return imp_error(c->imp, a[0]->line, a[0]->col, "%s arg must be a vector (fd.define_vector, fd.ops.shape)", c->what);
  int64_t i;
  if (!imp_eval_int(c->imp, a[1], "at index", &i)) return false;
  if (i < 0) i += v->n_elems;
  if (i < 0 || i >= v->n_elems)
    return imp_error(c->imp, a[1]->line, a[1]->col, "%s index is out of range for a vector of %d", c->what, v->n_elems);
  vector_elem e = v->elems[i];
  binding *b = imp_bind(c->imp, c->stmt->names[0]);
  if (e.is_const) {
    b->kind = BIND_CONST, b->dtype = FUSER_DTYPE_I64, b->is_float = false, b->ival = e.value, b->fval = 0;
    b->value = (MlirValue){NULL};
    b->loc = imp_named_loc(c->imp, c->stmt->names[0], c->call->line, c->call->col);
  } else {
    b->kind = BIND_VALUE, b->value = e.dyn;
  }
  return true;
}
