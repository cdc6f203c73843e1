/* launch_param.h: a kernel parameter (fk_param, kernel_gen.h) as the typed
 * attribute the IR carries in `fuser.params` and the launch records: a
 * dictionary of one entry named by the kind,
 *   {ptr = 0 : i64}                    the pointer of tensor 0
 *   {size = array<i64: 6, 0>}          the extent of dim 0 of tensor 6
 *   {stride = array<i64: 2, 1>}        the run-time stride of dim 1 of tensor 2
 *   {scalar = 3 : i64}                 the value of symbolic scalar argument 3
 *   {check}                            the index flag (FK_PARAM_CHECK)
 * The writer and the reader are the one place this encoding lives. */
#ifndef FUSER_LOWERING_LAUNCH_PARAM_H
#define FUSER_LOWERING_LAUNCH_PARAM_H

#include <stdbool.h>

#include "lowering/kernel_gen.h"
#include "mlir-c/IR.h"

MlirAttribute fk_param_attr(MlirContext ctx, const fk_param *p);
/* Fills *p from a, false (and *p untouched) if a is not one of the forms
 * above with non-negative numbers. */
bool fk_param_read(MlirAttribute a, fk_param *p);

#endif
