/* Summaries and files for results: checksums (a double sum and an FNV-1a
 * hash of the element bytes in logical row-major order) and NumPy .npy
 * files (format 1.0). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/tensor.h"

/* Calls visit(element pointer) for every element in row-major logical order. */
static void for_each_element(const DLTensor *t, void (*visit)(const unsigned char *, size_t, void *), void *user) {
  fuser_dtype dt = fuser_ref_dtype_from_dl(t->dtype);
  size_t es = fuser_dtype_size(dt);
  int64_t n = fuser_ref_tensor_numel(t);
  if (n == 0 || es == 0) return;
  int64_t strides[FUSER_MAX_RANK], idx[FUSER_MAX_RANK] = {0};
  if (t->strides) memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
  else ref_row_major_strides(t->ndim, t->shape, strides);
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
  fuser_dtype dt;
  double sum;
  uint64_t hash;
  FILE *file;
  bool ok;
} visit_state;

static double element_value(const unsigned char *p, fuser_dtype dt) {
  ref_tensor one = {.dtype = dt, .rank = 0};
  ref_buffer b = {.refs = 1, .owned = false, .data = (void *)p};
  one.buf = &b;
  return ref_scalar_f64(&one);
}

static void add_value(const unsigned char *p, size_t es, void *user) {
  visit_state *s = user;
  s->sum += element_value(p, s->dt);
}

static void hash_bytes(const unsigned char *p, size_t es, void *user) {
  visit_state *s = user;
  for (size_t k = 0; k < es; k++) s->hash = (s->hash ^ p[k]) * 0x100000001b3ULL;
}

double fuser_ref_checksum_sum(const DLTensor *t) {
  visit_state s = {.dt = fuser_ref_dtype_from_dl(t->dtype)};
  for_each_element(t, add_value, &s);
  return s.sum;
}

uint64_t fuser_ref_checksum_fnv1a(const DLTensor *t) {
  visit_state s = {.hash = 0xcbf29ce484222325ULL};
  for_each_element(t, hash_bytes, &s);
  return s.hash;
}

/* ---- .npy ------------------------------------------------------------------- */

static const char *npy_descr(fuser_dtype dt) {
  switch (dt) {
  case FUSER_DTYPE_BF16: return "<f4"; /* no NumPy bf16: widened exactly to float32 */
  case FUSER_DTYPE_F16: return "<f2";
  case FUSER_DTYPE_F32: return "<f4";
  case FUSER_DTYPE_F64: return "<f8";
  case FUSER_DTYPE_I1: return "|b1";
  case FUSER_DTYPE_I32: return "<i4";
  case FUSER_DTYPE_I64: return "<i8";
  default: return NULL;
  }
}

static void write_element(const unsigned char *p, size_t es, void *user) {
  visit_state *s = user;
  if (s->dt == FUSER_DTYPE_BF16) {
    uint16_t h;
    memcpy(&h, p, 2);
    float f = fuser_bf16_to_f32(h);
    s->ok &= fwrite(&f, 4, 1, s->file) == 1;
  } else {
    s->ok &= fwrite(p, es, 1, s->file) == 1;
  }
}

fuser_ref_status fuser_ref_save_npy(const DLTensor *t, const char *path, fuser_ref_error *err) {
  fuser_ref_error local;
  if (!err) err = &local;
  memset(err, 0, sizeof *err);
  fuser_dtype dt = fuser_ref_dtype_from_dl(t->dtype);
  const char *descr = npy_descr(dt);
  if (!descr) {
    err->status = FUSER_REF_ERR_UNSUPPORTED;
    snprintf(err->message, sizeof err->message, "no .npy dtype for this tensor");
    return err->status;
  }
  char shape[256] = "", header[512];
  size_t len = 0;
  for (int d = 0; d < t->ndim; d++)
    len += (size_t)snprintf(shape + len, sizeof shape - len, "%lld,%s", (long long)t->shape[d],
                            d + 1 < t->ndim ? " " : "");
  if (t->ndim > 1) shape[len - 1] = 0; /* (2, 3) but (5,) */
  int hl = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape);
  /* magic(6) + version(2) + length(2) + header + padding + '\n' is a multiple of 64 */
  int total = 10 + hl + 1, pad = (64 - total % 64) % 64;
  memset(header + hl, ' ', (size_t)pad);
  header[hl + pad] = '\n';
  uint16_t header_len = (uint16_t)(hl + pad + 1);
  FILE *f = fopen(path, "wb");
  if (!f) {
    err->status = FUSER_REF_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot write '%s': %s", path, strerror(errno));
    return err->status;
  }
  unsigned char lenb[2] = {(unsigned char)(header_len & 0xff), (unsigned char)(header_len >> 8)};
  visit_state s = {.dt = dt, .file = f, .ok = true};
  s.ok &= fwrite("\x93NUMPY\x01\x00", 1, 8, f) == 8;
  s.ok &= fwrite(lenb, 1, 2, f) == 2;
  s.ok &= fwrite(header, 1, header_len, f) == header_len;
  for_each_element(t, write_element, &s);
  s.ok &= fclose(f) == 0;
  if (!s.ok) {
    err->status = FUSER_REF_ERR_IO;
    snprintf(err->message, sizeof err->message, "error writing '%s'", path);
  }
  return err->status;
}
