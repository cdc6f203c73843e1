/* validate.c: checking one call's inputs against an artifact's signature,
 * and picking each kernel's variant. Both run on every fuser_execute before
 * anything is allocated or launched, so they never allocate and format a
 * message only on failure. They never dereference device pointers, so they
 * also run (and are tested) without a GPU.
 *
 * Layout rule (nvFuser's): walk the allocation order from the innermost
 * position outward keeping the stride a contiguous dim must have
 * (`expected`, starting at 1). A True dim of size > 1 must have exactly that
 * stride; a False dim may have any stride and the next expected stride is
 * its stride * size; a None (broadcast) dim must have size 1 or stride 0 and
 * is skipped. Size-1 dims may have any stride (they are never stepped), and
 * tensors with no elements are not checked for strides at all. */
#include "driver/runtime_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *input_label(const fuser_input *in, size_t i, char *buf, size_t size) {
  if (in->name) snprintf(buf, size, "input %zu (%s)", i, in->name);
  else snprintf(buf, size, "input %zu", i);
  return buf;
}

static int dtype_matches(int dtype, DLDataType t) {
  DLDataType want = fuser_dtype_to_dlpack(dtype);
  return t.code == want.code && t.bits == want.bits && t.lanes == 1;
}

static void describe_dl_dtype(DLDataType t, char *buf, size_t size) {
  static const char *const codes[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  const char *code = t.code < sizeof codes / sizeof codes[0] ? codes[t.code] : "code?";
  if (t.lanes == 1) snprintf(buf, size, "%s%u", code, t.bits);
  else snprintf(buf, size, "%s%ux%u", code, t.bits, t.lanes);
}

static int check_tensor(const fuser_input *in, size_t i, const DLTensor *t, int device_id,
                        fuser_error *err) {
  char label[FUSER_MAX_NAME + 32];
  if (!t)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: NULL DLTensor",
                           input_label(in, i, label, sizeof label));
  if (!dtype_matches(in->dtype, t->dtype)) {
    char got[32];
    describe_dl_dtype(t->dtype, got, sizeof got);
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: dtype %s, expected %s",
                           input_label(in, i, label, sizeof label), got, fuser_dtype_name(in->dtype));
  }
  if (t->ndim != in->rank)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: rank %d, expected %d",
                           input_label(in, i, label, sizeof label), t->ndim, in->rank);
  if (t->device.device_type != kDLCUDA)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH,
                           "%s: device type %d, expected kDLCUDA (%d): inputs must be in device memory",
                           input_label(in, i, label, sizeof label), (int)t->device.device_type, (int)kDLCUDA);
  if (device_id >= 0 && t->device.device_id != device_id)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: on CUDA device %d, the runtime is on device %d",
                           input_label(in, i, label, sizeof label), t->device.device_id, device_id);
  if (in->rank && !t->shape)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: NULL shape",
                           input_label(in, i, label, sizeof label));
  int empty = 0;
  for (int d = 0; d < in->rank; d++) {
    if (t->shape[d] < 0)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: negative size %lld of dim %d",
                             input_label(in, i, label, sizeof label), (long long)t->shape[d], d);
    if (in->sizes[d] >= 0 && t->shape[d] != in->sizes[d])
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: size %lld of dim %d, compiled for %lld",
                             input_label(in, i, label, sizeof label), (long long)t->shape[d], d,
                             (long long)in->sizes[d]);
    if (t->shape[d] == 0) empty = 1;
  }
  if (empty) return FUSER_OK;
  if (!t->data)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: NULL data for a non-empty tensor",
                           input_label(in, i, label, sizeof label));
  int64_t expected = 1;
  for (int p = in->rank - 1; p >= 0; p--) {
    int d = in->alloc_order[p];
    int64_t size = t->shape[d], stride = fuser_dl_stride(t, d);
    int c = in->contiguity[p];
    if (c == -1) {
      if (size != 1 && stride != 0)
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH,
                               "%s: dim %d is a broadcast (contiguity None) but has size %lld and stride %lld "
                               "(expected stride 0)",
                               input_label(in, i, label, sizeof label), d, (long long)size, (long long)stride);
      continue;
    }
    if (c == 1) {
      if (size != 1 && stride != expected)
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH,
                               "%s: stride %lld of dim %d, expected %lld (contiguous at allocation position %d "
                               "of stride_order)",
                               input_label(in, i, label, sizeof label), (long long)stride, d,
                               (long long)expected, p);
      expected = (int64_t)((uint64_t)expected * (uint64_t)size);
    } else {
      expected = (int64_t)((uint64_t)stride * (uint64_t)size);
    }
  }
  return FUSER_OK;
}

static int check_scalar(const fuser_input *in, size_t i, const fuser_arg *arg, fuser_error *err) {
  char label[FUSER_MAX_NAME + 32];
  int is_float = in->dtype == FUSER_DTYPE_F32 || in->dtype == FUSER_DTYPE_F64;
  if (arg->kind == FUSER_ARG_INT) {
    if (in->dtype == FUSER_DTYPE_BOOL && arg->i != 0 && arg->i != 1)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: bool scalar given %lld (expected 0 or 1)",
                             input_label(in, i, label, sizeof label), (long long)arg->i);
    if (in->dtype == FUSER_DTYPE_I32 && (arg->i < INT32_MIN || arg->i > INT32_MAX))
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: i32 scalar given %lld, out of range",
                             input_label(in, i, label, sizeof label), (long long)arg->i);
    return FUSER_OK; /* an integer for a floating scalar converts exactly enough */
  }
  if (arg->kind == FUSER_ARG_DOUBLE) {
    if (!is_float)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: %s scalar given a double",
                             input_label(in, i, label, sizeof label), fuser_dtype_name(in->dtype));
    return FUSER_OK;
  }
  return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: expected a %s scalar, got %s",
                         input_label(in, i, label, sizeof label), fuser_dtype_name(in->dtype),
                         arg->kind == FUSER_ARG_TENSOR ? "a tensor" : "an argument of unknown kind");
}

int fuser_check_args_(const fuser_artifact *a, const fuser_arg *args, size_t nargs, int device_id,
                      fuser_error *err) {
  if (nargs != a->ninputs)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs,
                           a->ninputs);
  if (nargs && !args) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL argument array");
  for (size_t i = 0; i < nargs; i++) {
    const fuser_input *in = &a->inputs[i];
    int rc;
    if (in->kind == FUSER_INPUT_TENSOR) {
      if (args[i].kind != FUSER_ARG_TENSOR) {
        char label[FUSER_MAX_NAME + 32];
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: expected a tensor, got a scalar",
                               input_label(in, i, label, sizeof label));
      }
      rc = check_tensor(in, i, args[i].tensor, device_id, err);
    } else {
      rc = check_scalar(in, i, &args[i], err);
    }
    if (rc) return rc;
  }
  return FUSER_OK;
}

int fuser_expr_fail_(fuser_error *err, int eval_rc, const fuser_expr *e, const char *fmt, ...) {
  if (!err) return FUSER_ERR_EXPRESSION;
  char where[200], text[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(where, sizeof where, fmt, ap);
  va_end(ap);
  return fuser_set_error(err, FUSER_ERR_EXPRESSION, "%s: `%s`: %s", where, fuser_expr_print(e, text, sizeof text),
                         fuser_expr_error_text(eval_rc));
}

int fuser_select_variant_(const fuser_artifact *a, size_t k, const fuser_arg *args, size_t nargs,
                          int *variant, fuser_error *err) {
  const fuser_kernel *kn = &a->kernels[k];
  size_t failed_condition = 0;
  for (size_t v = 0; v < kn->nvariants; v++) {
    const fuser_variant *va = &kn->variants[v];
    size_t c;
    for (c = 0; c < va->nconditions; c++) {
      int64_t value;
      int rc = fuser_expr_eval(&va->conditions[c], args, nargs, &value);
      if (rc)
        return fuser_expr_fail_(err, rc, &va->conditions[c], "kernel %zu (%s) variant %zu condition %zu", k,
                                kn->name, v, c);
      if (!value) break;
    }
    if (c == va->nconditions) {
      *variant = (int)v;
      return FUSER_OK;
    }
    failed_condition = c;
  }
  const fuser_variant *last = &kn->variants[kn->nvariants - 1];
  char text[256];
  return fuser_set_error(err, FUSER_ERR_NO_VARIANT,
                         "kernel %zu (%s): no variant applies to these inputs; the last, %s, needs `%s`, which is "
                         "false (e.g. a misaligned input with no scalar fallback)",
                         k, kn->name, last->entry,
                         fuser_expr_print(&last->conditions[failed_condition], text, sizeof text));
}

int fuser_artifact_check_inputs(const fuser_artifact *a, const fuser_arg *args, size_t nargs, int *variants,
                                fuser_error *err) {
  if (!a) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL artifact");
  int rc = fuser_check_args_(a, args, nargs, -1, err);
  if (rc) return rc;
  for (size_t k = 0; k < a->nkernels; k++) {
    int v;
    rc = fuser_select_variant_(a, k, args, nargs, &v, err);
    if (rc) return rc;
    if (variants) variants[k] = v;
  }
  fuser_clear_error(err);
  return FUSER_OK;
}
