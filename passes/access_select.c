/* access_select.c: which conditions of a vector variant the kernel checks
 * itself, per tensor (access_select.h).
 *
 *   conditions = [{align = {arg = 0, bytes = 16}}, {stride = {arg = 0, dim = 0, multiple = 8}},
 *                 {align = {bytes = 16, result = 0}}, {index32}]
 * splits into
 *   launch     = [{index32}]
 *   in_kernel  = [{align = {arg = 0, bytes = 16}}, {stride = {arg = 0, dim = 0, multiple = 8}},
 *                 {align = {bytes = 16, result = 0}}]
 * `extent`, `merge`, `points` and `index32` conditions shape the iteration
 * itself and stay at launch. */
#include "passes/access_select.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "passes/conditions.h"

static bool is_per_tensor(MlirAttribute cond) {
  fk_condition c;
  return fk_condition_read(cond, 0, &c) && (c.kind == FK_COND_ALIGN || c.kind == FK_COND_STRIDE);
}

bool fuser_split_access_conditions(MlirContext ctx, MlirAttribute conditions, MlirAttribute *launch,
                                   MlirAttribute *in_kernel) {
  intptr_t n = mlirAttributeIsNull(conditions) ? 0 : mlirArrayAttrGetNumElements(conditions);
  MlirAttribute *keep = malloc((size_t)(n + 1) * sizeof *keep), *moved = malloc((size_t)(n + 1) * sizeof *moved);
  intptr_t nk = 0, nm = 0;
  for (intptr_t i = 0; i < n; i++) {
    MlirAttribute c = mlirArrayAttrGetElement(conditions, i);
    if (is_per_tensor(c)) moved[nm++] = c;
    else keep[nk++] = c;
  }
  *launch = mlirArrayAttrGet(ctx, nk, keep);
  *in_kernel = mlirArrayAttrGet(ctx, nm, moved);
  free(keep);
  free(moved);
  return nm > 0;
}
