/* fuser-remove-empty: drop ops that move no data, so they cost no kernel
 * parameter or predicate (nvFuser's RemoveEmpty, in spirit).
 *
 *   cat(x, e) or cat(e, x) where e is statically empty along the cat dim -> x
 *   pad(x) with all widths zero                                         -> x
 *   slice(x) covering every (static) extent                             -> x
 *   set(x)                                                              -> x
 * Each only when x already has the result's type; a set with its own
 * stride order (fd.ops.stride_order) stays: it stores x in that layout.
 *
 * Before:
 *   %1 = "fuser.cat"(%0, %e) {dim = 1 : i64} : (tensor<4x8xbf16>, tensor<4x0xbf16>) -> tensor<4x8xbf16>
 * After: uses of %1 read %0.
 */
#include "dialects/fuser.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

static bool empty_along(MlirValue v, int64_t dim) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), dim) == 0;
}

/* The operand the op's result equals, or a null value. */
static MlirValue forwarded(MlirOperation op) {
  MlirValue none = {NULL};
  fuser_op_id id = fuser_op_id_of(op);
  MlirValue in = mlirOperationGetNumOperands(op) ? mlirOperationGetOperand(op, 0) : none;
  int64_t a[2 * FUSER_MAX_RANK], b[FUSER_MAX_RANK], dim;
  switch (id) {
  case FUSER_OP_cat:
    if (!fuser_get_i64(op, "dim", &dim)) return none;
    if (empty_along(mlirOperationGetOperand(op, 1), dim)) return in;
    if (empty_along(in, dim)) return mlirOperationGetOperand(op, 1);
    return none;
  case FUSER_OP_pad: {
    int n = fuser_get_i64_array(op, "pad_widths", a, 2 * FUSER_MAX_RANK);
    for (int i = 0; i < n; i++)
      if (a[i]) return none;
    return in;
  }
  case FUSER_OP_slice: {
    int n = fuser_get_i64_array(op, "start_indices", a, FUSER_MAX_RANK);
    fuser_get_i64_array(op, "end_indices", b, FUSER_MAX_RANK);
    for (int d = 0; d < n; d++)
      if (a[d] != 0 || b[d] != mlirShapedTypeGetDimSize(mlirValueGetType(in), d)) return none;
    return in;
  }
  case FUSER_OP_set:
    return fuser_op_is_layout_set(op) ? none : in;
  default:
    return none;
  }
}

static bool simplify(MlirOperation func, void *ud) {
  MlirBlock body = fuser_func_body(func);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirValue x = forwarded(op);
    if (mlirValueIsNull(x)) continue;
    MlirValue r = mlirOperationGetResult(op, 0);
    if (mlirTypeEqual(mlirValueGetType(x), mlirValueGetType(r))) mlirValueReplaceAllUsesOfWith(r, x);
  }
  fuser_erase_dead_ops(body);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  return fuser_for_each_fusion(op, simplify, NULL);
}

const fuser_pass_info fuser_remove_empty_pass = {
    .argument = "fuser-remove-empty",
    .description = "Forward cats with an empty operand, zero pads, full slices and sets to their input",
    .anchor = "builtin.module",
    .run = run,
};
