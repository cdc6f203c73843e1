/* Attribute helpers. fuser ops are IRDL ops: their attributes are read and
 * written through the discardable accessors only (inherent access aborts). */
#include "dialects/fuser.h"

#include "mlir-c/BuiltinAttributes.h"

int fuser_attr_i64_array(MlirAttribute a, int64_t *out, int cap) {
  if (mlirAttributeIsNull(a)) return -1;
  intptr_t n;
  if (mlirAttributeIsADenseI64Array(a)) {
    n = mlirDenseArrayGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++) out[i] = mlirDenseI64ArrayGetElement(a, i);
  } else if (mlirAttributeIsADenseI32Array(a)) {
    n = mlirDenseArrayGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++) out[i] = mlirDenseI32ArrayGetElement(a, i);
  } else if (mlirAttributeIsADenseBoolArray(a)) {
    n = mlirDenseArrayGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++) out[i] = mlirDenseBoolArrayGetElement(a, i);
  } else {
    return -1;
  }
  return (int)n;
}

bool fuser_attr_i64(MlirAttribute a, int64_t *out) {
  if (mlirAttributeIsNull(a)) return false;
  if (mlirAttributeIsABool(a)) {
    *out = mlirBoolAttrGetValue(a);
    return true;
  }
  if (!mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

int fuser_get_i64_array(MlirOperation op, const char *name, int64_t *out, int cap) {
  return fuser_attr_i64_array(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name)), out, cap);
}

bool fuser_get_i64(MlirOperation op, const char *name, int64_t *out) {
  return fuser_attr_i64(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name)), out);
}

MlirAttribute fuser_i64_array_attr(MlirContext ctx, const int64_t *v, int n) {
  return mlirDenseI64ArrayGet(ctx, n, v);
}

void fuser_set_i64_array(MlirOperation op, const char *name, const int64_t *v, int n) {
  mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name),
                                             fuser_i64_array_attr(mlirOperationGetContext(op), v, n));
}
