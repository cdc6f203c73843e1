/* fuser-kernels-to-cpu: loop-level functions -> functions the CPU JIT calls.
 *
 * Marks every `fuser.loops` function with `llvm.emit_c_interface` (the JIT
 * calls `_mlir_ciface_<name>` with one memref descriptor pointer per tensor
 * and the integer/scalar parameters by value) and removes the functions at
 * fuser level (kernels, plans, fusions: their ops have no LLVM lowering).
 * The scf.parallel over threads then runs sequentially after
 * convert-scf-to-cf; the loop bodies are the ones the GPU runs. The
 * variants are listed in the module attribute `fuser.launches` as for the
 * GPU (the entry a flat reference `@f_k0__vector` to the function itself), so lowering/cpu_jit.c picks them the same way.
 *
 *   func.func @f_k0__vector(%ptr_t0: memref<1xbf16>, ...) attributes {fuser.loops, ...}
 * becomes
 *   func.func @f_k0__vector(%ptr_t0: memref<1xbf16>, ...) attributes {fuser.loops, llvm.emit_c_interface, ...} */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/pass.h"

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name)));
}

static bool is_func(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == 9 && memcmp(n.data, "func.func", 9) == 0;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  int nlaunch = 0, caplaunch = 16;
  MlirAttribute *launches = malloc((size_t)caplaunch * sizeof *launches);
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (is_func(op) && has_attr(op, "fuser.loops")) {
      MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name")));
      char entry[256];
      snprintf(entry, sizeof entry, "%.*s", (int)sym.length, sym.data);
      if (nlaunch == caplaunch) launches = realloc(launches, (size_t)(caplaunch *= 2) * sizeof *launches);
      launches[nlaunch++] = fuser_launch_dict(op, NULL, entry, 1);
      mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
                                                 mlirUnitAttrGet(ctx));
    } else if (is_func(op) && (has_attr(op, "fuser.kernel") || has_attr(op, "fuser.plan") || has_attr(op, "fuser.fusion"))) {
      mlirOperationDestroy(op);
    }
    op = next;
  }
  if (nlaunch)
    mlirOperationSetDiscardableAttributeByName(module, mlirStringRefCreateFromCString("fuser.launches"),
                                               mlirArrayAttrGet(ctx, nlaunch, launches));
  free(launches);
  return true;
}

const fuser_pass_info fuser_kernels_to_cpu_pass = {
    .argument = "fuser-kernels-to-cpu",
    .description = "Prepare loop-level kernel functions for the CPU JIT (C interface) and drop fuser-level functions",
    .anchor = "builtin.module",
    .run = run,
};
