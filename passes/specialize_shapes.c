/* fuser-specialize-shapes: give the fusion's `?` input extents the sizes of
 * its example inputs (the script's inputs block, `fuser.inputs`) and
 * re-infer every result type from them.
 *
 * nvFuser compiles for the extents it is called with (FusionExecutorCache
 * concretizes symbolic sizes); this pass does the same ahead of time for
 * the script's own inputs, so that extents known only at run time become
 * static: a `(2, 16, 1024, 0)` input is statically empty (fuser-remove-empty
 * then drops the cat that reads it), strides become constants, and the two
 * forms of the seed fusion (#2613) compute with identical ops. Without
 * `fuser.inputs` the fusion is left as it is.
 *
 * Option empty-only: pin only the `?` extents that are 0 in the example
 * inputs, as nvFuser's concretization does (a dynamic fusion is
 * concretized per set of empty extents): the code stays generic in every
 * other size, and an empty operand (the seed's `(2, 16, 1024, 0)` input)
 * becomes statically empty, so fuser-remove-empty drops it. The default
 * plan pipeline (FUSER_PLAN_PIPELINE) starts with it.
 *
 * Before:
 *   func.func @f(%a: tensor<?x4xf32>) ... attributes {fuser.fusion, fuser.inputs = [{... sizes = array<i64: 8, 4> ...}]}
 *     %0 = "fuser.neg"(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
 * After:
 *   func.func @f(%a: tensor<8x4xf32>) ...
 *     %0 = "fuser.neg"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
 */
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

static bool specialize(MlirOperation func, void *ud) {
  bool empty_only = *(const bool *)ud;
  MlirAttribute inputs = mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.inputs"));
  if (mlirAttributeIsNull(inputs) || !mlirAttributeIsAArray(inputs)) return true;
  MlirBlock body = fuser_func_body(func);
  MlirContext ctx = mlirOperationGetContext(func);
  intptr_t nargs = mlirBlockGetNumArguments(body);
  MlirType arg_types[64];
  if (nargs > 64) return true;
  for (intptr_t i = 0; i < nargs; i++) {
    MlirValue a = mlirBlockGetArgument(body, i);
    MlirType t = mlirValueGetType(a);
    arg_types[i] = t;
    if (!mlirTypeIsARankedTensor(t) || i >= mlirArrayAttrGetNumElements(inputs)) continue;
    MlirAttribute sizes = mlirDictionaryAttrGetElementByName(mlirArrayAttrGetElement(inputs, i), mlirStringRefCreateFromCString("sizes"));
    int rank = (int)mlirShapedTypeGetRank(t);
    if (mlirAttributeIsNull(sizes) || mlirDenseArrayGetNumElements(sizes) != rank) continue;
    int64_t shape[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) {
      shape[d] = mlirShapedTypeGetDimSize(t, d);
      int64_t given = mlirDenseI64ArrayGetElement(sizes, d);
      if (mlirShapedTypeIsDynamicDim(t, d)) shape[d] = empty_only && given != 0 ? shape[d] : given;
      else if (shape[d] != given) {
        char msg[256];
        snprintf(msg, sizeof msg, "fuser.inputs gives argument #%ld extent %lld in dim %d, but its type says %lld", (long)i,
                 (long long)given, d, (long long)shape[d]);
        mlirEmitError(mlirOperationGetLocation(func), msg);
        return false;
      }
    }
    arg_types[i] = mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(t), mlirRankedTensorTypeGetEncoding(t));
    mlirValueSetType(a, arg_types[i]);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    char err[512];
    if (!fuser_reinfer_op(op, err, sizeof err)) {
      char msg[640];
      snprintf(msg, sizeof msg, "with the example inputs' extents: %s", err);
      mlirEmitError(mlirOperationGetLocation(op), msg);
      return false;
    }
  }
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t nres = mlirOperationGetNumOperands(ret);
  MlirType res_types[64];
  if (nres > 64) return false;
  for (intptr_t i = 0; i < nres; i++) res_types[i] = mlirValueGetType(mlirOperationGetOperand(ret, i));
  MlirType fty = mlirFunctionTypeGet(ctx, nargs, arg_types, nres, res_types);
  mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("function_type"), mlirTypeAttrGet(fty));
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  bool empty_only = fuser_pass_option_bool(options, "empty-only");
  return fuser_for_each_fusion(op, specialize, &empty_only);
}

const fuser_pass_info fuser_specialize_shapes_pass = {
    .argument = "fuser-specialize-shapes",
    .description = "Give `?` input extents the sizes of the fusion's example inputs (fuser.inputs) and re-infer types",
    .anchor = "builtin.module",
    .options = {{"empty-only", "false", "pin only the extents that are 0 in the example inputs (nvFuser concretizes empty extents)"}},
    .run = run,
};
