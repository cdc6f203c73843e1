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
 * tensors with no elements are not checked for strides at all.
 *
 * Storage rule (check_storage): a non-empty tensor's first element address
 * (data + byte_offset) is a multiple of its element size, no stride of a
 * stepped dim is negative (DLPack producers such as PyTorch never make
 * them; kernels index with non-negative offsets), and every byte the view
 * reaches, [first, first + span * elem_size), lies below 2^64 without
 * wrapping. A kernel would otherwise fault on the GPU. Alias outputs are
 * proved inside their input's span the same way (fuser_check_alias_view_). */
#include "driver/runtime_internal.h"

#include "driver/checked_math.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *input_label(const fuser_input *in, size_t i, char *buf, size_t size) {
  if (in->name) snprintf(buf, size, "input %zu (%s)", i, in->name);
  else snprintf(buf, size, "input %zu", i);
  return buf;
}

static int dtype_matches(int dtype, DLDataType t) {
  DLDataType want = fuser_type_to_dlpack(dtype);
  return t.code == want.code && t.bits == want.bits && t.lanes == 1;
}

static void describe_dl_dtype(DLDataType t, char *buf, size_t size) {
  static const char *const codes[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  const char *code = t.code < sizeof codes / sizeof codes[0] ? codes[t.code] : "code?";
  if (t.lanes == 1) snprintf(buf, size, "%s%u", code, t.bits);
  else snprintf(buf, size, "%s%ux%u", code, t.bits, t.lanes);
}

/* The element span [*lo, *hi] of a tensor's view, in elements from its
 * first element; false (message in err) on a negative stride or overflow. */
static int tensor_span(const DLTensor *t, const char *what, int64_t *lo, int64_t *hi, bool *empty, fuser_error *err) {
  int64_t strides[FUSER_TENSOR_MAX_RANK];
  if (t->ndim < 0 || t->ndim > FUSER_TENSOR_MAX_RANK)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: rank %d out of range", what, t->ndim);
  for (int d = 0; d < t->ndim; d++) {
    strides[d] = fuser_dl_stride(t, d);
    if (t->shape[d] > 1 && strides[d] < 0)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: negative stride %lld of dim %d", what,
                             (long long)strides[d], d);
  }
  if (!fuser_view_span(0, t->shape, strides, t->ndim, lo, hi, empty))
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: sizes and strides reach past 2^63 elements", what);
  return FUSER_OK;
}

static int check_storage(const DLTensor *t, size_t es, const char *what, fuser_error *err) {
  int64_t lo, hi, last;
  bool empty;
  int rc = tensor_span(t, what, &lo, &hi, &empty, err);
  if (rc || empty) return rc;
  uint64_t first, end, bytes;
  if (t->byte_offset > (uint64_t)INT64_MAX || __builtin_add_overflow((uint64_t)(uintptr_t)t->data, t->byte_offset, &first))
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: data %p + byte_offset %llu wraps past the address space",
                           what, t->data, (unsigned long long)t->byte_offset);
  if (es > 1 && first % es)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH,
                           "%s: data + byte_offset = 0x%llx is not aligned to the %zu-byte element size", what,
                           (unsigned long long)first, es);
  if (!fuser_add_i64(hi, 1, &last) || __builtin_mul_overflow((uint64_t)last, (uint64_t)es, &bytes) ||
      __builtin_add_overflow(first, bytes, &end))
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: the %lld elements the view spans wrap past the address space",
                           what, (long long)last);
  return FUSER_OK;
}

int fuser_check_alias_view_(const fuser_artifact *a, size_t i, const DLTensor *in, int64_t offset, const DLTensor *out,
                            fuser_error *err) {
  int64_t lo, hi, in_lo, in_hi;
  bool empty, in_empty;
  char what[48];
  snprintf(what, sizeof what, "output %zu (alias of input %d)", i, a->outputs[i].input);
  int rc = tensor_span(out, what, &lo, &hi, &empty, err);
  if (rc || empty) return rc;
  rc = tensor_span(in, "its input", &in_lo, &in_hi, &in_empty, err);
  if (rc) return rc;
  if (in_empty || !fuser_add_i64(lo, offset, &lo) || !fuser_add_i64(hi, offset, &hi) || lo < in_lo || hi > in_hi)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH,
                           "%s: the view at offset %lld reaches elements outside the input's [%lld, %lld] "
                           "(an input extent smaller than the fusion's slice or view needs)",
                           what, (long long)offset, (long long)in_lo, (long long)(in_empty ? -1 : in_hi));
  return FUSER_OK;
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
                           input_label(in, i, label, sizeof label), got, fuser_type_name(in->dtype));
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
  int rc = check_storage(t, fuser_type_size(in->dtype), input_label(in, i, label, sizeof label), err);
  if (rc) return rc;
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
  int is_float = in->dtype == FUSER_TYPE_F32 || in->dtype == FUSER_TYPE_F64;
  if (arg->kind == FUSER_ARG_INT) {
    if (in->dtype == FUSER_TYPE_BOOL && arg->i != 0 && arg->i != 1)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: bool scalar given %lld (expected 0 or 1)",
                             input_label(in, i, label, sizeof label), (long long)arg->i);
    if (in->dtype == FUSER_TYPE_I32 && (arg->i < INT32_MIN || arg->i > INT32_MAX))
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: i32 scalar given %lld, out of range",
                             input_label(in, i, label, sizeof label), (long long)arg->i);
    return FUSER_OK; /* an integer for a floating scalar converts exactly enough */
  }
  if (arg->kind == FUSER_ARG_DOUBLE) {
    if (!is_float)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: %s scalar given a double",
                             input_label(in, i, label, sizeof label), fuser_type_name(in->dtype));
    return FUSER_OK;
  }
  return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "%s: expected a %s scalar, got %s",
                         input_label(in, i, label, sizeof label), fuser_type_name(in->dtype),
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

int fuser_check_call_(const fuser_artifact *a, const fuser_arg *args, size_t nargs, fuser_error *err) {
  for (size_t c = 0; c < a->nchecks; c++) {
    const fuser_check *ch = &a->checks[c];
    int64_t value;
    int rc = fuser_expr_eval(&ch->cond, args, nargs, &value);
    if (rc) return fuser_expr_fail_(err, rc, &ch->cond, "check %zu", c);
    if (value) continue;
    rc = fuser_extent_mismatch_(a, &ch->cond, args, nargs, err);
    if (rc) return rc;
    char text[256];
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input check failed: `%s`%s%s%s", fuser_expr_print(&ch->cond, text, sizeof text),
                           ch->message ? " (" : "", ch->message ? ch->message : "", ch->message ? ")" : "");
  }
  return FUSER_OK;
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
  if (!rc) rc = fuser_check_call_(a, args, nargs, err);
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
