/* vectorize_report.c: the per-kernel report of passes/vectorize.h. */
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/vectorize.h"
#include "support/mlir_print.h"

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static void print_attr(FILE *out, const char *label, MlirAttribute a) {
  fprintf(out, "    %s: ", label);
  if (mlirAttributeIsNull(a)) fputs("not decided (run fuser-vectorize)", out);
  else mlirAttributePrint(a, fuser_print_to_file, out);
  fputc('\n', out);
}

/* "tensor<2x16xbf16> strides [32, 1]" for each argument or result. */
static void print_signature(FILE *out, MlirOperation func, bool results) {
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type")));
  MlirAttribute all = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString(results ? "res_attrs" : "arg_attrs"));
  intptr_t n = results ? mlirFunctionTypeGetNumResults(ft) : mlirFunctionTypeGetNumInputs(ft);
  fprintf(out, "    %s:\n", results ? "outputs" : "inputs");
  for (intptr_t i = 0; i < n; i++) {
    fprintf(out, "      #%ld ", (long)i);
    mlirTypePrint(results ? mlirFunctionTypeGetResult(ft, i) : mlirFunctionTypeGetInput(ft, i), fuser_print_to_file, out);
    if (!mlirAttributeIsNull(all)) {
      MlirAttribute d = mlirArrayAttrGetElement(all, i);
      MlirAttribute s = mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString("fuser.strides"));
      if (!mlirAttributeIsNull(s)) {
        fputs(" strides ", out);
        mlirAttributePrint(s, fuser_print_to_file, out);
      }
    }
    fputc('\n', out);
  }
}

void fuser_vectorize_report(MlirOperation module, FILE *out) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!fuser_is_kernel(f)) continue;
    MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
    fprintf(out, "kernel @%.*s\n    ops:", (int)name.length, name.data);
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
      if (n.length > 6 && memcmp(n.data, "fuser.", 6) == 0) fprintf(out, " %.*s", (int)n.length - 6, n.data + 6);
    }
    fputc('\n', out);
    print_signature(out, f, false);
    print_signature(out, f, true);
    print_attr(out, "vector width", attr(f, "fuser.vector_width"));
    print_attr(out, "flattened shape", attr(f, "fuser.flat_shape"));
    print_attr(out, "access widths", attr(f, "fuser.access_widths"));
    print_attr(out, "access kinds", attr(f, "fuser.access_kinds"));
    print_attr(out, "conditions", attr(f, "fuser.vector_conditions"));
    if (!mlirAttributeIsNull(attr(f, "fuser.row_width"))) { /* the plan for padded rows, when dims merge at run time */
      print_attr(out, "row width", attr(f, "fuser.row_width"));
      print_attr(out, "row conditions", attr(f, "fuser.row_conditions"));
    }
  }
}
