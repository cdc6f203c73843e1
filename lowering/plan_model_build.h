/* plan_model_build.h: filling a fuser_plan_model from MLIR (see plan_model.h).
 *
 *   fuser_plan_model_build(module)         after fuser-segment: inputs, outputs,
 *                                          temps, and each kernel call's tensors
 *   fuser_plan_model_add_launches(module)  after the PTX pipeline: runs
 *                                          fuser-plan-launches (the records become
 *                                          the plan's fuser.launch ops), then reads
 *                                          PTX modules, parameters, grids, variants
 *                                          from those ops */
#ifndef FUSER_LOWERING_PLAN_MODEL_BUILD_H
#define FUSER_LOWERING_PLAN_MODEL_BUILD_H

#include "lowering/plan_model.h"
#include "mlir-c/IR.h"

bool fuser_plan_model_build(MlirOperation module, fuser_plan_model *m, char *err, size_t errlen);
bool fuser_plan_model_add_launches(fuser_plan_model *m, MlirOperation module, char *err, size_t errlen);

#endif
