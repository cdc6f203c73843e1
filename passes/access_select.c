/* access_select.c: which conditions of a vector variant the kernel checks
 * itself, per tensor (access_select.h).
 *
 *   conditions = [{arg = 0, bytes = 16, kind = "align"}, {arg = 0, dim = 0, kind = "stride", multiple = 8},
 *                 {bytes = 16, kind = "align", result = 0}, {kind = "index32"}]
 * splits into
 *   launch     = [{kind = "index32"}]
 *   in_kernel  = [{arg = 0, bytes = 16, kind = "align"}, {arg = 0, dim = 0, kind = "stride", multiple = 8},
 *                 {bytes = 16, kind = "align", result = 0}]
 * `extent`, `merge`, `points` and `index32` conditions shape the iteration
 * itself and stay at launch. */
#include "passes/access_select.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"

static bool is_per_tensor(MlirAttribute cond) {
  MlirAttribute kind = mlirDictionaryAttrGetElementByName(cond, mlirStringRefCreateFromCString("kind"));
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAString(kind)) return false;
  MlirStringRef s = mlirStringAttrGetValue(kind);
  return (s.length == 5 && memcmp(s.data, "align", 5) == 0) || (s.length == 6 && memcmp(s.data, "stride", 6) == 0);
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
