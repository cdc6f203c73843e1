/* fd.ops.* reductions -> fuser ops: sum, prod, max, min (with their
 * dtype rule), var_mean and var, and welford, imported as the var_mean and
 * pointwise ops it computes. */
#include "frontend/import_op_call.h"
#include "mlir-c/BuiltinAttributes.h"

bool imp_op_reduction(op_call *c) {
  bool var_mean = c->id == FUSER_OP_var_mean;
  static const char *const red_params[] = {"arg", "dims", "keepdim", "dtype"};
  static const char *const vm_params[] = {"arg", "dims", "correction", "keepdim"};
  py_expr *a[4];
  if (!imp_bind_args(c->imp, c->call, c->what, var_mean ? vm_params : red_params, 4, 2, a) || !imp_op_push_tensor(c, a[0]))
    return false;
  MlirValue in = c->operands[0];
  int64_t dims[FUSER_MAX_RANK];
  int n;
  if (!imp_op_dims_list(c, a[1], rank_of(in), dims, &n, "dims")) return false;
  bool keepdim = false;
  const py_expr *kd = var_mean ? a[3] : a[2];
  if (kd && !imp_eval_bool(c->imp, kd, "keepdim", &keepdim)) return false;
  add_attr(c, "dims", mlirDenseI64ArrayGet(c->imp->ctx, n, dims));
  add_attr(c, "keepdim", mlirBoolAttrGet(c->imp->ctx, keepdim));
  if (var_mean) {
    int64_t corr = 1;
    if (a[2] && !imp_eval_int(c->imp, a[2], "correction", &corr)) return false;
    add_attr(c, "correction", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), corr));
    if (!c->var_only) return imp_op_finish(c);
    /* fd.ops.var: the variance of a var_mean (whose mean nothing reads) */
    if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
    MlirOperation op = imp_op_emit(c, imp_op_result_loc(c), 2);
    if (mlirOperationIsNull(op)) return false;
    binding *b = imp_bind(c->imp, c->stmt->names[0]);
    b->kind = BIND_VALUE;
    b->value = mlirOperationGetResult(op, 0);
    return true;
  }
  fuser_dtype dt = FUSER_DTYPE_INVALID;
  if (a[3] && !imp_eval_dtype(c->imp, a[3], "reduction dtype", true, &dt)) return false;
  if (dt == FUSER_DTYPE_INVALID) { /* DataType.Null: the input's dtype; sum/prod of bool/int give Int */
    dt = fuser_value_dtype(in);
    if ((c->id == FUSER_OP_sum || c->id == FUSER_OP_prod) && !fuser_dtype_is_float(dt)) dt = FUSER_DTYPE_I64;
  }
  c->hint_dtype = dt;
  return imp_op_finish(c);
}

/* fd.ops.welford(arg, dims) -> (avg, var_sum, n), nvFuser's WelfordRaw,
 * imported as what it computes: avg the mean of var_mean(arg, dims,
 * correction=0), var_sum = var * N and n = full(N) of the reduced shape
 * (Int), N the product of the reduced extents (fuser.size when symbolic, a
 * host scalar). So the kernels are var_mean's and pointwise ones, and the
 * export prints these ops (the round trip gives the same IR). */
bool imp_op_welford(op_call *c) {
  static const char *const params[] = {"arg", "dims"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  if (c->stmt->n_names != 3)
    return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns 3 values but %d name%s assigned", c->what,
                     c->stmt->n_names, c->stmt->n_names == 1 ? " is" : "s are");
  MlirValue in = c->operands[0];
  int64_t dims[FUSER_MAX_RANK];
  int n;
  if (!imp_op_dims_list(c, a[1], rank_of(in), dims, &n, "dims")) return false;
  MlirLocation loc = imp_loc(c->imp, c->call->line, c->call->col);
  /* N: the symbolic extents' product first (fuser.size, scalar mul), then
   * the static product, a constant made at its first use (as a re-import
   * of the export makes it) */
  MlirValue count = {NULL};
  int64_t fixed = 1;
  for (int i = 0; i < n; i++) {
    if (extent_of(in, (int)dims[i]) != dynamic()) {
      fixed *= extent_of(in, (int)dims[i]);
      continue;
    }
    MlirValue e = imp_op_extent_value(c, in, dims[i], loc);
    if (mlirValueIsNull(e)) return false;
    MlirValue f[2] = {count, e};
    count = mlirValueIsNull(count) ? e : imp_op_emit_value(c, FUSER_OP_mul, 2, f, loc, 1, 0);
    if (mlirValueIsNull(count)) return false;
  }
  add_attr(c, "dims", mlirDenseI64ArrayGet(c->imp->ctx, n, dims));
  add_attr(c, "keepdim", mlirBoolAttrGet(c->imp->ctx, false));
  add_attr(c, "correction", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), 0));
  MlirValue var = imp_op_emit_value(c, FUSER_OP_var_mean, 1, &in, loc, 2, 0);
  if (mlirValueIsNull(var)) return false;
  if (fixed != 1 || mlirValueIsNull(count)) {
    MlirValue k = imp_scalar(c->imp, loc, FUSER_DTYPE_I64, false, fixed, 0.0, c->call->line, c->call->col);
    MlirValue f[2] = {count, k};
    count = mlirValueIsNull(count) ? k : imp_op_emit_value(c, FUSER_OP_mul, 2, f, loc, 1, 0);
    if (mlirValueIsNull(count)) return false;
  }
  MlirValue avg = mlirOperationGetResult(mlirOpResultGetOwner(var), 1);
  MlirValue vs[2] = {var, count};
  MlirValue var_sum =
      imp_op_emit_value(c, FUSER_OP_mul, 2, vs, imp_named_loc(c->imp, c->stmt->names[1], c->call->line, c->call->col), 1, 0);
  if (mlirValueIsNull(var_sum)) return false;
  /* n: the count in the reduced shape (the kept dims' extents) */
  MlirValue ops[FUSER_MAX_RANK + 1] = {count};
  int nops = 1;
  c->hint_rank = 0;
  c->hint_dtype = FUSER_DTYPE_I64;
  for (int d = 0; d < rank_of(in); d++) {
    bool reduced = false;
    for (int i = 0; i < n; i++) reduced |= dims[i] == d;
    if (reduced) continue;
    c->hint_shape[c->hint_rank++] = extent_of(in, d);
    if (extent_of(in, d) != dynamic()) continue;
    ops[nops] = imp_op_extent_value(c, in, d, loc);
    if (mlirValueIsNull(ops[nops++])) return false;
  }
  MlirValue nv =
      imp_op_emit_value(c, FUSER_OP_full, nops, ops, imp_named_loc(c->imp, c->stmt->names[2], c->call->line, c->call->col), 1, 0);
  if (mlirValueIsNull(nv)) return false;
  imp_op_bind_name(c, 0, avg);
  imp_op_bind_name(c, 1, var_sum);
  imp_op_bind_name(c, 2, nv);
  return true;
}
