/* The evaluator's strided tensors: buffers, views, row loads and stores
 * with the dtype conversions (and their rounding) in one place, and the
 * bridge to DLPack. */
#include "reference/tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ref_fail(ref_ctx *c, fuser_ref_status status, const char *fmt, ...) {
  fuser_ref_error *e = c->err;
  if (!e) return false;
  e->status = status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
  e->loc = mlirOperationIsNull(c->op) ? (MlirLocation){NULL} : mlirOperationGetLocation(c->op);
  return false;
}

int64_t ref_numel(const ref_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->sizes[i];
  return n;
}

void ref_row_major_strides(int rank, const int64_t *sizes, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= sizes[i] > 0 ? sizes[i] : 1;
  }
}

bool ref_is_row_major(const ref_tensor *t) {
  int64_t s = 1;
  for (int i = t->rank - 1; i >= 0; i--) {
    if (t->sizes[i] == 0) return true; /* empty: any layout is row-major */
    if (t->sizes[i] != 1 && t->strides[i] != s) return false;
    s *= t->sizes[i];
  }
  return true;
}

bool ref_alloc(ref_ctx *c, fuser_dtype dtype, int rank, const int64_t *sizes, ref_tensor *out) {
  memset(out, 0, sizeof *out);
  out->dtype = dtype;
  out->rank = rank;
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (sizes[i] < 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "negative extent %lld", (long long)sizes[i]);
    out->sizes[i] = sizes[i];
    if (sizes[i] && n > (INT64_C(1) << 40) / sizes[i])
      return ref_fail(c, FUSER_REF_ERR_MEMORY, "tensor of more than 2^40 elements");
    n *= sizes[i];
  }
  ref_row_major_strides(rank, sizes, out->strides);
  ref_buffer *b = malloc(sizeof *b);
  void *data = calloc((size_t)(n ? n : 1), fuser_dtype_size(dtype));
  if (!b || !data) {
    free(b);
    free(data);
    return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory allocating %lld elements", (long long)n);
  }
  *b = (ref_buffer){.refs = 1, .owned = true, .data = data};
  out->buf = b;
  return true;
}

void ref_retain(ref_tensor *t) {
  if (t->buf) t->buf->refs++;
}

void ref_release(ref_tensor *t) {
  if (!t->buf) return;
  if (--t->buf->refs == 0) {
    if (t->buf->owned) free(t->buf->data);
    free(t->buf);
  }
  t->buf = NULL;
}

fuser_dtype ref_storage_dtype(const ref_ctx *c, fuser_dtype dt) {
  return c->options.f64 && fuser_dtype_is_float(dt) ? FUSER_DTYPE_F64 : dt;
}

ref_domain ref_domain_of(const ref_ctx *c, fuser_dtype dt) {
  if (!fuser_dtype_is_float(dt)) return REF_I64;
  if (dt == FUSER_DTYPE_F64 || c->options.f64) return REF_F64;
  return REF_F32;
}

/* float -> integer of `dt`: truncation, saturated to the dtype's range,
 * NaN -> 0 (C leaves these undefined; the GPU's cvt.rzi saturates too). */
static int64_t float_to_int(double v, fuser_dtype dt) {
  if (dt == FUSER_DTYPE_I1) return v != 0;
  if (isnan(v)) return 0;
  double lo = dt == FUSER_DTYPE_I32 ? -2147483648.0 : -9223372036854775808.0;
  double hi = dt == FUSER_DTYPE_I32 ? 2147483647.0 : 9223372036854775807.0;
  if (v <= lo) return (int64_t)lo;
  if (v >= hi) return dt == FUSER_DTYPE_I32 ? INT32_MAX : INT64_MAX;
  return (int64_t)v;
}

/* int64 -> integer of `dt`: two's-complement wrap (i32) or != 0 (bool). */
static int64_t int_to_int(int64_t v, fuser_dtype dt) {
  if (dt == FUSER_DTYPE_I1) return v != 0;
  if (dt == FUSER_DTYPE_I32) return (int32_t)(uint32_t)(uint64_t)v;
  return v;
}

/* One element of storage as double / int64. */
static double get_f64(const void *base, fuser_dtype dt, int64_t i) {
  switch (dt) {
  case FUSER_DTYPE_BF16: return fuser_bf16_to_f32(((const uint16_t *)base)[i]);
  case FUSER_DTYPE_F16: return fuser_f16_to_f32(((const uint16_t *)base)[i]);
  case FUSER_DTYPE_F32: return ((const float *)base)[i];
  case FUSER_DTYPE_F64: return ((const double *)base)[i];
  case FUSER_DTYPE_I1: return ((const uint8_t *)base)[i] != 0;
  case FUSER_DTYPE_I32: return ((const int32_t *)base)[i];
  case FUSER_DTYPE_I64: return (double)((const int64_t *)base)[i];
  default: return 0;
  }
}

static int64_t get_i64(const void *base, fuser_dtype dt, int64_t i) {
  switch (dt) {
  case FUSER_DTYPE_I1: return ((const uint8_t *)base)[i] != 0;
  case FUSER_DTYPE_I32: return ((const int32_t *)base)[i];
  case FUSER_DTYPE_I64: return ((const int64_t *)base)[i];
  default: return float_to_int(get_f64(base, dt, i), FUSER_DTYPE_I64);
  }
}

void ref_load_row(const ref_tensor *t, int64_t offset, int64_t stride, int64_t n, ref_domain domain, void *row) {
  const void *base = t->buf->data;
  fuser_dtype dt = t->dtype;
  if (domain == REF_F32) {
    float *o = row;
    if (dt == FUSER_DTYPE_F32)
      for (int64_t k = 0; k < n; k++) o[k] = ((const float *)base)[offset + k * stride];
    else if (dt == FUSER_DTYPE_BF16)
      for (int64_t k = 0; k < n; k++) o[k] = fuser_bf16_to_f32(((const uint16_t *)base)[offset + k * stride]);
    else
      for (int64_t k = 0; k < n; k++) o[k] = (float)get_f64(base, dt, offset + k * stride);
  } else if (domain == REF_F64) {
    double *o = row;
    for (int64_t k = 0; k < n; k++) o[k] = get_f64(base, dt, offset + k * stride);
  } else {
    int64_t *o = row;
    for (int64_t k = 0; k < n; k++) o[k] = get_i64(base, dt, offset + k * stride);
  }
}

/* Stores one double into storage of dtype dt (rounding once). */
static void put_f64(void *base, fuser_dtype dt, int64_t i, double v) {
  switch (dt) {
  case FUSER_DTYPE_BF16: ((uint16_t *)base)[i] = fuser_f64_to_bf16(v); break;
  case FUSER_DTYPE_F16: ((uint16_t *)base)[i] = fuser_f64_to_f16(v); break;
  case FUSER_DTYPE_F32: ((float *)base)[i] = (float)v; break;
  case FUSER_DTYPE_F64: ((double *)base)[i] = v; break;
  case FUSER_DTYPE_I1: ((uint8_t *)base)[i] = v != 0; break;
  case FUSER_DTYPE_I32: ((int32_t *)base)[i] = (int32_t)float_to_int(v, dt); break;
  case FUSER_DTYPE_I64: ((int64_t *)base)[i] = float_to_int(v, dt); break;
  default: break;
  }
}

static void put_i64(void *base, fuser_dtype dt, int64_t i, int64_t v) {
  switch (dt) {
  case FUSER_DTYPE_I1: ((uint8_t *)base)[i] = v != 0; break;
  case FUSER_DTYPE_I32: ((int32_t *)base)[i] = (int32_t)int_to_int(v, dt); break;
  case FUSER_DTYPE_I64: ((int64_t *)base)[i] = v; break;
  default: put_f64(base, dt, i, (double)v); break;
  }
}

void ref_store_row(ref_tensor *t, int64_t offset, int64_t stride, int64_t n, ref_domain domain, const void *row) {
  void *base = t->buf->data;
  fuser_dtype dt = t->dtype;
  if (domain == REF_F32) {
    const float *r = row;
    if (dt == FUSER_DTYPE_F32)
      for (int64_t k = 0; k < n; k++) ((float *)base)[offset + k * stride] = r[k];
    else if (dt == FUSER_DTYPE_BF16)
      for (int64_t k = 0; k < n; k++) ((uint16_t *)base)[offset + k * stride] = fuser_f32_to_bf16(r[k]);
    else if (dt == FUSER_DTYPE_F16)
      for (int64_t k = 0; k < n; k++) ((uint16_t *)base)[offset + k * stride] = fuser_f32_to_f16(r[k]);
    else
      for (int64_t k = 0; k < n; k++) put_f64(base, dt, offset + k * stride, r[k]);
  } else if (domain == REF_F64) {
    const double *r = row;
    for (int64_t k = 0; k < n; k++) put_f64(base, dt, offset + k * stride, r[k]);
  } else {
    const int64_t *r = row;
    for (int64_t k = 0; k < n; k++) put_i64(base, dt, offset + k * stride, r[k]);
  }
}

void ref_round_row(fuser_dtype dt, double *row, int64_t n) {
  for (int64_t k = 0; k < n; k++) {
    switch (dt) {
    case FUSER_DTYPE_BF16: row[k] = fuser_bf16_to_f32(fuser_f64_to_bf16(row[k])); break;
    case FUSER_DTYPE_F16: row[k] = fuser_f16_to_f32(fuser_f64_to_f16(row[k])); break;
    case FUSER_DTYPE_F32: row[k] = (float)row[k]; break;
    default: break;
    }
  }
}

void ref_put_f64(void *base, fuser_dtype dt, int64_t i, double v) { put_f64(base, dt, i, v); }

double ref_scalar_f64(const ref_tensor *t) { return get_f64(t->buf->data, t->dtype, t->offset); }
int64_t ref_scalar_i64(const ref_tensor *t) { return get_i64(t->buf->data, t->dtype, t->offset); }

bool ref_make_scalar(ref_ctx *c, fuser_dtype dt, double f, int64_t i, ref_tensor *out) {
  if (!ref_alloc(c, dt, 0, NULL, out)) return false;
  if (fuser_dtype_is_float(dt)) put_f64(out->buf->data, dt, 0, f);
  else put_i64(out->buf->data, dt, 0, i);
  return true;
}

bool ref_scalar_as(ref_ctx *c, const ref_tensor *value, fuser_dtype dt, ref_tensor *out) {
  double f = ref_scalar_f64(value);
  int64_t i = ref_scalar_i64(value);
  if (fuser_dtype_is_float(dt)) ref_round_row(dt, &f, 1);
  return ref_make_scalar(c, ref_storage_dtype(c, dt), f, i, out);
}

bool ref_for_each_row(int rank, const int64_t *sizes, ref_row_visitor visit, void *user) {
  int64_t idx[FUSER_MAX_RANK] = {0};
  for (int d = 0; d < rank; d++)
    if (sizes[d] == 0) return true;
  int outer = rank - 1; /* dims [0, outer) are iterated; the last is the row */
  for (;;) {
    if (!visit(idx, user)) return false;
    int d = outer - 1;
    while (d >= 0 && ++idx[d] == sizes[d]) idx[d--] = 0;
    if (d < 0) return true;
  }
}

int64_t ref_outer_offset(const ref_tensor *t, const int64_t *idx) {
  int64_t off = t->offset;
  for (int d = 0; d + 1 < t->rank; d++) off += idx[d] * t->strides[d];
  return off;
}

typedef struct {
  const ref_tensor *src;
  ref_tensor *dst;
  ref_domain domain;
  void *row;
} copy_job;

static bool copy_row(const int64_t *idx, void *user) {
  copy_job *j = user;
  int r = j->src->rank;
  int64_t n = r ? j->src->sizes[r - 1] : 1;
  int64_t ss = r ? j->src->strides[r - 1] : 0, ds = r ? j->dst->strides[r - 1] : 0;
  ref_load_row(j->src, ref_outer_offset(j->src, idx), ss, n, j->domain, j->row);
  ref_store_row(j->dst, ref_outer_offset(j->dst, idx), ds, n, j->domain, j->row);
  return true;
}

bool ref_copy_into(ref_ctx *c, ref_tensor *dst, const ref_tensor *src) {
  /* the widest domain of the source's category: conversions round once */
  copy_job j = {src, dst, fuser_dtype_is_float(src->dtype) ? REF_F64 : REF_I64, NULL};
  int64_t n = src->rank ? src->sizes[src->rank - 1] : 1;
  j.row = malloc((size_t)(n ? n : 1) * REF_DOMAIN_SIZE);
  if (!j.row) return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  ref_for_each_row(src->rank, src->sizes, copy_row, &j);
  free(j.row);
  return true;
}

bool ref_fill(ref_ctx *c, ref_tensor *dst, const ref_tensor *value) {
  ref_tensor v = *value; /* the value broadcast to dst's shape */
  v.rank = dst->rank;
  for (int d = 0; d < dst->rank; d++) v.sizes[d] = dst->sizes[d], v.strides[d] = 0;
  return ref_copy_into(c, dst, &v);
}

bool ref_copy(ref_ctx *c, const ref_tensor *t, fuser_dtype dtype, const int *perm, ref_tensor *out) {
  if (!ref_alloc(c, dtype, t->rank, t->sizes, out)) return false;
  if (perm) { /* strides from the allocation order, innermost = perm[rank-1] */
    int64_t s = 1;
    for (int k = t->rank - 1; k >= 0; k--) {
      out->strides[perm[k]] = s;
      s *= t->sizes[perm[k]] > 0 ? t->sizes[perm[k]] : 1;
    }
  }
  if (!ref_copy_into(c, out, t)) {
    ref_release(out);
    return false;
  }
  return true;
}

/* ---- DLPack ---------------------------------------------------------------- */

/* One allocation holds the DLTensor and its shape/stride arrays. */
typedef struct {
  DLTensor dl;
  int64_t shape[FUSER_MAX_RANK];
  int64_t strides[FUSER_MAX_RANK];
  void *owned_data;
} dl_block;

fuser_dtype fuser_ref_dtype_from_dl(DLDataType t) {
  if (t.lanes != 1) return FUSER_DTYPE_INVALID;
  if (t.code == kDLBfloat && t.bits == 16) return FUSER_DTYPE_BF16;
  if (t.code == kDLFloat && t.bits == 16) return FUSER_DTYPE_F16;
  if (t.code == kDLFloat && t.bits == 32) return FUSER_DTYPE_F32;
  if (t.code == kDLFloat && t.bits == 64) return FUSER_DTYPE_F64;
  if (t.code == kDLInt && t.bits == 32) return FUSER_DTYPE_I32;
  if (t.code == kDLInt && t.bits == 64) return FUSER_DTYPE_I64;
  if (t.code == FUSER_DL_BOOL && t.bits == 8) return FUSER_DTYPE_I1;
  return FUSER_DTYPE_INVALID;
}

DLDataType fuser_ref_dtype_to_dl(fuser_dtype dt) {
  switch (dt) {
  case FUSER_DTYPE_BF16: return (DLDataType){kDLBfloat, 16, 1};
  case FUSER_DTYPE_F16: return (DLDataType){kDLFloat, 16, 1};
  case FUSER_DTYPE_F32: return (DLDataType){kDLFloat, 32, 1};
  case FUSER_DTYPE_F64: return (DLDataType){kDLFloat, 64, 1};
  case FUSER_DTYPE_I1: return (DLDataType){FUSER_DL_BOOL, 8, 1};
  case FUSER_DTYPE_I32: return (DLDataType){kDLInt, 32, 1};
  case FUSER_DTYPE_I64: return (DLDataType){kDLInt, 64, 1};
  default: return (DLDataType){kDLOpaqueHandle, 0, 0};
  }
}

static DLTensor *dl_new(void *data, void *owned, fuser_dtype dt, int rank, const int64_t *sizes,
                        const int64_t *strides, int64_t offset) {
  if (rank < 0 || rank > FUSER_MAX_RANK) return NULL;
  dl_block *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  for (int i = 0; i < rank; i++) b->shape[i] = sizes[i], b->strides[i] = strides[i];
  b->owned_data = owned;
  b->dl = (DLTensor){.data = data, .device = {kDLCPU, 0}, .ndim = rank, .dtype = fuser_ref_dtype_to_dl(dt),
                     .shape = b->shape, .strides = b->strides,
                     .byte_offset = (uint64_t)offset * fuser_dtype_size(dt)};
  return &b->dl;
}

DLTensor *fuser_ref_tensor_alloc(fuser_dtype dtype, int rank, const int64_t *sizes) {
  if (dtype < 0 || dtype >= FUSER_DTYPE_COUNT || rank < 0 || rank > FUSER_MAX_RANK) return NULL;
  int64_t strides[FUSER_MAX_RANK], n = 1;
  for (int i = 0; i < rank; i++) {
    if (sizes[i] < 0) return NULL;
    n *= sizes[i];
  }
  ref_row_major_strides(rank, sizes, strides);
  void *data = calloc((size_t)(n ? n : 1), fuser_dtype_size(dtype));
  if (!data) return NULL;
  DLTensor *t = dl_new(data, data, dtype, rank, sizes, strides, 0);
  if (!t) free(data);
  return t;
}

DLTensor *fuser_ref_tensor_view(void *data, fuser_dtype dtype, int rank, const int64_t *sizes,
                                const int64_t *strides, int64_t offset_elements) {
  if (dtype < 0 || dtype >= FUSER_DTYPE_COUNT) return NULL;
  return dl_new(data, NULL, dtype, rank, sizes, strides, offset_elements);
}

void fuser_ref_tensor_free(DLTensor *t) {
  if (!t) return;
  dl_block *b = (dl_block *)t;
  free(b->owned_data);
  free(b);
}

int64_t fuser_ref_tensor_numel(const DLTensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
  return n;
}

bool ref_from_dl(ref_ctx *c, const DLTensor *t, ref_tensor *out) {
  memset(out, 0, sizeof *out);
  fuser_dtype dt = fuser_ref_dtype_from_dl(t->dtype);
  if (dt == FUSER_DTYPE_INVALID)
    return ref_fail(c, FUSER_REF_ERR_INPUT, "DLTensor dtype (code %d, %d bits, %d lanes) is not supported",
                    t->dtype.code, t->dtype.bits, t->dtype.lanes);
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return ref_fail(c, FUSER_REF_ERR_INPUT, "DLTensor is not in host memory (device type %d)", t->device.device_type);
  if (t->ndim < 0 || t->ndim > FUSER_MAX_RANK)
    return ref_fail(c, FUSER_REF_ERR_INPUT, "DLTensor rank %d is not in [0, %d]", t->ndim, FUSER_MAX_RANK);
  size_t es = fuser_dtype_size(dt);
  if (t->byte_offset % es)
    return ref_fail(c, FUSER_REF_ERR_INPUT, "DLTensor byte_offset %llu is not a multiple of the element size %zu",
                    (unsigned long long)t->byte_offset, es);
  out->dtype = dt;
  out->rank = t->ndim;
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] < 0) return ref_fail(c, FUSER_REF_ERR_INPUT, "DLTensor has a negative extent in dim %d", i);
    out->sizes[i] = t->shape[i];
  }
  if (t->strides) memcpy(out->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
  else ref_row_major_strides(t->ndim, out->sizes, out->strides);
  out->offset = (int64_t)(t->byte_offset / es);
  if (ref_numel(out) > 0 && !t->data) return ref_fail(c, FUSER_REF_ERR_INPUT, "DLTensor has no data");
  ref_buffer *b = malloc(sizeof *b);
  if (!b) return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  *b = (ref_buffer){.refs = 1, .owned = false, .data = t->data};
  out->buf = b;
  return true;
}

DLTensor *ref_to_dl(ref_ctx *c, const ref_tensor *t, fuser_dtype dt, const int *perm) {
  ref_tensor copy;
  if (!ref_copy(c, t, dt, perm, &copy)) return NULL;
  DLTensor *d = dl_new(copy.buf->data, copy.buf->data, dt, copy.rank, copy.sizes, copy.strides, 0);
  if (!d) {
    ref_release(&copy);
    ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
    return NULL;
  }
  copy.buf->owned = false; /* the DLTensor owns the data now */
  ref_release(&copy);
  return d;
}

/* Storage element of logical row-major element `index` of t. */
static int64_t dl_element(const DLTensor *t, fuser_dtype dt, int64_t index) {
  int64_t off = (int64_t)(t->byte_offset / (fuser_dtype_size(dt) ? fuser_dtype_size(dt) : 1));
  for (int d = t->ndim - 1; d >= 0; d--) {
    int64_t e = t->shape[d] ? t->shape[d] : 1, i = index % e;
    index /= e;
    int64_t stride = t->strides ? t->strides[d] : 0;
    if (!t->strides) {
      stride = 1;
      for (int k = d + 1; k < t->ndim; k++) stride *= t->shape[k];
    }
    off += i * stride;
  }
  return off;
}

double fuser_ref_tensor_get(const DLTensor *t, int64_t index) {
  fuser_dtype dt = fuser_ref_dtype_from_dl(t->dtype);
  return get_f64(t->data, dt, dl_element(t, dt, index));
}

int64_t fuser_ref_tensor_get_i64(const DLTensor *t, int64_t index) {
  fuser_dtype dt = fuser_ref_dtype_from_dl(t->dtype);
  return get_i64(t->data, dt, dl_element(t, dt, index));
}
