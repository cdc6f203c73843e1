/* fd.ops.* factories -> fuser ops: full, iota, and the random numbers
 * (uniform, normal, rand_like, randn_like; rng_seed and rng_offset
 * required). */
#include <stdio.h>

#include "frontend/import_op_call.h"

/* ---- factories ------------------------------------------------------------------- */

/* A factory's shape argument: its static entries become the result type's
 * extents (each >= 0), its symbolic ones i64 operands after the others. */
static bool push_shape(op_call *c, py_expr *shape, const char *what) {
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn;
  if (!imp_eval_shape(c->imp, shape, what, c->hint_shape, &c->hint_rank, dyn, &n_dyn)) return false;
  for (int i = 0; i < c->hint_rank; i++)
    if (c->hint_shape[i] < 0 && c->hint_shape[i] != dynamic())
      return imp_error(c->imp, shape->line, shape->col, "%s: shape entry %d is %lld; extents must be >= 0", c->what, i,
                       (long long)c->hint_shape[i]);
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return true;
}

bool imp_op_full(op_call *c) {
  static const char *const params[] = {"shape", "fill_value", "dtype"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a)) return false;
  if (!imp_eval_dtype(c->imp, a[2], "full dtype", false, &c->hint_dtype)) return false;
  if (!imp_op_push_operand(c, a[1], "full fill_value")) return false;
  if (fuser_value_is_tensor(c->operands[0]))
    return imp_error(c->imp, a[1]->line, a[1]->col, "%s: fill_value must be a scalar", c->what);
  return push_shape(c, a[0], "full shape") && imp_op_finish(c);
}

bool imp_op_iota(op_call *c) {
  static const char *const params[] = {"length", "start", "step", "dtype"};
  py_expr *a[4];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 4, 1, a)) return false;
  c->hint_dtype = FUSER_DTYPE_I64;
  if (a[3] && !imp_eval_dtype(c->imp, a[3], "iota dtype", false, &c->hint_dtype)) return false;
  /* a constant length gives a static extent */
  c->hint_rank = 1;
  c->hint_shape[0] = dynamic();
  bool is_float, is_bool;
  int64_t i;
  double f;
  const py_expr *len = a[0];
  if (imp_literal_number(len, &is_float, &is_bool, &i, &f) && !is_float && !is_bool) {
    c->hint_shape[0] = i;
  } else if (len->kind == PY_NAME) {
    binding *b = imp_lookup(c->imp, len->name);
    if (b && b->kind == BIND_CONST && !b->is_float && b->dtype == FUSER_DTYPE_I64) c->hint_shape[0] = b->ival;
  }
  if (c->hint_shape[0] < 0 && c->hint_shape[0] != dynamic())
    return imp_error(c->imp, len->line, len->col, "%s: length %lld is negative", c->what, (long long)c->hint_shape[0]);
  if (!imp_op_push_operand(c, len, "iota length")) return false;
  for (int k = 1; k <= 2; k++) {
    if (a[k] && a[k]->kind != PY_NONE) {
      if (!imp_op_push_operand(c, a[k], k == 1 ? "iota start" : "iota step")) return false;
    } else { /* None: start 0, step 1, of the result dtype */
      c->operands[c->n_operands] = imp_scalar(c->imp, imp_loc(c->imp, c->call->line, c->call->col), c->hint_dtype,
                                              false, k == 1 ? 0 : 1, k == 1 ? 0.0 : 1.0, c->call->line, c->call->col);
      if (mlirValueIsNull(c->operands[c->n_operands++])) return false;
    }
  }
  return imp_op_finish(c);
}

/* ---- random numbers --------------------------------------------------------------- */

/* rng_seed and rng_offset, as nvFuser takes them (keyword arguments, Int
 * scalars). Both are required: without them nvFuser draws from the
 * framework's generator at each run, a state fuser does not model yet. */
static bool push_rng_state(op_call *c, py_expr *seed, py_expr *offset) {
  if (!seed || seed->kind == PY_NONE || !offset || offset->kind == PY_NONE)
    return imp_error(c->imp, c->call->line, c->call->col,
                     "%s: rng_seed and rng_offset are required (fuser has no global generator state)", c->what);
  if (!imp_op_push_operand(c, seed, "rng_seed") || !imp_op_push_operand(c, offset, "rng_offset")) return false;
  for (int k = c->n_operands - 2; k < c->n_operands; k++)
    if (fuser_value_is_tensor(c->operands[k]) || fuser_value_dtype(c->operands[k]) != FUSER_DTYPE_I64)
      return imp_error(c->imp, (k == c->n_operands - 2 ? seed : offset)->line, (k == c->n_operands - 2 ? seed : offset)->col,
                       "%s: %s must be an Int scalar", c->what, k == c->n_operands - 2 ? "rng_seed" : "rng_offset");
  return true;
}

/* fd.ops.uniform(minval, maxval, shape, *, rng_seed, rng_offset, dtype=Float)
 * and fd.ops.normal(mean, std, shape, ...). */
bool imp_op_rng(op_call *c) {
  static const char *const uniform_params[] = {"minval", "maxval", "shape", "rng_seed", "rng_offset", "dtype"};
  static const char *const normal_params[] = {"mean", "std", "shape", "rng_seed", "rng_offset", "dtype"};
  py_expr *a[6];
  if (!imp_bind_args(c->imp, c->call, c->what, c->id == FUSER_OP_uniform ? uniform_params : normal_params, 6, 3, a))
    return false;
  c->hint_dtype = FUSER_DTYPE_F32;
  if (a[5] && !imp_eval_dtype(c->imp, a[5], "random dtype", false, &c->hint_dtype)) return false;
  if (!fuser_dtype_is_float(c->hint_dtype))
    return imp_error(c->imp, a[5]->line, a[5]->col, "%s: dtype must be a floating-point type", c->what);
  for (int k = 0; k < 2; k++) {
    if (!imp_op_push_operand(c, a[k], k ? "second parameter" : "first parameter")) return false;
    if (fuser_value_is_tensor(c->operands[k]))
      return imp_error(c->imp, a[k]->line, a[k]->col, "%s: %s must be a scalar", c->what,
                       c->id == FUSER_OP_uniform ? (k ? "maxval" : "minval") : (k ? "std" : "mean"));
  }
  if (!push_rng_state(c, a[3], a[4])) return false;
  return push_shape(c, a[2], "random shape") && imp_op_finish(c);
}

/* fd.ops.rand_like(arg, *, rng_seed, rng_offset) and randn_like: uniform(0,
 * 1) and normal(0, 1) of arg's shape and (floating-point) dtype, imported as
 * the factories themselves (arg's extents through fuser.size), so the
 * kernel does not read arg. */
bool imp_op_rng_like(op_call *c, bool normal) {
  static const char *const params[] = {"arg", "rng_seed", "rng_offset"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 1, a)) return false;
  MlirValue arg;
  char what[80];
  snprintf(what, sizeof what, "%s input", c->what);
  if (!imp_eval_tensor(c->imp, a[0], what, &arg)) return false;
  c->id = normal ? FUSER_OP_normal : FUSER_OP_uniform;
  c->hint_dtype = fuser_value_dtype(arg);
  if (!fuser_dtype_is_float(c->hint_dtype))
    return imp_error(c->imp, a[0]->line, a[0]->col, "%s: the input must be a floating-point tensor", c->what);
  MlirLocation loc = imp_loc(c->imp, c->call->line, c->call->col);
  /* the extents first, then the bounds: the order the exporter's
   * fd.ops.size lines and define_scalar lines re-import in */
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn = 0;
  c->hint_rank = rank_of(arg);
  for (int d = 0; d < c->hint_rank; d++) {
    c->hint_shape[d] = extent_of(arg, d);
    if (c->hint_shape[d] != dynamic()) continue;
    dyn[n_dyn] = imp_op_extent_value(c, arg, d, loc);
    if (mlirValueIsNull(dyn[n_dyn++])) return false;
  }
  for (int k = 0; k < 2; k++) {
    c->operands[c->n_operands] = imp_scalar(c->imp, loc, FUSER_DTYPE_F64, true, k, k ? 1.0 : 0.0, c->call->line, c->call->col);
    if (mlirValueIsNull(c->operands[c->n_operands++])) return false;
  }
  if (!push_rng_state(c, a[1], a[2])) return false;
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return imp_op_finish(c);
}
