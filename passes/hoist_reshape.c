/* fuser-hoist-reshape: a reshape of a computed value moves onto the
 * operands of the elementwise ops that compute it, up to the fusion's
 * inputs, where fuser-alias-meta-ops makes it a strided view.
 *
 * Why: inside a kernel a reshape of a computed value is index arithmetic the
 * access analysis cannot follow (a linearize and delinearize per point), so
 * the whole kernel gets vector width 1. Splitting attention heads, reshape
 * (B, S, H*D) -> (B, S, H, D) then permute [0, 2, 1, 3], read and wrote 2
 * bytes per access. An elementwise op commutes with any reshape of all its
 * operands, and a reshape of an input is a view (when PyTorch's rule allows
 * it: a split always does), so the kernel reads the view with the 16-byte
 * accesses of any strided tensor.
 *
 * When: the reshape's operand is the single result of a unary, binary or
 * ternary elementwise op used only by the reshape, whose tensor operands all
 * have the op's result shape (no implicit broadcast) and which does not read
 * its index (tril/triu). Repeated until no reshape moves.
 *
 * Layouts stay nvFuser's: an output downstream of a moved reshape gets the
 * stride order fuser-allocation-order infers on the fusion as written (a
 * reshape that splits the reference's innermost dim ends the mapping: the
 * output is row-major), as an explicit result attribute; on the views the
 * inference would map the split dims and store the output in the input's
 * order instead.
 *
 * Before:
 *   %0 = "fuser.mul"(%arg0, %arg0) : (tensor<2x64x256xbf16>, tensor<2x64x256xbf16>) -> tensor<2x64x256xf32>
 *   %1 = "fuser.reshape"(%0) : (tensor<2x64x256xf32>) -> tensor<2x64x4x64xf32>
 * After:
 *   %0 = "fuser.reshape"(%arg0) : (tensor<2x64x256xbf16>) -> tensor<2x64x4x64xbf16>
 *   %1 = "fuser.mul"(%0, %0) : (tensor<2x64x4x64xbf16>, tensor<2x64x4x64xbf16>) -> tensor<2x64x4x64xf32>
 */
#include <stdlib.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/allocation_order.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "passes/ptr_map.h"

/* Whether v has exactly one use. */
static bool single_use(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

static bool same_shape(MlirType a, MlirType b) {
  intptr_t r = mlirShapedTypeGetRank(a);
  if (r != mlirShapedTypeGetRank(b)) return false;
  for (intptr_t d = 0; d < r; d++)
    if (mlirShapedTypeGetDimSize(a, d) != mlirShapedTypeGetDimSize(b, d)) return false;
  return true;
}

/* The elementwise op whose result `reshape` reads, if the reshape can move
 * onto its operands; else a null op. */
static MlirOperation movable_producer(MlirOperation reshape) {
  MlirOperation none = {NULL};
  MlirValue in = mlirOperationGetOperand(reshape, 0);
  if (mlirValueIsABlockArgument(in) || !single_use(in)) return none;
  MlirOperation p = mlirOpResultGetOwner(in);
  fuser_op_id id = fuser_op_id_of(p);
  fuser_op_kind kind = fuser_op_kind_of(id);
  if ((kind != FUSER_KIND_UNARY && kind != FUSER_KIND_BINARY && kind != FUSER_KIND_TERNARY) || fuser_is_triangle_op(id) ||
      mlirOperationGetNumResults(p) != 1)
    return none;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(p); i++) {
    MlirValue o = mlirOperationGetOperand(p, i);
    if (fuser_value_is_tensor(o) && !same_shape(mlirValueGetType(o), mlirValueGetType(in))) return none;
  }
  return p;
}

/* `t` with the reshape's result shape. */
static MlirType reshaped(MlirOperation reshape, MlirType t) {
  MlirType r = mlirValueGetType(mlirOperationGetResult(reshape, 0));
  intptr_t rank = mlirShapedTypeGetRank(r);
  int64_t shape[FUSER_MAX_RANK];
  for (intptr_t d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(r, d);
  return mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(t), mlirAttributeGetNull());
}

/* A growable list of ops (the worklist of reshapes to try). */
typedef struct {
  MlirOperation *ops;
  int n, cap;
} op_list;

static void push(op_list *l, MlirOperation op) {
  if (l->n == l->cap) l->ops = realloc(l->ops, (size_t)(l->cap = l->cap ? 2 * l->cap : 16) * sizeof *l->ops);
  l->ops[l->n++] = op;
}

/* reshape(p(a, b, ...)) -> p(reshape(a), reshape(b), ...): one reshape per
 * distinct tensor operand, each a clone of `reshape` (its shape operands
 * and location) reading that operand, pushed on `work`. */
static void move(MlirOperation reshape, MlirOperation p, op_list *work) {
  intptr_t n = mlirOperationGetNumOperands(p);
  MlirValue moved[4];
  MlirOperation q = mlirOperationClone(p);
  for (intptr_t i = 0; i < n && i < 4; i++) {
    MlirValue o = mlirOperationGetOperand(p, i);
    moved[i] = o;
    if (!fuser_value_is_tensor(o)) continue;
    for (intptr_t j = 0; j < i; j++)
      if (mlirValueEqual(mlirOperationGetOperand(p, j), o)) moved[i] = moved[j];
    if (!mlirValueEqual(moved[i], o)) {
      mlirOperationSetOperand(q, i, moved[i]);
      continue;
    }
    MlirOperation r = mlirOperationClone(reshape);
    mlirOperationSetOperand(r, 0, o);
    mlirValueSetType(mlirOperationGetResult(r, 0), reshaped(reshape, mlirValueGetType(o)));
    fuser_insert_before(reshape, r);
    push(work, r);
    moved[i] = mlirOperationGetResult(r, 0);
    mlirOperationSetOperand(q, i, moved[i]);
  }
  mlirValueSetType(mlirOperationGetResult(q, 0), mlirValueGetType(mlirOperationGetResult(reshape, 0)));
  fuser_insert_before(reshape, q);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(reshape, 0), mlirOperationGetResult(q, 0));
  mlirOperationDestroy(reshape);
  mlirOperationDestroy(p);
}

/* Marks in `tainted` every op of the fusion's body that is in `moving` or
 * uses a value of a marked op: one walk in order (each op's operands are
 * defined above it). */
static void mark_dependents(MlirOperation func, const fuser_ptr_map *moving, fuser_ptr_map *tainted) {
  intptr_t one;
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(func)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    bool t = fuser_ptr_map_get(moving, op.ptr, &one);
    for (intptr_t i = 0; !t && i < mlirOperationGetNumOperands(op); i++) {
      MlirValue x = mlirOperationGetOperand(op, i);
      t = !mlirValueIsABlockArgument(x) && fuser_ptr_map_get(tainted, mlirOpResultGetOwner(x).ptr, &one);
    }
    if (t) fuser_ptr_map_put(tainted, op.ptr, 1);
  }
}

/* Gives each output that depends on a reshape about to move, and has no
 * explicit order, the order fuser-allocation-order infers on the fusion as
 * written (on a clone: the fusion's own ops keep their attributes). */
static void pin_output_orders(MlirOperation func, const fuser_ptr_map *moving) {
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(func));
  MlirOperation clone = {NULL};
  fuser_ptr_map tainted;
  fuser_ptr_map_init(&tainted);
  mark_dependents(func, moving, &tainted);
  intptr_t one;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    if (!mlirAttributeIsNull(fuser_func_result_attr(func, (int)i, "fuser.stride_order"))) continue;
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (mlirValueIsABlockArgument(v) || !fuser_ptr_map_get(&tainted, mlirOpResultGetOwner(v).ptr, &one)) continue;
    if (mlirOperationIsNull(clone)) {
      clone = mlirOperationClone(func);
      fuser_allocation_order_fusion(clone);
    }
    MlirAttribute so = fuser_func_result_attr(clone, (int)i, "fuser.stride_order");
    if (!mlirAttributeIsNull(so)) fuser_func_set_result_attr(func, (int)i, "fuser.stride_order", so);
  }
  if (!mlirOperationIsNull(clone)) mlirOperationDestroy(clone);
  fuser_ptr_map_free(&tainted);
}

static bool hoist_fusion(MlirOperation func, void *ud) {
  (void)ud;
  MlirBlock body = fuser_func_body(func);
  fuser_ptr_map moving;
  fuser_ptr_map_init(&moving);
  op_list work = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_op_id_of(op) == FUSER_OP_reshape && !mlirOperationIsNull(movable_producer(op))) {
      fuser_ptr_map_put(&moving, op.ptr, 1);
      push(&work, op);
    }
  if (work.n > 0) pin_output_orders(func, &moving);
  fuser_ptr_map_free(&moving);
  while (work.n > 0) {
    MlirOperation op = work.ops[--work.n];
    MlirOperation p = movable_producer(op);
    if (!mlirOperationIsNull(p)) move(op, p, &work);
  }
  free(work.ops);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  (void)options;
  return fuser_for_each_fusion(op, hoist_fusion, NULL);
}

const fuser_pass_info fuser_hoist_reshape_pass = {
    .argument = "fuser-hoist-reshape",
    .description = "Move reshapes of computed values onto the elementwise ops' operands, up to the inputs (views)",
    .anchor = "builtin.module",
    .run = run,
};
