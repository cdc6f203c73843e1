/* mismatch.c: why no kernel variant fits, when the reason is the inputs
 * themselves. The compiler states the extents a fusion needs equal (two
 * inputs broadcast against each other, an elementwise op of two inputs) as
 * variant conditions `size(a, i) == size(b, j)`, and every variant,
 * the scalar fallback included, carries them. So when no variant holds and
 * such a condition is false, the inputs do not fit together: that is an
 * input mismatch naming both inputs and dims, not a missing variant.
 * Only the failing path runs this. */
#include "driver/runtime_internal.h"

#include <stdio.h>

/* Whether e is `size(a, i) == size(b, j)` (after constant folding, which
 * drops the `1 *` the compiler writes): fills the operands. */
static int extent_equality(const fuser_expr *e, uint32_t *a, int64_t *i, uint32_t *b, int64_t *j) {
  const fuser_insn *code = e->fast ? e->fast : e->code;
  uint32_t n = e->fast ? e->nfast : e->n;
  if (n != 3 || code[0].op != FUSER_OP_IN_SIZE || code[1].op != FUSER_OP_IN_SIZE || code[2].op != FUSER_OP_EQ) return 0;
  *a = code[0].a, *i = code[0].b, *b = code[1].a, *j = code[1].b;
  return *a != *b;
}

int fuser_extent_mismatch_(const fuser_artifact *a, const fuser_expr *e, const fuser_arg *args, size_t nargs,
                           fuser_error *err) {
  uint32_t x, y;
  int64_t dx, dy, value;
  if (!extent_equality(e, &x, &dx, &y, &dy)) return FUSER_OK;
  if (fuser_expr_eval(e, args, nargs, &value) || value) return FUSER_OK;
  if (x >= nargs || y >= nargs || args[x].kind != FUSER_ARG_TENSOR || args[y].kind != FUSER_ARG_TENSOR) return FUSER_OK;
  const DLTensor *tx = args[x].tensor, *ty = args[y].tensor;
  if (dx < 0 || dx >= tx->ndim || dy < 0 || dy >= ty->ndim) return FUSER_OK;
  const char *nx = a->inputs[x].name, *ny = a->inputs[y].name;
  return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH,
                             "inputs %u%s%s%s and %u%s%s%s do not fit together: dim %lld of input %u has size %lld, "
                             "dim %lld of input %u has size %lld; the fusion needs them equal (or the dim "
                             "broadcast: size 1 in the definition)",
                             y, ny ? " (" : "", ny ? ny : "", ny ? ")" : "", x, nx ? " (" : "", nx ? nx : "",
                             nx ? ")" : "", (long long)dy, y, (long long)ty->shape[dy], (long long)dx, x,
                             (long long)tx->shape[dx]);
}

int fuser_diagnose_mismatch_(const fuser_artifact *a, const fuser_arg *args, size_t nargs, fuser_error *err) {
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    const fuser_variant *last = &kn->variants[kn->nvariants - 1];
    for (size_t c = 0; c < last->nconditions; c++) {
      int rc = fuser_extent_mismatch_(a, &last->conditions[c], args, nargs, err);
      if (rc) return rc;
    }
  }
  return FUSER_ERR_NO_VARIANT;
}
