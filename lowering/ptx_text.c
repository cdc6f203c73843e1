/* ptx_text.c: a whole module to PTX in one call (lowering.h), for tools
 * (`fuser-translate --emit-ptx`) and tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/lowering.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"

bool fuser_module_needs_plan(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    bool fusion = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.fusion")));
    bool plan = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.plan")));
    if (fusion && !plan) return true;
  }
  return false;
}

static bool run(MlirOperation op, const char *text, char *err, size_t errlen) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(mlirOperationGetContext(op),
                                                        mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, text, err, errlen);
  if (ok && !mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) {
    snprintf(err, errlen, "the pipeline failed (see the diagnostics above)");
    ok = false;
  }
  mlirPassManagerDestroy(pm);
  return ok;
}

bool fuser_module_compile_to_ptx(MlirOperation module, const char *chip, int unroll, int block_size, char *err,
                                 size_t errlen) {
  if (fuser_module_needs_plan(module) && !run(module, FUSER_PLAN_PIPELINE, err, errlen)) return false;
  char pipeline[2048];
  fuser_plan_to_ptx_pipeline_with(chip, unroll, block_size, pipeline, sizeof pipeline);
  return run(module, pipeline, err, errlen);
}
