/* plan_host_cse.c: identical host scalar ops of the plan merged
 * (plan_host_cse.h): fuser-cse's merge step (passes/cse.c), restricted to
 * the host expression ops. */
#include "lowering/plan_host_cse.h"

#include <stdbool.h>

#include "dialects/fuser.h"
#include "lowering/plan_translate.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"

/* The host expression ops (the ones plan_translate.c reads, and bits):
 * pure, one integer result. */
static bool mergeable(MlirOperation op) {
  fuser_op_id id = fuser_op_id_of(op);
  if (!fuser_plan_translates_op(id) && id != FUSER_OP_bits) return false;
  /* a tensor op of the same name (a view's operand is never one) is not host math */
  return mlirOperationGetNumResults(op) == 1 && mlirTypeIsAInteger(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

void fuser_plan_host_cse(MlirOperation plan_func) { fuser_cse_merge_where(fuser_func_body(plan_func), mergeable); }
