/* runtime_internal.h: functions shared between the runtime's own files
 * (input checking in validate.c, execution in runtime.c). */
#ifndef FUSER_DRIVER_RUNTIME_INTERNAL_H
#define FUSER_DRIVER_RUNTIME_INTERNAL_H

#include "driver/artifact.h"

/* Checks every argument against the signature; device_id < 0 skips the
 * device ordinal check (fuser_artifact_check_inputs has no runtime). */
int fuser_check_args_(const fuser_artifact *a, const fuser_arg *args, size_t nargs, int device_id,
                      fuser_error *err);
/* First variant of kernel k whose conditions all hold, or FUSER_ERR_NO_VARIANT. */
int fuser_select_variant_(const fuser_artifact *a, size_t k, const fuser_arg *args, size_t nargs,
                          int *variant, fuser_error *err);
/* Evaluates the call's checks (fuser_check): FUSER_OK when all hold, else
 * FUSER_ERR_INPUT_MISMATCH naming the first that fails (and the two inputs
 * when it equates their extents), or the expression's error. */
int fuser_check_call_(const fuser_artifact *a, const fuser_arg *args, size_t nargs, fuser_error *err);
/* When condition e (false for these args) is `size(a, i) == size(b, j)`
 * of two inputs: sets err to FUSER_ERR_INPUT_MISMATCH naming both and
 * returns that; else returns FUSER_OK and leaves err alone (mismatch.c). */
int fuser_extent_mismatch_(const fuser_artifact *a, const fuser_expr *e, const fuser_arg *args, size_t nargs,
                           fuser_error *err);
/* After FUSER_ERR_NO_VARIANT: if a false condition of a kernel's last
 * variant equates the extents of two inputs, sets err to
 * FUSER_ERR_INPUT_MISMATCH naming them and returns that; else returns
 * FUSER_ERR_NO_VARIANT and leaves err alone (mismatch.c). */
int fuser_diagnose_mismatch_(const fuser_artifact *a, const fuser_arg *args, size_t nargs, fuser_error *err);
/* Proves alias output i's view (out: shape and strides evaluated, offset
 * in elements from input in's first element) inside input in's span. */
int fuser_check_alias_view_(const fuser_artifact *a, size_t i, const DLTensor *in, int64_t offset, const DLTensor *out,
                            fuser_error *err);
/* Formats an evaluation failure of e at a place described by fmt. */
int fuser_expr_fail_(fuser_error *err, int eval_rc, const fuser_expr *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
