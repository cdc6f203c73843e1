/* plan_host_cse.c: identical host scalar ops of the plan merged
 * (plan_host_cse.h): fuser-cse's merge step (passes/cse.c), restricted to
 * the host expression ops. */
#include "lowering/plan_host_cse.h"

#include <stdbool.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"

/* The host expression ops (the ones plan_translate.c reads, and bits):
 * pure, one integer result. */
static bool mergeable(MlirOperation op) {
  switch (fuser_op_id_of(op)) {
  case FUSER_OP_scalar: case FUSER_OP_size: case FUSER_OP_stride: case FUSER_OP_address: case FUSER_OP_bits:
  case FUSER_OP_add: case FUSER_OP_sub: case FUSER_OP_mul: case FUSER_OP_div: case FUSER_OP_fmod:
  case FUSER_OP_ceildiv: case FUSER_OP_maximum: case FUSER_OP_minimum: case FUSER_OP_eq: case FUSER_OP_ne:
  case FUSER_OP_lt: case FUSER_OP_le: case FUSER_OP_gt: case FUSER_OP_ge: case FUSER_OP_logical_and:
  case FUSER_OP_logical_or:
    break;
  default: return false;
  }
  /* a tensor op of the same name (a view's operand is never one) is not host math */
  return mlirOperationGetNumResults(op) == 1 && mlirTypeIsAInteger(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

void fuser_plan_host_cse(MlirOperation plan_func) { fuser_cse_merge_where(fuser_func_body(plan_func), mergeable); }
