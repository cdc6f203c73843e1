/* fd.ops.index_select, gather and take_along_axis -> fuser ops. */
#include "frontend/import_op_call.h"
#include "mlir-c/BuiltinAttributes.h"

/* fd.ops.index_select(arg, index, dim), fd.ops.gather(arg, index, dim),
 * fd.ops.take_along_axis(arg, index, dim): dim wrapped against arg's rank. */
bool imp_op_index(op_call *c) {
  static const char *const params[] = {"arg", "index", "dim"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a) || !imp_op_push_tensor(c, a[0]) || !imp_op_push_tensor(c, a[1]))
    return false;
  int64_t dim;
  if (!imp_eval_int(c->imp, a[2], "dim", &dim) || !imp_op_normalize_dim(c, a[2], &dim, rank_of(c->operands[0]), "dim"))
    return false;
  add_attr(c, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), dim));
  return imp_op_finish(c);
}
