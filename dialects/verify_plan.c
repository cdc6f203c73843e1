/* verify_plan.c: what the plan level (docs/plan.md) must hold beyond each
 * op's own rules, checked by fuser-verify:
 *   - a fuser.view of a fusion input whose extents, offset and strides are
 *     all static stays inside the input's storage when that storage is
 *     known (static extents, every dim contiguous or a broadcast): the
 *     runtime builds it by pointer arithmetic, so a view past the end
 *     reads memory the caller never gave;
 *   - a func.call of the plan names a kernel (func.func with fuser.kernel)
 *     that has a body; func.call's own verifier checks the arity and types.
 * What only the call can tell (`?` extents, run-time strides) is checked
 * there: the input checks every variant carries and the runtime's proof that
 * each alias output lies inside its input (docs/runtime.md).
 *
 *   func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x800xf32> attributes {fuser.fusion, fuser.plan} {
 *     %0 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 8, 1>}
 *          : (tensor<4x8xf32>) -> tensor<4x800xf32>
 *   error: 'fuser.view' op reaches element 823 of input #0, which has 32
 */
#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/checked_math.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* The element count of fusion argument `arg`'s storage when it is known
 * statically: static extents and every dim True or None. */
static bool known_storage(MlirValue arg, int64_t *numel) {
  MlirType t = mlirValueGetType(arg);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return false;
  MlirOperation func = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(arg));
  MlirAttribute all = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  intptr_t k = mlirBlockArgumentGetArgNumber(arg);
  MlirAttribute dict = !mlirAttributeIsNull(all) && mlirAttributeIsAArray(all) && k < mlirArrayAttrGetNumElements(all)
                           ? mlirArrayAttrGetElement(all, k)
                           : mlirAttributeGetNull();
  MlirAttribute co = !mlirAttributeIsNull(dict) && mlirAttributeIsADictionary(dict)
                         ? mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.contiguity"))
                         : mlirAttributeGetNull();
  /* no contiguity: contiguous (nvFuser's default); a False dim: strides at run time */
  for (intptr_t i = 0; !mlirAttributeIsNull(co) && mlirAttributeIsADenseI64Array(co) && i < mlirDenseArrayGetNumElements(co); i++)
    if (mlirDenseI64ArrayGetElement(co, i) == 0) return false;
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t sizes[FUSER_MAX_RANK];
  if (rank > FUSER_MAX_RANK) return false;
  for (int d = 0; d < rank; d++) sizes[d] = mlirShapedTypeGetDimSize(t, d);
  return fuser_numel_i64(sizes, rank, numel);
}

static bool verify_view(MlirOperation op, char *err, size_t errlen) {
  MlirValue in = mlirOperationGetOperand(op, 0);
  int64_t numel;
  if (!mlirValueIsABlockArgument(in) || !known_storage(in, &numel)) return true;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t strides[FUSER_MAX_RANK], sizes[FUSER_MAX_RANK], offset = 0;
  int rank = fuser_get_i64_array(op, "static_strides", strides, FUSER_MAX_RANK);
  MlirAttribute off = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("static_offset"));
  if (mlirAttributeIsNull(off) || !mlirAttributeIsAInteger(off) || !mlirTypeIsARankedTensor(rt) ||
      rank != mlirShapedTypeGetRank(rt) || mlirOperationGetNumOperands(op) != 1)
    return true; /* something symbolic (or malformed: the op's own rules say so) */
  offset = mlirIntegerAttrGetValueInt(off);
  for (int d = 0; d < rank; d++) sizes[d] = mlirShapedTypeGetDimSize(rt, d);
  int64_t lo, hi;
  bool empty;
  if (!fuser_view_span(offset, sizes, strides, rank, &lo, &hi, &empty)) {
    snprintf(err, errlen, "reaches elements beyond int64 of input #%d", (int)mlirBlockArgumentGetArgNumber(in));
    return false;
  }
  if (!empty && (lo < 0 || hi >= numel)) {
    snprintf(err, errlen, "reaches element %lld of input #%d, which has %lld", (long long)(lo < 0 ? lo : hi),
             (int)mlirBlockArgumentGetArgNumber(in), (long long)numel);
    return false;
  }
  return true;
}

static MlirOperation find_function(MlirOperation module, MlirAttribute callee) {
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym)) continue;
    MlirStringRef s = mlirStringAttrGetValue(sym);
    if (s.length == name.length && memcmp(s.data, name.data, s.length) == 0) return f;
  }
  return (MlirOperation){NULL};
}

static bool verify_call(MlirOperation op, char *err, size_t errlen) {
  MlirAttribute callee = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"));
  MlirOperation func = mlirOperationGetParentOperation(op);
  MlirOperation module = mlirOperationIsNull(func) ? func : mlirOperationGetParentOperation(func);
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee) || mlirOperationIsNull(module)) return true;
  MlirOperation f = find_function(module, callee);
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  if (mlirOperationIsNull(f) ||
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.kernel")))) {
    snprintf(err, errlen, "calls @%.*s, which is not a kernel of the plan (func.func with fuser.kernel)", (int)name.length, name.data);
    return false;
  }
  /* a declaration has nothing to run: every reader of the plan walks the callee's body */
  if (mlirOperationGetNumRegions(f) == 0 || mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)))) {
    snprintf(err, errlen, "calls @%.*s, a kernel without a body (a declaration)", (int)name.length, name.data);
    return false;
  }
  return true;
}

static bool in_plan(MlirOperation op) {
  MlirOperation func = mlirOperationGetParentOperation(op);
  return !mlirOperationIsNull(func) &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.plan")));
}

bool fuser_verify_plan_op(MlirOperation op, char *err, size_t errlen) {
  if (fuser_op_id_of(op) == FUSER_OP_view) return verify_view(op, err, errlen);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length == 9 && memcmp(n.data, "func.call", 9) == 0 && in_plan(op)) return verify_call(op, err, errlen);
  return true;
}
