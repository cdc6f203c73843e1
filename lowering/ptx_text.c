/* ptx_text.c: a whole module to PTX in one call (lowering.h), for tools
 * (`fuser-translate --emit-ptx`) and tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/lowering.h"

bool fuser_module_needs_plan(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    bool fusion = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.fusion")));
    bool plan = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.plan")));
    if (fusion && !plan) return true;
  }
  return false;
}

bool fuser_module_compile_to_ptx(MlirOperation module, const char *chip, int unroll, int block_size, char *err,
                                 size_t errlen) {
  if (fuser_module_needs_plan(module) && !fuser_run_pipeline(module, FUSER_PLAN_PIPELINE, err, errlen)) return false;
  char pipeline[2048];
  fuser_plan_to_ptx_pipeline_with(chip, unroll, block_size, pipeline, sizeof pipeline);
  return fuser_run_pipeline(module, pipeline, err, errlen);
}
