/* plan_host_cse.h: each host value of the plan function computed once.
 *
 * The plan's host SSA (sizes, strides, addresses, integer constants and
 * + - * div fmod ceildiv min max, compares and logical and/or of them) is
 * written by several builders (fuser-alias-meta-ops' checks and views,
 * fuser-plan-launches' grids, conditions and parameters), each of which
 * writes what it needs. Upstream `cse` cannot merge IRDL ops (no memory
 * effects, docs GUIDE §3), so this does, for those ops only: two ops of the
 * plan function with the same name, operands, attributes and result type
 * become the first one. Views, calls, checks, launches and the index flag
 * (one per call) are never merged: merging two identical views would make
 * two outputs one buffer.
 *
 *   %0 = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
 *   %1 = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
 *   "fuser.launch"(..., %0, %1) ...
 * becomes
 *   %0 = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
 *   "fuser.launch"(..., %0, %0) ...
 *
 * The translator (plan_translate.h) expands a value at each use, so the
 * artifact's programs are the same either way; the IR reads once. */
#ifndef FUSER_LOWERING_PLAN_HOST_CSE_H
#define FUSER_LOWERING_PLAN_HOST_CSE_H

#include "mlir-c/IR.h"

/* Merges the identical host scalar ops of `plan_func`'s body. */
void fuser_plan_host_cse(MlirOperation plan_func);

#endif
