/* artifact.c: the artifact's lifetime, its consistency check (shared by the
 * builder and the file loader), dtype tables, error helpers and the readable
 * dump (fuser_artifact_describe). */
#include "driver/artifact.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors and dtypes ----------------------------------------------- */

int fuser_set_error(fuser_error *err, int code, const char *fmt, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

const char *fuser_status_name(int status) {
  static const char *const names[] = {
      "FUSER_OK",
      "FUSER_ERR_INVALID_ARGUMENT",
      "FUSER_ERR_NO_DRIVER",
      "FUSER_ERR_CUDA",
      "FUSER_ERR_OUT_OF_MEMORY",
      "FUSER_ERR_IO",
      "FUSER_ERR_ARTIFACT_FORMAT",
      "FUSER_ERR_ARTIFACT_VERSION",
      "FUSER_ERR_ARTIFACT_INVALID",
      "FUSER_ERR_INPUT_MISMATCH",
      "FUSER_ERR_NO_VARIANT",
      "FUSER_ERR_EXPRESSION",
      "FUSER_ERR_ALLOCATOR",
      "FUSER_ERR_COMPILE",
      "FUSER_ERR_UNSUPPORTED",
      "FUSER_ERR_INDEX",
  };
  if (status < 0 || (size_t)status >= sizeof names / sizeof names[0]) return "FUSER_ERR_UNKNOWN";
  return names[status];
}

typedef struct dtype_info {
  const char *name;
  size_t size;
  uint8_t dl_code, dl_bits;
} dtype_info;

/* kDLBool (6) is not in every dlpack.h (Debian's 0.6 lacks it): spelled out. */
static const dtype_info dtypes[FUSER_TYPE_COUNT_] = {
    [FUSER_TYPE_BOOL] = {"bool", 1, 6, 8},         [FUSER_TYPE_U8] = {"u8", 1, kDLUInt, 8},
    [FUSER_TYPE_I8] = {"i8", 1, kDLInt, 8},        [FUSER_TYPE_I16] = {"i16", 2, kDLInt, 16},
    [FUSER_TYPE_I32] = {"i32", 4, kDLInt, 32},     [FUSER_TYPE_I64] = {"i64", 8, kDLInt, 64},
    [FUSER_TYPE_F16] = {"f16", 2, kDLFloat, 16},   [FUSER_TYPE_BF16] = {"bf16", 2, kDLBfloat, 16},
    [FUSER_TYPE_F32] = {"f32", 4, kDLFloat, 32},   [FUSER_TYPE_F64] = {"f64", 8, kDLFloat, 64},
    [FUSER_TYPE_C64] = {"c64", 8, kDLComplex, 64}, [FUSER_TYPE_C128] = {"c128", 16, kDLComplex, 128},
};

static int dtype_known(int dtype) { return dtype > 0 && dtype < FUSER_TYPE_COUNT_; }

const char *fuser_type_name(int dtype) { return dtype_known(dtype) ? dtypes[dtype].name : NULL; }
size_t fuser_type_size(int dtype) { return dtype_known(dtype) ? dtypes[dtype].size : 0; }
DLDataType fuser_type_to_dlpack(int dtype) {
  DLDataType t = {0, 0, 0};
  if (dtype_known(dtype)) {
    t.code = dtypes[dtype].dl_code;
    t.bits = dtypes[dtype].dl_bits;
    t.lanes = 1;
  }
  return t;
}

/* ---- lifetime --------------------------------------------------------- */

void fuser_artifact_destroy_(fuser_artifact *a) {
  if (!a) return;
  for (size_t i = 0; i < a->nmodules; i++) free(a->modules[i].image);
  free(a->modules);
  for (size_t i = 0; i < a->ninputs; i++) free(a->inputs[i].name);
  free(a->inputs);
  for (size_t i = 0; i < a->noutputs; i++) {
    fuser_output_desc *o = &a->outputs[i];
    for (int d = 0; d < FUSER_TENSOR_MAX_RANK; d++) {
      fuser_expr_free(&o->sizes[d]);
      fuser_expr_free(&o->strides[d]);
    }
    fuser_expr_free(&o->offset);
  }
  free(a->outputs);
  for (size_t i = 0; i < a->ntemps; i++) fuser_expr_free(&a->temps[i].bytes), free(a->temps[i].index_sites);
  free(a->temps);
  for (size_t i = 0; i < a->nchecks; i++) fuser_expr_free(&a->checks[i].cond), free(a->checks[i].message);
  free(a->checks);
  for (size_t k = 0; k < a->nkernels; k++) {
    fuser_kernel *kn = &a->kernels[k];
    free(kn->name);
    for (size_t p = 0; p < kn->nparams; p++) fuser_expr_free(&kn->params[p].expr);
    free(kn->params);
    for (size_t v = 0; v < kn->nvariants; v++) {
      fuser_variant *va = &kn->variants[v];
      free(va->entry);
      for (int g = 0; g < 3; g++) fuser_expr_free(&va->grid[g]);
      for (size_t c = 0; c < va->nconditions; c++) fuser_expr_free(&va->conditions[c]);
      free(va->conditions);
    }
    free(kn->variants);
  }
  free(a->kernels);
  for (size_t i = 0; i < a->nmetadata; i++) {
    free(a->metadata[i].key);
    free(a->metadata[i].value);
  }
  free(a->metadata);
  free(a);
}

void fuser_artifact_retain(fuser_artifact *a) {
  if (a) __atomic_add_fetch(&a->refcount, 1, __ATOMIC_RELAXED);
}

void fuser_artifact_release(fuser_artifact *a) {
  if (a && __atomic_sub_fetch(&a->refcount, 1, __ATOMIC_ACQ_REL) == 0) fuser_artifact_destroy_(a);
}

size_t fuser_artifact_num_inputs(const fuser_artifact *a) { return a ? a->ninputs : 0; }
size_t fuser_artifact_num_outputs(const fuser_artifact *a) { return a ? a->noutputs : 0; }
size_t fuser_artifact_num_kernels(const fuser_artifact *a) { return a ? a->nkernels : 0; }

const void *fuser_artifact_metadata(const fuser_artifact *a, const char *key, size_t *size) {
  if (size) *size = 0;
  if (!a || !key) return NULL;
  for (size_t i = 0; i < a->nmetadata; i++)
    if (!strcmp(a->metadata[i].key, key)) {
      if (size) *size = a->metadata[i].size;
      return a->metadata[i].value;
    }
  return NULL;
}

int fuser_alloc_order_from_stride_order(int rank, const int8_t *stride_order, int8_t *alloc_order) {
  int seen[FUSER_TENSOR_MAX_RANK] = {0};
  for (int d = 0; d < rank; d++) {
    int s = stride_order[d];
    if (s < 0 || s >= rank || seen[s]) return 0;
    seen[s] = 1;
    alloc_order[rank - 1 - s] = (int8_t)d;
  }
  return 1;
}

/* ---- validation ------------------------------------------------------- */

static int valid_name(const char *s) {
  if (!s || !*s) return 0;
  size_t n = strlen(s);
  return n < FUSER_MAX_NAME;
}

/* Checks shape and operand references of one expression (`what` names it),
 * then derives its evaluation form (constants folded; a failure there only
 * leaves eval on the original code). */
static int check_expr(const fuser_artifact *a, fuser_expr *e, const char *what, fuser_error *err) {
  char msg[160];
  if (fuser_expr_check(e, msg, sizeof msg) != 0)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: %s", what, msg);
  for (uint32_t i = 0; i < e->n; i++) {
    const fuser_insn *in = &e->code[i];
    if (in->op < FUSER_OP_IN_SIZE || in->op > FUSER_OP_SCALAR) continue;
    if (in->a >= a->ninputs)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: refers to input %u of %zu", what,
                             in->a, a->ninputs);
    const fuser_input *inp = &a->inputs[in->a];
    if (in->op == FUSER_OP_SCALAR) {
      if (inp->kind != FUSER_INPUT_SCALAR || inp->dtype == FUSER_TYPE_F32 ||
          inp->dtype == FUSER_TYPE_F64)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                               "%s: scalar(%u) needs an integer or bool scalar input", what, in->a);
      continue;
    }
    if (inp->kind != FUSER_INPUT_TENSOR)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: input %u is not a tensor", what,
                             in->a);
    if (in->op != FUSER_OP_IN_ADDR && (in->b < 0 || in->b >= inp->rank))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                             "%s: dim %lld of input %u (rank %d) does not exist", what,
                             (long long)in->b, in->a, inp->rank);
  }
  fuser_expr_optimize(e);
  return FUSER_OK;
}

static int validate_inputs(fuser_artifact *a, fuser_error *err) {
  for (size_t i = 0; i < a->ninputs; i++) {
    fuser_input *in = &a->inputs[i];
    if (in->name && strlen(in->name) >= FUSER_MAX_NAME)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "input %zu: name too long", i);
    if (!dtype_known(in->dtype))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "input %zu: unknown dtype %d", i, in->dtype);
    if (in->kind == FUSER_INPUT_SCALAR) {
      int d = in->dtype;
      if (d != FUSER_TYPE_I64 && d != FUSER_TYPE_I32 && d != FUSER_TYPE_BOOL &&
          d != FUSER_TYPE_F64 && d != FUSER_TYPE_F32)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                               "input %zu: scalar of dtype %s is not supported", i, fuser_type_name(d));
      continue;
    }
    if (in->kind != FUSER_INPUT_TENSOR)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "input %zu: unknown kind %d", i, in->kind);
    if (in->rank < 0 || in->rank > FUSER_TENSOR_MAX_RANK)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "input %zu: rank %d outside 0..%d", i,
                             in->rank, FUSER_TENSOR_MAX_RANK);
    for (int d = 0; d < in->rank; d++) {
      if (in->sizes[d] < -1)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "input %zu: size %lld of dim %d", i,
                               (long long)in->sizes[d], d);
      if (in->contiguity[d] < -1 || in->contiguity[d] > 1)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                               "input %zu: contiguity %d at allocation position %d", i,
                               in->contiguity[d], d);
    }
    if (!fuser_alloc_order_from_stride_order(in->rank, in->stride_order, in->alloc_order))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                             "input %zu: stride_order is not a permutation of 0..%d", i, in->rank - 1);
  }
  return FUSER_OK;
}

static int validate_outputs(fuser_artifact *a, fuser_error *err) {
  char what[96];
  for (size_t i = 0; i < a->noutputs; i++) {
    fuser_output_desc *o = &a->outputs[i];
    if (o->rank < 0 || o->rank > FUSER_TENSOR_MAX_RANK)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "output %zu: rank %d outside 0..%d", i,
                             o->rank, FUSER_TENSOR_MAX_RANK);
    for (int d = 0; d < o->rank; d++) {
      snprintf(what, sizeof what, "output %zu size of dim %d", i, d);
      if (check_expr(a, &o->sizes[d], what, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
    }
    if (o->kind == FUSER_OUTPUT_NEW) {
      if (!dtype_known(o->dtype))
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "output %zu: unknown dtype %d", i, o->dtype);
      if (!fuser_alloc_order_from_stride_order(o->rank, o->stride_order, o->alloc_order))
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                               "output %zu: stride_order is not a permutation of 0..%d", i, o->rank - 1);
      continue;
    }
    if (o->kind != FUSER_OUTPUT_ALIAS)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "output %zu: unknown kind %d", i, o->kind);
    if (o->input < 0 || (size_t)o->input >= a->ninputs || a->inputs[o->input].kind != FUSER_INPUT_TENSOR)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                             "output %zu: aliases input %d, which is not a tensor input", i, o->input);
    if (o->dtype != a->inputs[o->input].dtype)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                             "output %zu: alias dtype %s differs from input %d's %s", i,
                             fuser_type_name(o->dtype) ? fuser_type_name(o->dtype) : "?", o->input,
                             fuser_type_name(a->inputs[o->input].dtype));
    snprintf(what, sizeof what, "output %zu offset", i);
    if (check_expr(a, &o->offset, what, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
    for (int d = 0; d < o->rank; d++) {
      snprintf(what, sizeof what, "output %zu stride of dim %d", i, d);
      if (check_expr(a, &o->strides[d], what, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
    }
  }
  return FUSER_OK;
}

/* A matmul kernel's shape (artifact_builder.h, fuser_builder_add_matmul):
 * its dtype, batch rank, the parameter layout, the operands' dtypes, its
 * result written to a new output or a temp, one variant. */
static int validate_matmul(const fuser_artifact *a, size_t k, fuser_error *err) {
  const fuser_kernel *kn = &a->kernels[k];
  if (kn->kind == FUSER_KERNEL_LAUNCH) return FUSER_OK;
  if (kn->kind != FUSER_KERNEL_MATMUL)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): unknown kind %d", k, kn->name, kn->kind);
  if (kn->mm_dtype != FUSER_TYPE_BF16 && kn->mm_dtype != FUSER_TYPE_F16 && kn->mm_dtype != FUSER_TYPE_F32)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): matmul of dtype %d (bf16, f16 or f32)", k,
                           kn->name, kn->mm_dtype);
  if (kn->mm_batch < 0 || kn->mm_batch > FUSER_TENSOR_MAX_RANK - 2 || (kn->mm_bias != 0 && kn->mm_bias != 1))
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): matmul of %d batch dims, bias %d", k,
                           kn->name, kn->mm_batch, kn->mm_bias);
  size_t values_end = FUSER_MATMUL_P_BATCH + 4 * (size_t)kn->mm_batch, want = values_end + (size_t)kn->mm_bias;
  if (kn->nparams != want)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): a matmul of %d batch dims%s takes %zu "
                           "parameters, not %zu", k, kn->name, kn->mm_batch, kn->mm_bias ? " and a bias" : "", want,
                           kn->nparams);
  for (size_t p = 0; p < kn->nparams; p++) {
    const fuser_param *pa = &kn->params[p];
    int pointer = p < FUSER_MATMUL_P_M || p >= values_end;
    if (pa->kind != (pointer ? FUSER_PARAM_POINTER : FUSER_PARAM_I64))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): matmul parameter %zu must be %s", k,
                             kn->name, p, pointer ? "a pointer" : "an i64 value");
    if (!pointer || pa->buffer == FUSER_BUFFER_TEMP) continue; /* temps are untyped */
    if (p == FUSER_MATMUL_P_D && (pa->buffer != FUSER_BUFFER_OUTPUT || a->outputs[pa->index].kind != FUSER_OUTPUT_NEW))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): a matmul writes a new output or a temp", k,
                             kn->name);
    int dtype = pa->buffer == FUSER_BUFFER_INPUT ? a->inputs[pa->index].dtype : a->outputs[pa->index].dtype;
    if (dtype != kn->mm_dtype)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): matmul operand %zu has dtype %d, not %d", k,
                             kn->name, p, dtype, kn->mm_dtype);
  }
  if (kn->nvariants != 1)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): a matmul has one variant, not %zu", k,
                           kn->name, kn->nvariants);
  return FUSER_OK;
}

static int validate_kernels(fuser_artifact *a, fuser_error *err) {
  char what[FUSER_MAX_NAME + 96];
  size_t total_params = 0;
  for (size_t k = 0; k < a->nkernels; k++) total_params += a->kernels[k].nparams;
  if (total_params > FUSER_MAX_TOTAL_PARAMS)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%zu kernel parameters in all, at most %d",
                           total_params, FUSER_MAX_TOTAL_PARAMS);
  for (size_t k = 0; k < a->nkernels; k++) {
    fuser_kernel *kn = &a->kernels[k];
    if (!valid_name(kn->name))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu: missing or too long name", k);
    if (kn->nparams > FUSER_MAX_PARAMS)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): %zu parameters, at most %d",
                             k, kn->name, kn->nparams, FUSER_MAX_PARAMS);
    for (size_t p = 0; p < kn->nparams; p++) {
      fuser_param *pa = &kn->params[p];
      snprintf(what, sizeof what, "kernel %zu (%s) parameter %zu", k, kn->name, p);
      if (pa->kind == FUSER_PARAM_POINTER) {
        size_t limit = pa->buffer == FUSER_BUFFER_INPUT    ? a->ninputs
                       : pa->buffer == FUSER_BUFFER_OUTPUT ? a->noutputs
                       : pa->buffer == FUSER_BUFFER_TEMP   ? a->ntemps
                                                           : 0;
        if (pa->buffer < FUSER_BUFFER_INPUT || pa->buffer > FUSER_BUFFER_TEMP)
          return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: unknown buffer class %d", what, pa->buffer);
        if (pa->index < 0 || (size_t)pa->index >= limit)
          return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: buffer index %d of %zu", what,
                                 pa->index, limit);
        if (pa->buffer == FUSER_BUFFER_INPUT && a->inputs[pa->index].kind != FUSER_INPUT_TENSOR)
          return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: input %d is not a tensor", what, pa->index);
        if (check_expr(a, &pa->expr, what, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
      } else if (pa->kind == FUSER_PARAM_I32 || pa->kind == FUSER_PARAM_I64) {
        if (check_expr(a, &pa->expr, what, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
      } else if (pa->kind == FUSER_PARAM_F32 || pa->kind == FUSER_PARAM_F64) {
        if (pa->index < 0 || (size_t)pa->index >= a->ninputs ||
            a->inputs[pa->index].kind != FUSER_INPUT_SCALAR)
          return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: input %d is not a scalar input",
                                 what, pa->index);
      } else {
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: unknown kind %d", what, pa->kind);
      }
    }
    int mm = validate_matmul(a, k, err);
    if (mm) return mm;
    if (kn->nvariants == 0 || kn->nvariants > FUSER_MAX_VARIANTS)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "kernel %zu (%s): %zu variants, need 1..%d",
                             k, kn->name, kn->nvariants, FUSER_MAX_VARIANTS);
    for (size_t v = 0; v < kn->nvariants; v++) {
      fuser_variant *va = &kn->variants[v];
      snprintf(what, sizeof what, "kernel %zu (%s) variant %zu", k, kn->name, v);
      if (kn->kind == FUSER_KERNEL_MATMUL ? va->module != -1 : va->module < 0 || (size_t)va->module >= a->nmodules)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: module %d of %zu%s", what, va->module,
                               a->nmodules, kn->kind == FUSER_KERNEL_MATMUL ? " (a matmul kernel has none: -1)" : "");
      if (!valid_name(va->entry))
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: missing or too long entry name", what);
      uint64_t threads = 1;
      for (int g = 0; g < 3; g++) {
        char gw[FUSER_MAX_NAME + 128];
        snprintf(gw, sizeof gw, "%s grid %c", what, "xyz"[g]);
        if (check_expr(a, &va->grid[g], gw, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
        if (va->block[g] == 0)
          return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: block %c is 0", what, "xyz"[g]);
        threads *= va->block[g];
      }
      if (threads > 1024)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: block of %llu threads, at most 1024",
                               what, (unsigned long long)threads);
      if (va->nconditions > FUSER_MAX_CONDITIONS)
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%s: %zu conditions, at most %d", what,
                               va->nconditions, FUSER_MAX_CONDITIONS);
      for (size_t c = 0; c < va->nconditions; c++) {
        char cw[FUSER_MAX_NAME + 128];
        snprintf(cw, sizeof cw, "%s condition %zu", what, c);
        if (check_expr(a, &va->conditions[c], cw, err)) return err ? err->code : FUSER_ERR_ARTIFACT_INVALID;
      }
    }
  }
  return FUSER_OK;
}

int fuser_artifact_validate_(fuser_artifact *a, fuser_error *err) {
  if (a->nmodules > FUSER_MAX_MODULES || a->ninputs > FUSER_MAX_INPUTS ||
      a->noutputs > FUSER_MAX_OUTPUTS || a->ntemps > FUSER_MAX_TEMPS || a->nkernels > FUSER_MAX_KERNELS)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                           "too many items: %zu modules (max %d), %zu inputs (max %d), %zu outputs "
                           "(max %d), %zu temps (max %d), %zu kernels (max %d)",
                           a->nmodules, FUSER_MAX_MODULES, a->ninputs, FUSER_MAX_INPUTS, a->noutputs,
                           FUSER_MAX_OUTPUTS, a->ntemps, FUSER_MAX_TEMPS, a->nkernels, FUSER_MAX_KERNELS);
  for (size_t m = 0; m < a->nmodules; m++) {
    if (a->modules[m].format != FUSER_MODULE_PTX && a->modules[m].format != FUSER_MODULE_CUBIN)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "module %zu: unknown format %d", m,
                             a->modules[m].format);
    if (a->modules[m].size == 0)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "module %zu: empty image", m);
    if (a->modules[m].format == FUSER_MODULE_PTX &&
        memchr(a->modules[m].image, 0, a->modules[m].size))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "module %zu: PTX text contains a NUL byte", m);
  }
  int rc = validate_inputs(a, err);
  if (!rc) rc = validate_outputs(a, err);
  for (size_t t = 0; !rc && t < a->ntemps; t++) {
    char what[48];
    snprintf(what, sizeof what, "temp %zu size", t);
    rc = check_expr(a, &a->temps[t].bytes, what, err);
  }
  if (!rc && a->nchecks > FUSER_MAX_CHECKS)
    rc = fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%zu checks, at most %d", a->nchecks, FUSER_MAX_CHECKS);
  for (size_t c = 0; !rc && c < a->nchecks; c++) {
    char what[32];
    snprintf(what, sizeof what, "check %zu", c);
    rc = check_expr(a, &a->checks[c].cond, what, err);
    if (!rc && a->checks[c].message && strlen(a->checks[c].message) >= FUSER_MAX_NAME)
      rc = fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "check %zu: message longer than %d bytes", c, FUSER_MAX_NAME - 1);
  }
  if (!rc) rc = validate_kernels(a, err);
  if (!rc && a->nmetadata > FUSER_MAX_METADATA)
    rc = fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "%zu metadata entries, at most %d", a->nmetadata,
                         FUSER_MAX_METADATA);
  for (size_t i = 0; !rc && i < a->nmetadata; i++) {
    if (!valid_name(a->metadata[i].key))
      rc = fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "metadata %zu: missing or too long key", i);
    for (size_t j = 0; !rc && j < i; j++)
      if (!strcmp(a->metadata[i].key, a->metadata[j].key))
        rc = fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID, "metadata key '%s' given twice", a->metadata[i].key);
  }
  if (rc) return err ? err->code : rc;
  fuser_clear_error(err);
  return FUSER_OK;
}

/* ---- describe -------------------------------------------------------- */

static void print_expr(FILE *out, const fuser_expr *e) {
  char buf[1024];
  fputs(fuser_expr_print(e, buf, sizeof buf), out);
}

static const char *buffer_name(int buffer) {
  return buffer == FUSER_BUFFER_INPUT ? "input" : buffer == FUSER_BUFFER_OUTPUT ? "output" : "temp";
}

static const char *param_kind_name(int kind) {
  switch (kind) {
  case FUSER_PARAM_I32: return "i32";
  case FUSER_PARAM_I64: return "i64";
  case FUSER_PARAM_F32: return "f32";
  case FUSER_PARAM_F64: return "f64";
  default: return "ptr";
  }
}

void fuser_artifact_describe(const fuser_artifact *a, FILE *out) {
  if (!a) return;
  fprintf(out, "fuser artifact: %zu modules, %zu inputs, %zu outputs, %zu temps, %zu kernels, %zu metadata\n",
          a->nmodules, a->ninputs, a->noutputs, a->ntemps, a->nkernels, a->nmetadata);
  for (size_t m = 0; m < a->nmodules; m++)
    fprintf(out, "module %zu: %s, %zu bytes\n", m,
            a->modules[m].format == FUSER_MODULE_PTX ? "ptx" : "cubin", a->modules[m].size);
  for (size_t i = 0; i < a->ninputs; i++) {
    const fuser_input *in = &a->inputs[i];
    fprintf(out, "input %zu%s%s: ", i, in->name ? " " : "", in->name ? in->name : "");
    if (in->kind == FUSER_INPUT_SCALAR) {
      fprintf(out, "scalar %s\n", fuser_type_name(in->dtype));
      continue;
    }
    fprintf(out, "tensor %s rank %d sizes [", fuser_type_name(in->dtype), in->rank);
    for (int d = 0; d < in->rank; d++) fprintf(out, "%s%lld", d ? ", " : "", (long long)in->sizes[d]);
    fprintf(out, "] contiguity [");
    for (int p = 0; p < in->rank; p++) {
      int c = in->contiguity[p];
      fprintf(out, "%s%s", p ? ", " : "", c == 1 ? "True" : c == 0 ? "False" : "None");
    }
    fprintf(out, "] stride_order [");
    for (int d = 0; d < in->rank; d++) fprintf(out, "%s%d", d ? ", " : "", in->stride_order[d]);
    fprintf(out, "]\n");
  }
  for (size_t i = 0; i < a->noutputs; i++) {
    const fuser_output_desc *o = &a->outputs[i];
    fprintf(out, "output %zu: %s rank %d", i, fuser_type_name(o->dtype), o->rank);
    if (o->kind == FUSER_OUTPUT_ALIAS) {
      fprintf(out, " alias of input %d offset ", o->input);
      print_expr(out, &o->offset);
    }
    fprintf(out, "\n  sizes [");
    for (int d = 0; d < o->rank; d++) {
      fputs(d ? ", " : "", out);
      print_expr(out, &o->sizes[d]);
    }
    fputs("]", out);
    if (o->kind == FUSER_OUTPUT_ALIAS) {
      fputs(" strides [", out);
      for (int d = 0; d < o->rank; d++) {
        fputs(d ? ", " : "", out);
        print_expr(out, &o->strides[d]);
      }
      fputs("]\n", out);
    } else {
      fputs(" stride_order [", out);
      for (int d = 0; d < o->rank; d++) fprintf(out, "%s%d", d ? ", " : "", o->stride_order[d]);
      fputs("]\n", out);
    }
  }
  for (size_t t = 0; t < a->ntemps; t++) {
    fprintf(out, "temp %zu: bytes ", t);
    print_expr(out, &a->temps[t].bytes);
    fprintf(out, "%s%s\n", a->temps[t].zero_init ? " zero-initialised" : "", a->temps[t].index_sites ? " index flag" : "");
    for (const char *s = a->temps[t].index_sites; s && *s;) {
      const char *nl = strchr(s, '\n');
      int n = nl ? (int)(nl - s) : (int)strlen(s);
      fprintf(out, "    site %.*s\n", n, s);
      s = nl ? nl + 1 : s + n;
    }
  }
  for (size_t c = 0; c < a->nchecks; c++) {
    fprintf(out, "check %zu: `", c);
    print_expr(out, &a->checks[c].cond);
    fprintf(out, "`%s%s\n", a->checks[c].message ? " " : "", a->checks[c].message ? a->checks[c].message : "");
  }
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    fprintf(out, "kernel %zu %s: %zu parameters, %zu variants\n", k, kn->name, kn->nparams, kn->nvariants);
    if (kn->kind == FUSER_KERNEL_MATMUL)
      fprintf(out, "  matmul (cuBLASLt): %s, %d batch dims%s\n", fuser_type_name(kn->mm_dtype), kn->mm_batch,
              kn->mm_bias ? ", bias epilogue" : "");
    for (size_t p = 0; p < kn->nparams; p++) {
      const fuser_param *pa = &kn->params[p];
      fprintf(out, "  param %zu: %s ", p, param_kind_name(pa->kind));
      if (pa->kind == FUSER_PARAM_POINTER) {
        fprintf(out, "%s %d + ", buffer_name(pa->buffer), pa->index);
        print_expr(out, &pa->expr);
      } else if (pa->kind == FUSER_PARAM_F32 || pa->kind == FUSER_PARAM_F64) {
        fprintf(out, "scalar input %d", pa->index);
      } else {
        print_expr(out, &pa->expr);
      }
      fputc('\n', out);
    }
    for (size_t v = 0; v < kn->nvariants; v++) {
      const fuser_variant *va = &kn->variants[v];
      fprintf(out, "  variant %zu: module %d entry %s grid (", v, va->module, va->entry);
      for (int g = 0; g < 3; g++) {
        fputs(g ? ", " : "", out);
        print_expr(out, &va->grid[g]);
      }
      fprintf(out, ") block (%u, %u, %u) shared %u\n", va->block[0], va->block[1], va->block[2],
              va->shared_bytes);
      if (!va->nconditions) fputs("    when always\n", out);
      for (size_t c = 0; c < va->nconditions; c++) {
        fputs("    when ", out);
        print_expr(out, &va->conditions[c]);
        fputc('\n', out);
      }
    }
  }
  for (size_t i = 0; i < a->nmetadata; i++) {
    const fuser_metadata *m = &a->metadata[i];
    int text = m->size <= 200;
    for (size_t j = 0; text && j < m->size; j++)
      if (m->value[j] < 0x20 || m->value[j] > 0x7e) text = 0;
    if (text) fprintf(out, "metadata %s: \"%s\"\n", m->key, (const char *)m->value);
    else fprintf(out, "metadata %s: %zu bytes\n", m->key, m->size);
  }
}
