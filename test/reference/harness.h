/* harness.h: what the reference evaluator's unit tests share: a context,
 * fusions written as MLIR text, tensors from double values, and value
 * checks (exact, NaN-aware, or within a few f32 ulps). */
#ifndef FUSER_TEST_REFERENCE_HARNESS_H
#define FUSER_TEST_REFERENCE_HARNESS_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/reference.h"
#include "reference/tensor.h"
#include "unit.h"

static MlirContext test_ctx;

/* Parses `text` (a module with one fusion) and runs it. The module stays
 * alive in *module for the caller to destroy (outputs do not need it). */
static inline fuser_ref_status run_text(const char *text, const fuser_ref_value *args, int nargs, bool f64,
                                 fuser_ref_outputs *out, fuser_ref_error *err) {
  MlirModule m = mlirModuleCreateParse(test_ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(m)) {
    fprintf(stderr, "cannot parse:\n%s\n", text);
    memset(out, 0, sizeof *out);
    err->status = FUSER_REF_ERR_FUSION;
    return FUSER_REF_ERR_FUSION;
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  fuser_ref_options opt = {.f64 = f64};
  fuser_ref_status st = fuser_ref_run(func, args, nargs, &opt, out, err);
  if (st != FUSER_REF_OK) fprintf(stderr, "  (run: %s)\n", err->message);
  mlirModuleDestroy(m);
  return st;
}

/* A fusion with the given signature and body (which ends in `return`). */
static inline fuser_ref_status run_fusion(const char *args_sig, const char *results_sig, const char *body,
                                   const fuser_ref_value *args, int nargs, bool f64, fuser_ref_outputs *out,
                                   fuser_ref_error *err) {
  char text[8192];
  snprintf(text, sizeof text, "func.func @f(%s) -> (%s) attributes {fuser.fusion} {\n%s\n}\n", args_sig,
           results_sig, body);
  return run_text(text, args, nargs, f64, out, err);
}

static inline DLTensor *make_tensor(fuser_dtype dt, int rank, const int64_t *sizes, const double *values) {
  DLTensor *t = fuser_ref_tensor_alloc(dt, rank, sizes);
  int64_t n = fuser_ref_tensor_numel(t);
  for (int64_t i = 0; i < n; i++) ref_put_f64(t->data, dt, i, values[i]);
  return t;
}

static inline fuser_ref_value tensor_arg(DLTensor *t) {
  return (fuser_ref_value){.is_tensor = true, .tensor = t, .dtype = fuser_ref_dtype_from_dl(t->dtype)};
}

static inline fuser_ref_value scalar_arg(fuser_dtype dt, double v) {
  return (fuser_ref_value){.dtype = dt, .f = v, .i = (int64_t)v};
}

static inline bool same_value(double got, double want, double ulps) {
  if (isnan(want)) return isnan(got);
  if (got == want) return ulps > 0 || signbit(got) == signbit(want);
  if (ulps <= 0 || isinf(want)) return false;
  double ulp = ldexp(1.0, ilogb(want) - 23);
  return fabs(got - want) <= ulps * ulp;
}

/* Checks every element of t (row-major) against want[]. */
#define CHECK_VALUES(t, want, n, ulps) check_values(__FILE__, __LINE__, t, want, n, ulps)
static inline void check_values(const char *file, int line, const DLTensor *t, const double *want, int64_t n, double ulps) {
  if (!t) {
    unit_failed++;
    fprintf(stderr, "%s:%d: no tensor\n", file, line);
    return;
  }
  if (fuser_ref_tensor_numel(t) != n) {
    unit_failed++;
    fprintf(stderr, "%s:%d: %lld elements, expected %lld\n", file, line, (long long)fuser_ref_tensor_numel(t),
            (long long)n);
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    double got = fuser_ref_tensor_get(t, i);
    if (same_value(got, want[i], ulps)) unit_passed++;
    else {
      unit_failed++;
      fprintf(stderr, "%s:%d: element %lld is %.17g (%a), expected %.17g (%a)\n", file, line, (long long)i, got, got,
              want[i], want[i]);
    }
  }
}

#endif
