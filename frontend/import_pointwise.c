/* fd.ops.* element-wise ops -> fuser ops: unary, binary and ternary ops
 * (operands of lower rank broadcast and 0-dim operands cast as nvFuser's
 * maybeBroadcast does), cast, triu/tril, and truediv and add_alpha/
 * sub_alpha, imported as the ops they compute. */
#include <stdio.h>

#include "frontend/import_op_call.h"
#include "mlir-c/BuiltinAttributes.h"

/* Appends `name` (a cast or a broadcast) on operand `i`, replacing it. */
static bool wrap_operand(op_call *c, int i, fuser_op_id id, int n_attrs, MlirNamedAttribute *attrs, fuser_dtype to) {
  MlirValue v = c->operands[i];
  fuser_op_desc d = {.id = id, .num_operands = 1, .operands = &v, .num_attrs = n_attrs, .attrs = attrs,
                     .hint_rank = -1, .hint_dtype = to};
  MlirType t;
  char why[256];
  if (!fuser_infer_result_types(c->imp->ctx, &d, &t, why, sizeof why))
    return imp_error(c->imp, c->call->line, c->call->col, "%s: broadcasting operand %d: %s", c->what, i + 1, why);
  MlirOperation op = imp_append_op(c->imp, fuser_op_full_name(id), imp_loc(c->imp, c->call->line, c->call->col), 1, &v,
                                   1, &t, n_attrs, attrs);
  c->operands[i] = mlirOperationGetResult(op, 0);
  return true;
}

/* Tensor operands of different ranks: nvFuser (ops::maybeBroadcast)
 * broadcasts the lower-rank ones on their leading dims to the highest rank,
 * aligning trailing dims as NumPy does, after casting every operand to the
 * common dtype (promoteValues), where a 0-dim tensor ranks between scalars
 * and tensors with dims. Made explicit here (fuser.cast of a 0-dim operand to
 * that dtype, fuser.broadcast), so the element-wise op itself sees one rank
 * and promotes to the same dtype. */
static bool broadcast_ranks(op_call *c) {
  int rank = 0, n = c->n_operands, kinds[4];
  fuser_dtype dts[4];
  bool zero_dim = false;
  for (int i = 0; i < n; i++) {
    MlirValue v = c->operands[i];
    dts[i] = fuser_value_dtype(v);
    kinds[i] = !fuser_value_is_tensor(v) ? FUSER_OPERAND_SCALAR : rank_of(v) == 0 ? FUSER_OPERAND_ZERO_DIM : FUSER_OPERAND_TENSOR;
    if (kinds[i] == FUSER_OPERAND_TENSOR && rank_of(v) > rank) rank = rank_of(v);
    zero_dim |= kinds[i] == FUSER_OPERAND_ZERO_DIM;
  }
  fuser_dtype target = FUSER_DTYPE_INVALID; /* what a 0-dim value operand is cast to */
  fuser_rule rule = fuser_op_rule_of(c->id);
  if (zero_dim && rank > 0) {
    if (rule == FUSER_RULE_WHERE) target = fuser_common_dtype(n - 1, dts + 1, kinds + 1);
    else if (rule == FUSER_RULE_COMPARE || rule == FUSER_RULE_BOOL) target = fuser_common_dtype(n, dts, kinds);
    else target = fuser_promote_kinds(rule, n, dts, kinds, NULL);
  }
  for (int i = 0; i < n; i++) {
    MlirValue v = c->operands[i];
    if (kinds[i] == FUSER_OPERAND_SCALAR || rank_of(v) == rank) continue;
    bool condition = rule == FUSER_RULE_WHERE && i == 0;
    if (kinds[i] == FUSER_OPERAND_ZERO_DIM && !condition && target != FUSER_DTYPE_INVALID && dts[i] != target &&
        !wrap_operand(c, i, FUSER_OP_cast, 0, NULL, target))
      return false;
    int flags[FUSER_MAX_RANK], lead = rank - rank_of(v);
    for (int d = 0; d < rank; d++) flags[d] = d < lead;
    MlirNamedAttribute attr = imp_named(c->imp, "is_broadcast_dim", mlirDenseBoolArrayGet(c->imp->ctx, rank, flags));
    if (!wrap_operand(c, i, FUSER_OP_broadcast, 1, &attr, FUSER_DTYPE_INVALID)) return false;
  }
  return true;
}

bool imp_op_elementwise(op_call *c, int arity) {
  static const char *const names[3][3] = {{"arg"}, {"arg1", "arg2"}, {"arg1", "arg2", "arg3"}};
  bool is_cast = c->id == FUSER_OP_cast;
  const char *cast_params[] = {"arg", "dtype"};
  py_expr *a[3];
  if (is_cast) {
    if (!imp_bind_args(c->imp, c->call, c->what, cast_params, 2, 2, a)) return false;
    if (!imp_eval_dtype(c->imp, a[1], "cast dtype", false, &c->hint_dtype)) return false;
    return imp_op_push_operand(c, a[0], "cast input") && imp_op_finish(c);
  }
  if (!imp_bind_args(c->imp, c->call, c->what, names[arity - 1], arity, arity, a)) return false;
  for (int i = 0; i < arity; i++) {
    char what[80];
    snprintf(what, sizeof what, "%s operand %d", c->what, i + 1);
    if (!imp_op_push_operand(c, a[i], what)) return false;
  }
  return broadcast_ranks(c) && imp_op_finish(c);
}

/* fd.ops.triu(arg, diagonal=0), fd.ops.tril(arg, diagonal=0) */
bool imp_op_triangle(op_call *c) {
  static const char *const params[] = {"arg", "diagonal"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 1, a) || !imp_op_push_tensor(c, a[0])) return false;
  int64_t diagonal = 0;
  if (a[1] && !imp_eval_int(c->imp, a[1], "diagonal", &diagonal)) return false;
  add_attr(c, "diagonal", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), diagonal));
  return imp_op_finish(c);
}

/* fd.ops.truediv(arg1, arg2): nvFuser's div that promotes integer operands
 * to float (float_op_config): when no operand is floating point, each is
 * cast first (to Float when a tensor takes part, to Double for scalars
 * alone), then a plain fuser.div; exported as those ops (the round trip
 * gives the same IR). */
bool imp_op_truediv(op_call *c) {
  static const char *const params[] = {"arg1", "arg2"};
  py_expr *a[2];
  c->id = FUSER_OP_div;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_operand(c, a[0], "fd.ops.truediv operand 1") ||
      !imp_op_push_operand(c, a[1], "fd.ops.truediv operand 2"))
    return false;
  bool any_float = false, any_tensor = false;
  for (int i = 0; i < 2; i++) {
    any_float |= fuser_dtype_is_float(fuser_value_dtype(c->operands[i]));
    any_tensor |= fuser_value_is_tensor(c->operands[i]);
  }
  for (int i = 0; i < 2 && !any_float; i++)
    if (!wrap_operand(c, i, FUSER_OP_cast, 0, NULL, any_tensor ? FUSER_DTYPE_F32 : FUSER_DTYPE_F64)) return false;
  return broadcast_ranks(c) && imp_op_finish(c);
}

/* fd.ops.add_alpha(arg1, arg2, arg3) / sub_alpha (classic nvFuser):
 * arg1 + arg2 * arg3 / arg1 - arg2 * arg3, imported as the mul and the
 * add/sub they compute (each with nvFuser's promotion and rank
 * broadcasting); exported as those ops (the same IR on re-import). */
bool imp_op_alpha(op_call *c, fuser_op_id outer) {
  static const char *const params[] = {"arg1", "arg2", "arg3"};
  py_expr *a[3];
  MlirValue x;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a) || !imp_eval_value(c->imp, a[0], "operand 1", &x)) return false;
  c->id = FUSER_OP_mul;
  if (!imp_op_push_operand(c, a[1], "operand 2") || !imp_op_push_operand(c, a[2], "operand 3") || !broadcast_ranks(c))
    return false;
  MlirValue product = imp_op_emit_value(c, FUSER_OP_mul, 2, c->operands, imp_loc(c->imp, c->call->line, c->call->col), 1, 0);
  if (mlirValueIsNull(product)) return false;
  c->operands[0] = x, c->operands[1] = product, c->n_operands = 2, c->id = outer;
  return broadcast_ranks(c) && imp_op_finish(c);
}
