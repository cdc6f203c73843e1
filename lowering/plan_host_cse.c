/* plan_host_cse.c: identical host scalar ops of the plan merged
 * (plan_host_cse.h). One walk in block order with a hash table keyed by
 * (name, operands, attributes, result type): attributes, types and names
 * are uniqued by the context, so pointer identity is equality. */
#include "lowering/plan_host_cse.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

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

static uint64_t mix(uint64_t h, const void *p) { return (h ^ (uint64_t)(uintptr_t)p) * 0x100000001b3ull; }

static uint64_t hash_of(MlirOperation op) {
  uint64_t h = mix(0xcbf29ce484222325ull, mlirOperationGetName(op).ptr);
  h = mix(h, mlirValueGetType(mlirOperationGetResult(op, 0)).ptr);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) h = mix(h, mlirOperationGetOperand(op, i).ptr);
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    h = mix(mix(h, a.name.ptr), a.attribute.ptr);
  }
  return h;
}

/* An op's attributes are a sorted dictionary: equal ones compare in order. */
static bool same(MlirOperation a, MlirOperation b) {
  if (!mlirIdentifierEqual(mlirOperationGetName(a), mlirOperationGetName(b)) ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(a, 0)), mlirValueGetType(mlirOperationGetResult(b, 0))) ||
      mlirOperationGetNumOperands(a) != mlirOperationGetNumOperands(b) ||
      mlirOperationGetNumAttributes(a) != mlirOperationGetNumAttributes(b))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(a); i++)
    if (!mlirValueEqual(mlirOperationGetOperand(a, i), mlirOperationGetOperand(b, i))) return false;
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(a); i++) {
    MlirNamedAttribute x = mlirOperationGetAttribute(a, i), y = mlirOperationGetAttribute(b, i);
    if (!mlirIdentifierEqual(x.name, y.name) || !mlirAttributeEqual(x.attribute, y.attribute)) return false;
  }
  return true;
}

void fuser_plan_host_cse(MlirOperation plan_func) {
  MlirBlock body = fuser_func_body(plan_func);
  size_t n = 0, cap = 16;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) n++;
  while (cap < 2 * n) cap *= 2; /* open addressing, at most half full */
  MlirOperation *kept = calloc(cap, sizeof *kept);
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!mergeable(op)) continue;
    size_t i = (size_t)hash_of(op) & (cap - 1);
    while (!mlirOperationIsNull(kept[i]) && !same(kept[i], op)) i = (i + 1) & (cap - 1);
    if (mlirOperationIsNull(kept[i])) {
      kept[i] = op;
      continue;
    }
    /* the kept op comes first in the block, so it dominates every use */
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(kept[i], 0));
    mlirOperationDestroy(op);
  }
  free(kept);
}
