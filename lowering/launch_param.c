/* launch_param.c: the parameter attributes of launch_param.h. */
#include "lowering/launch_param.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static const char *const kind_names[] = {
    [FK_PARAM_PTR] = "ptr", [FK_PARAM_SIZE] = "size", [FK_PARAM_STRIDE] = "stride",
    [FK_PARAM_SCALAR] = "scalar", [FK_PARAM_CHECK] = "check",
};
enum { NUM_KINDS = sizeof kind_names / sizeof kind_names[0] };

MlirAttribute fk_param_attr(MlirContext ctx, const fk_param *p) {
  MlirAttribute v;
  switch (p->kind) {
  case FK_PARAM_SIZE:
  case FK_PARAM_STRIDE: v = mlirDenseI64ArrayGet(ctx, 2, (const int64_t[]){p->tensor, p->dim}); break;
  case FK_PARAM_CHECK: v = mlirUnitAttrGet(ctx); break;
  default: v = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), p->tensor); break;
  }
  MlirNamedAttribute e =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(kind_names[p->kind])), v);
  return mlirDictionaryAttrGet(ctx, 1, &e);
}

bool fk_param_read(MlirAttribute a, fk_param *p) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADictionary(a) || mlirDictionaryAttrGetNumElements(a) != 1) return false;
  MlirNamedAttribute e = mlirDictionaryAttrGetElement(a, 0);
  MlirStringRef name = mlirIdentifierStr(e.name);
  int kind = -1;
  for (int k = 0; k < NUM_KINDS; k++)
    if (name.length == strlen(kind_names[k]) && memcmp(name.data, kind_names[k], name.length) == 0) kind = k;
  fk_param q = {.kind = (fk_param_kind)kind, .tensor = -1, .dim = -1};
  MlirAttribute v = e.attribute;
  switch (kind) {
  case FK_PARAM_PTR:
  case FK_PARAM_SCALAR:
    if (!mlirAttributeIsAInteger(v)) return false;
    q.tensor = (int)mlirIntegerAttrGetValueInt(v);
    if (q.tensor < 0 || mlirIntegerAttrGetValueInt(v) != q.tensor) return false;
    break;
  case FK_PARAM_SIZE:
  case FK_PARAM_STRIDE:
    if (!mlirAttributeIsADenseI64Array(v) || mlirDenseArrayGetNumElements(v) != 2) return false;
    q.tensor = (int)mlirDenseI64ArrayGetElement(v, 0), q.dim = (int)mlirDenseI64ArrayGetElement(v, 1);
    if (q.tensor < 0 || q.dim < 0 || mlirDenseI64ArrayGetElement(v, 0) != q.tensor ||
        mlirDenseI64ArrayGetElement(v, 1) != q.dim)
      return false;
    break;
  case FK_PARAM_CHECK:
    if (!mlirAttributeIsAUnit(v)) return false;
    break;
  default: return false;
  }
  *p = q;
  return true;
}
