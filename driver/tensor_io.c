/* Checksums and .npy files of host tensors (tensor_io.h). */
#include "driver/tensor_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/half.h"
#include "driver/host_inputs.h"

int fuser_type_from_dlpack(DLDataType t) {
  for (int d = 1; d < FUSER_TYPE_COUNT_; d++) {
    DLDataType x = fuser_type_to_dlpack(d);
    if (x.code == t.code && x.bits == t.bits && x.lanes == t.lanes) return d;
  }
  if (t.code == kDLUInt && t.bits == 8 && t.lanes == 1) return FUSER_TYPE_BOOL; /* older bool spelling */
  return 0;
}

int64_t fuser_tensor_numel(const DLTensor *t) {
  int64_t n = 1;
  for (int d = 0; d < t->ndim; d++) n *= t->shape[d];
  return n;
}

/* Calls visit(element pointer) for every element in logical row-major order. */
static void for_each(const DLTensor *t, void (*visit)(const unsigned char *, size_t, void *), void *user) {
  int dt = fuser_type_from_dlpack(t->dtype);
  size_t es = fuser_type_size(dt);
  int64_t n = fuser_tensor_numel(t);
  if (n == 0 || es == 0) return;
  int64_t strides[FUSER_TENSOR_MAX_RANK], idx[FUSER_TENSOR_MAX_RANK] = {0};
  for (int d = t->ndim - 1, inner = 1; d >= 0; d--) {
    strides[d] = t->strides ? t->strides[d] : inner;
    inner *= (int)t->shape[d];
  }
  const unsigned char *base = (const unsigned char *)t->data + t->byte_offset;
  int64_t off = 0;
  for (int64_t k = 0; k < n; k++) {
    visit(base + off * (int64_t)es, es, user);
    for (int d = t->ndim - 1; d >= 0; d--) {
      off += strides[d];
      if (++idx[d] < t->shape[d]) break;
      off -= strides[d] * t->shape[d];
      idx[d] = 0;
    }
  }
}

typedef struct {
  int dtype;
  double sum;
  uint64_t hash;
} visit_state;

static void add_value(const unsigned char *p, size_t es, void *user) {
  visit_state *s = user;
  s->sum += fuser_host_load(p, s->dtype, 0);
}

static void hash_bytes(const unsigned char *p, size_t es, void *user) {
  visit_state *s = user;
  for (size_t k = 0; k < es; k++) s->hash = (s->hash ^ p[k]) * 0x100000001b3ULL;
}

static void add_and_hash(const unsigned char *p, size_t es, void *user) {
  add_value(p, es, user);
  hash_bytes(p, es, user);
}

/* Element i in logical row-major order: its index unravelled over the
 * shape, dotted with the strides (NULL: compact row-major). O(rank): the
 * first elements of a 1 GB output are printed without walking it. */
static const unsigned char *element_at(const DLTensor *t, int64_t i) {
  size_t es = fuser_type_size(fuser_type_from_dlpack(t->dtype));
  int64_t off = 0, inner = 1;
  for (int d = t->ndim - 1; d >= 0; d--) {
    int64_t n = t->shape[d], k = n > 0 ? i % n : 0;
    off += k * (t->strides ? t->strides[d] : inner);
    inner *= n;
    i = n > 0 ? i / n : 0;
  }
  return (const unsigned char *)t->data + t->byte_offset + off * (int64_t)es;
}

void fuser_tensor_checksums(const DLTensor *t, double *sum, uint64_t *fnv1a) {
  visit_state s = {.dtype = fuser_type_from_dlpack(t->dtype), .hash = 0xcbf29ce484222325ULL};
  for_each(t, add_and_hash, &s);
  *sum = s.sum;
  *fnv1a = s.hash;
}

double fuser_tensor_sum(const DLTensor *t) {
  visit_state s = {.dtype = fuser_type_from_dlpack(t->dtype)};
  for_each(t, add_value, &s);
  return s.sum;
}

uint64_t fuser_tensor_fnv1a(const DLTensor *t) {
  visit_state s = {.hash = 0xcbf29ce484222325ULL};
  for_each(t, hash_bytes, &s);
  return s.hash;
}

typedef struct {
  int dtype;
  double *out;
  int64_t n;
} copy_state;

static void copy_value(const unsigned char *p, size_t es, void *user) {
  copy_state *c = user;
  c->out[c->n++] = fuser_host_load(p, c->dtype, 0);
}

void fuser_tensor_to_f64(const DLTensor *t, double *out) {
  copy_state c = {fuser_type_from_dlpack(t->dtype), out, 0};
  for_each(t, copy_value, &c);
}

double fuser_tensor_element(const DLTensor *t, int64_t i) {
  if (i < 0 || i >= fuser_tensor_numel(t)) return 0;
  return fuser_host_load(element_at(t, i), fuser_type_from_dlpack(t->dtype), 0);
}

int64_t fuser_tensor_element_i64(const DLTensor *t, int64_t i) {
  if (i < 0 || i >= fuser_tensor_numel(t)) return 0;
  const unsigned char *p = element_at(t, i);
  switch (fuser_type_from_dlpack(t->dtype)) {
  case FUSER_TYPE_I64: { int64_t v; memcpy(&v, p, sizeof v); return v; }
  case FUSER_TYPE_I32: { int32_t v; memcpy(&v, p, sizeof v); return v; }
  case FUSER_TYPE_BOOL: return *p != 0;
  default: return (int64_t)fuser_host_load(p, fuser_type_from_dlpack(t->dtype), 0);
  }
}

static const char *npy_descr(int dt) {
  switch (dt) {
  case FUSER_TYPE_BF16: return "<f4"; /* no NumPy bf16: widened exactly to float32 */
  case FUSER_TYPE_F16: return "<f2";
  case FUSER_TYPE_F32: return "<f4";
  case FUSER_TYPE_F64: return "<f8";
  case FUSER_TYPE_BOOL: return "|b1";
  case FUSER_TYPE_I32: return "<i4";
  case FUSER_TYPE_I64: return "<i8";
  default: return NULL;
  }
}

/* .npy data, converted element by element into a buffer written in large
 * blocks (one fwrite per element cost seconds on the 1 GB reductions that
 * bench/gpu/reductions.sh saves for its float64 check). */
typedef struct {
  int dtype;
  FILE *file;
  int ok;
  size_t used;
  unsigned char buf[1 << 16];
} npy_writer;

static void flush_npy(npy_writer *w) {
  if (w->used) w->ok &= fwrite(w->buf, 1, w->used, w->file) == w->used;
  w->used = 0;
}

static void write_element(const unsigned char *p, size_t es, void *user) {
  npy_writer *w = user;
  if (w->used + 8 > sizeof w->buf) flush_npy(w);
  if (w->dtype == FUSER_TYPE_BF16) {
    uint16_t h;
    memcpy(&h, p, 2);
    float f = fuser_bf16_to_f32(h);
    memcpy(w->buf + w->used, &f, 4);
    w->used += 4;
  } else {
    memcpy(w->buf + w->used, p, es);
    w->used += es;
  }
}

int fuser_tensor_save_npy(const DLTensor *t, const char *path, fuser_error *err) {
  int dt = fuser_type_from_dlpack(t->dtype);
  const char *descr = npy_descr(dt);
  if (!descr) {
    if (err) err->code = FUSER_ERR_INVALID_ARGUMENT, snprintf(err->message, sizeof err->message, "no .npy dtype for this tensor");
    return FUSER_ERR_INVALID_ARGUMENT;
  }
  FILE *f = fopen(path, "wb");
  if (!f) {
    if (err) err->code = FUSER_ERR_IO, snprintf(err->message, sizeof err->message, "cannot write '%s': %s", path, strerror(errno));
    return FUSER_ERR_IO;
  }
  char shape[256] = "", header[512];
  size_t len = 0;
  for (int d = 0; d < t->ndim; d++)
    len += (size_t)snprintf(shape + len, sizeof shape - len, "%lld,%s", (long long)t->shape[d], d + 1 < t->ndim ? " " : "");
  if (t->ndim > 1) shape[len - 1] = 0; /* (2, 3) but (5,) */
  int h = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape);
  /* magic(6) + version(2) + length(2) + header + padding + '\n' is a multiple of 64 */
  int total = 10 + h + 1, pad = (64 - total % 64) % 64;
  memset(header + h, ' ', (size_t)pad);
  header[h + pad] = '\n';
  uint16_t hl = (uint16_t)(h + pad + 1);
  unsigned char hlb[2] = {(unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fwrite(hlb, 1, 2, f);
  fwrite(header, 1, hl, f);
  npy_writer *w = malloc(sizeof *w); /* 64 KB: not on the stack */
  int ok = w != NULL;
  if (w) {
    w->dtype = dt, w->file = f, w->ok = 1, w->used = 0;
    for_each(t, write_element, w);
    flush_npy(w);
    ok = w->ok;
    free(w);
  }
  int closed = fclose(f);
  if (!ok || closed) {
    if (err) err->code = FUSER_ERR_IO, snprintf(err->message, sizeof err->message, "writing '%s' failed", path);
    return FUSER_ERR_IO;
  }
  return FUSER_OK;
}
