/* fd.ops.matmul and fd.ops.linear -> fuser ops. */
#include "frontend/import_op_call.h"

/* fd.ops.matmul(arg1, arg2) and fd.ops.linear(arg1, arg2, bias=None):
 * tensors only; shapes and dtypes are checked by the inference. */
bool imp_op_matmul(op_call *c) {
  static const char *const params[] = {"arg1", "arg2", "bias"};
  bool linear = c->id == FUSER_OP_linear;
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, linear ? 3 : 2, 2, a)) return false;
  if (!imp_op_push_tensor(c, a[0]) || !imp_op_push_tensor(c, a[1])) return false;
  if (linear && a[2] && a[2]->kind != PY_NONE && !imp_op_push_tensor(c, a[2])) return false;
  return imp_op_finish(c);
}
