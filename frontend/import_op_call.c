/* What importing every fd.ops.* call does (import_op_call.h): operands
 * evaluated and pushed, dims normalized as nvFuser does, the result types
 * from fuser_infer_result_types (so nvFuser's promotion and shape rules
 * hold by construction), the op appended at its NameLoc and its results
 * bound to the statement's names. */
#include <stdio.h>

#include "frontend/import_op_call.h"
#include "mlir-c/BuiltinAttributes.h"

/* Infers the result types and appends the op; `loc` names it. */
MlirOperation imp_op_emit(op_call *c, MlirLocation loc, int n_results) {
  fuser_op_desc d = {.id = c->id, .num_operands = c->n_operands, .operands = c->operands, .num_attrs = c->n_attrs,
                     .attrs = c->attrs, .hint_rank = c->hint_rank, .hint_shape = c->hint_shape,
                     .hint_dtype = c->hint_dtype};
  MlirType types[2];
  char why[256];
  if (!fuser_infer_result_types(c->imp->ctx, &d, types, why, sizeof why)) {
    imp_error(c->imp, c->call->line, c->call->col, "%s: %s", c->what, why);
    return (MlirOperation){NULL};
  }
  return imp_append_op(c->imp, fuser_op_full_name(c->id), loc, c->n_operands, c->operands, n_results, types,
                       c->n_attrs, c->attrs);
}

/* The location of the statement's results: NameLoc(target, call site); two
 * targets (var_mean) give a fused location of two NameLocs. */
MlirLocation imp_op_result_loc(op_call *c) {
  const py_stmt *s = c->stmt;
  if (s->n_names == 1) return imp_named_loc(c->imp, s->names[0], c->call->line, c->call->col);
  MlirLocation locs[2];
  for (int i = 0; i < 2; i++) locs[i] = imp_named_loc(c->imp, s->names[i], c->call->line, c->call->col);
  return mlirLocationFusedGet(c->imp->ctx, 2, locs, mlirAttributeGetNull());
}

bool imp_op_bind_results(op_call *c, MlirOperation op) {
  if (mlirOperationIsNull(op)) return false;
  for (int i = 0; i < c->stmt->n_names; i++) {
    binding *b = imp_bind(c->imp, c->stmt->names[i]);
    b->kind = BIND_VALUE;
    b->value = mlirOperationGetResult(op, i);
  }
  return true;
}

bool imp_op_finish(op_call *c) {
  int want = fuser_op_kind_of(c->id) == FUSER_KIND_VAR_MEAN ? 2 : 1;
  if (c->stmt->n_names != want)
    return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns %d value%s but %d name%s assigned", c->what, want,
                     want == 1 ? "" : "s", c->stmt->n_names, c->stmt->n_names == 1 ? " is" : "s are");
  return imp_op_bind_results(c, imp_op_emit(c, imp_op_result_loc(c), want));
}

bool imp_op_push_operand(op_call *c, const py_expr *e, const char *what) {
  return imp_eval_value(c->imp, e, what, &c->operands[c->n_operands++]);
}

bool imp_op_push_tensor(op_call *c, const py_expr *e) {
  char what[80];
  snprintf(what, sizeof what, "%s input", c->what);
  return imp_eval_tensor(c->imp, e, what, &c->operands[c->n_operands++]);
}

/* Normalizes a dim index against `rank` like nvFuser (wrapping negatives). */
bool imp_op_normalize_dim(op_call *c, const py_expr *at, int64_t *dim, int rank, const char *what) {
  if (*dim < -rank || *dim >= rank)
    return imp_error(c->imp, at->line, at->col, "%s: %s %lld is out of range for rank %d", c->what, what,
                     (long long)*dim, rank);
  if (*dim < 0) *dim += rank;
  return true;
}

bool imp_op_dims_list(op_call *c, const py_expr *e, int rank, int64_t *dims, int *n, const char *what) {
  if (e->kind == PY_INT || e->kind == PY_NEG) { /* one dim given as an int */
    if (!imp_eval_int(c->imp, e, what, &dims[0])) return false;
    *n = 1;
  } else if (!imp_eval_int_list(c->imp, e, what, dims, FUSER_MAX_RANK, n)) {
    return false;
  }
  for (int i = 0; i < *n; i++)
    if (!imp_op_normalize_dim(c, e, &dims[i], rank, what)) return false;
  return true;
}

/* Appends op `id` on `n` operands at `loc` (the call's attributes and hints
 * reset); its result #res, or null after a located error. */
MlirValue imp_op_emit_value(op_call *c, fuser_op_id id, int n, const MlirValue *operands, MlirLocation loc, int n_results,
                            int res) {
  c->id = id;
  c->n_operands = n;
  for (int i = 0; i < n; i++) c->operands[i] = operands[i];
  MlirOperation op = imp_op_emit(c, loc, n_results);
  c->n_attrs = 0;
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : mlirOperationGetResult(op, res);
}

void imp_op_bind_name(op_call *c, int i, MlirValue v) {
  binding *b = imp_bind(c->imp, c->stmt->names[i]);
  b->kind = BIND_VALUE;
  b->value = v;
}
