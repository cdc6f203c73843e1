/* plan_model_internal.h: what plan_model.c (the model of the plan's values:
 * inputs, views, kernel calls, outputs, temps) and plan_launches.c (the
 * launches, parameters, conditions and matmul segments resolved against
 * them after the PTX pipeline) share. Not for other files. */
#ifndef FUSER_LOWERING_PLAN_MODEL_INTERNAL_H
#define FUSER_LOWERING_PLAN_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "dialects/fuser.h"
#include "lowering/plan_model.h"
#include "mlir-c/IR.h"
#include "passes/ptr_map.h"
#include "passes/symbolic.h"
#include "support/error.h" /* fuser_message: the model's errors */

/* What a kernel parameter can refer to: a tensor in some buffer, or a scalar. */
typedef struct {
  bool tensor;
  int buffer, index; /* tensors: FPM_INPUT/OUTPUT/TEMP and index; scalars: input index or -1 */
  int rank;
  size_t esize;
  fuser_dtype dtype;
  fuser_poly offset;
  fuser_poly size[FUSER_MAX_RANK], stride[FUSER_MAX_RANK];
  fuser_poly value; /* integer scalars computed on the host */
} value_desc;

/* An extent relation the plan relies on: a == b, a <= b (kernels: what
 * their ops require, passes/symbolic_extents.h) or a >= b (the call's
 * checks); equal relations are the same check. */
enum { FPM_REL_NONE, FPM_REL_EQ, FPM_REL_LE, FPM_REL_GE };
typedef struct {
  int rel;
  fuser_poly a, b;
} fpm_relation;

typedef struct {
  char callee[128];
  int num_args, num_tensors;
  value_desc *t; /* kernel arguments, then results */
  fpm_relation *checks; /* extents the kernel assumes equal (or at most), its variants' conditions */
  int nchecks;
  MlirOperation call;   /* the plan's func.call (errors are located at it) */
  MlirOperation matmul; /* the fuser.matmul/linear of a matmul segment, else null */
  int flag_temp;        /* the index flag's temp (kernels with index ops), else -1 */
} call_info;


typedef struct {
  MlirOperation func;
  fuser_ptr_map index; /* plan value -> desc index */
  value_desc *descs;
  int ndescs, cap;
  call_info *calls;
  int ncalls;
  /* per call check (fuser_plan_model.checks): its compare of two
   * polynomials, so a kernel's equal check is not repeated (FPM_REL_NONE:
   * not such a compare) */
  fpm_relation *check_keys;
} model_state;

char *fpm_dup_str(const char *s);
/* The description of a plan value (an input, a view, a call's result), NULL if none. */
value_desc *fpm_desc_of(model_state *st, MlirValue v);
/* The model's errors: "file:line:col: message" (op's location) into
 * err[errlen]; returns false. */
bool fpm_fail(MlirOperation op, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool fpm_relation_equal(const fpm_relation *x, const fpm_relation *y);
/* Whether a kernel's relation still needs checking at its launch: none of
 * the call's checks (fpm_check, made once before any kernel) is it. */
bool fpm_relation_unchecked(const fuser_plan_model *m, const fpm_relation *r);
/* the zero-initialised index-flag temp of a call whose kernel has index ops */
void fpm_add_index_flag(fuser_plan_model *m, MlirOperation kernel, call_info *c);
void fpm_matmul_free(fpm_matmul *mm);

#endif
