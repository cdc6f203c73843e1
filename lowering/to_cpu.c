/* fuser-kernels-to-cpu: loop-level functions -> functions the CPU JIT calls.
 *
 * Marks every `fuser.loops` function with `llvm.emit_c_interface` (the JIT
 * calls `_mlir_ciface_<name>` with one memref descriptor pointer per tensor
 * and the integer/scalar parameters by value) and removes the functions at
 * fuser level (kernels, plans, fusions: their ops have no LLVM lowering).
 * The scf.parallel over threads then runs sequentially after
 * convert-scf-to-cf; the loop bodies are the ones the GPU runs. No launch
 * records: which variant runs, with which parameters, is the plan's
 * fuser.launch ops (of the same kernels lowered for the GPU), which the CPU
 * plan (lowering/cpu_plan.h) evaluates and calls by entry name.
 *
 *   func.func @f_k0__vector(%ptr_t0: memref<1xbf16>, ...) attributes {fuser.loops, ...}
 * becomes
 *   func.func @f_k0__vector(%ptr_t0: memref<1xbf16>, ...) attributes {fuser.loops, llvm.emit_c_interface, ...} */
#include <string.h>

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
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (fuser_is_loops_func(op))
      mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
                                                 mlirUnitAttrGet(ctx));
    else if (is_func(op) && (has_attr(op, "fuser.kernel") || has_attr(op, "fuser.plan") || has_attr(op, "fuser.fusion")))
      mlirOperationDestroy(op);
    op = next;
  }
  return true;
}

const fuser_pass_info fuser_kernels_to_cpu_pass = {
    .argument = "fuser-kernels-to-cpu",
    .description = "Prepare loop-level kernel functions for the CPU JIT (C interface) and drop fuser-level functions",
    .anchor = "builtin.module",
    .run = run,
};
