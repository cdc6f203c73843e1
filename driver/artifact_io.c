/* artifact_io.c: the artifact file format (docs/runtime.md, "File format").
 *
 *   header (32 bytes): "FUSERART" | u32 version | u32 header size (32)
 *                      | u64 payload size | u64 FNV-1a 64 checksum of the payload
 *   payload: modules, inputs, outputs, temps, kernels, field by field,
 *            little-endian, every count and length explicit.
 *
 * The reader trusts nothing: every read is bounds-checked against the
 * payload, every count is checked against the bytes left before anything is
 * allocated, the payload must be consumed exactly, and the decoded plan then
 * goes through the same validation as the builder's (indices, expressions).
 * Any corrupt or truncated input gives an error code and message. */
#include "driver/artifact.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "FUSERART"
/* Version 2 adds each kernel's kind after its name (u8; a matmul kernel
 * then its dtype, batch rank and bias flag, u8 each). Version 3 adds the
 * call's checks after the temps (u32 count; per check its expr and a str
 * message) on top of version 2. An artifact is written in the lowest
 * version that holds it: without checks and matmul kernels as version 1,
 * byte for byte as before; all three are read. */
#define FORMAT_VERSION 3u
#define FORMAT_VERSION_MIN 1u
#define HEADER_SIZE 32u

static uint64_t fnv1a64(const uint8_t *p, size_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}

/* ---- writing ----------------------------------------------------------- */

typedef struct wbuf {
  uint8_t *p;
  size_t len, cap;
  int oom;
} wbuf;

static void put_bytes(wbuf *w, const void *src, size_t n) {
  if (w->oom) return;
  if (w->len + n > w->cap) {
    size_t cap = w->cap ? w->cap : 1024;
    while (cap < w->len + n) cap *= 2;
    uint8_t *grown = realloc(w->p, cap);
    if (!grown) {
      w->oom = 1;
      return;
    }
    w->p = grown;
    w->cap = cap;
  }
  memcpy(w->p + w->len, src, n);
  w->len += n;
}

static void put_u(wbuf *w, uint64_t v, int bytes) {
  uint8_t b[8];
  for (int i = 0; i < bytes; i++) b[i] = (uint8_t)(v >> (8 * i));
  put_bytes(w, b, (size_t)bytes);
}
static void put_u8(wbuf *w, uint64_t v) { put_u(w, v, 1); }
static void put_u32(wbuf *w, uint64_t v) { put_u(w, v, 4); }
static void put_u64(wbuf *w, uint64_t v) { put_u(w, v, 8); }

static void put_str(wbuf *w, const char *s) {
  size_t n = s ? strlen(s) : 0;
  put_u32(w, n);
  put_bytes(w, s, n);
}

static void put_expr(wbuf *w, const fuser_expr *e) {
  put_u32(w, e->n);
  for (uint32_t i = 0; i < e->n; i++) {
    put_u8(w, e->code[i].op);
    put_u32(w, e->code[i].a);
    put_u64(w, (uint64_t)e->code[i].b);
  }
}

static int has_matmul(const fuser_artifact *a) {
  for (size_t k = 0; k < a->nkernels; k++)
    if (a->kernels[k].kind != FUSER_KERNEL_LAUNCH) return 1;
  return 0;
}

static void put_payload(wbuf *w, const fuser_artifact *a, uint32_t version) {
  put_u32(w, a->nmodules);
  for (size_t m = 0; m < a->nmodules; m++) {
    put_u8(w, (uint64_t)a->modules[m].format);
    put_u64(w, a->modules[m].size);
    put_bytes(w, a->modules[m].image, a->modules[m].size);
  }
  put_u32(w, a->ninputs);
  for (size_t i = 0; i < a->ninputs; i++) {
    const fuser_input *in = &a->inputs[i];
    put_u8(w, (uint64_t)in->kind);
    put_u8(w, (uint64_t)in->dtype);
    put_str(w, in->name);
    if (in->kind != FUSER_INPUT_TENSOR) continue;
    put_u8(w, (uint64_t)in->rank);
    for (int d = 0; d < in->rank; d++) put_u64(w, (uint64_t)in->sizes[d]);
    for (int d = 0; d < in->rank; d++) put_u8(w, (uint8_t)in->contiguity[d]);
    for (int d = 0; d < in->rank; d++) put_u8(w, (uint8_t)in->stride_order[d]);
  }
  put_u32(w, a->noutputs);
  for (size_t i = 0; i < a->noutputs; i++) {
    const fuser_output_desc *o = &a->outputs[i];
    put_u8(w, (uint64_t)o->kind);
    put_u8(w, (uint64_t)o->dtype);
    put_u8(w, (uint64_t)o->rank);
    for (int d = 0; d < o->rank; d++) put_expr(w, &o->sizes[d]);
    if (o->kind == FUSER_OUTPUT_NEW) {
      for (int d = 0; d < o->rank; d++) put_u8(w, (uint8_t)o->stride_order[d]);
    } else {
      put_u32(w, (uint64_t)o->input);
      put_expr(w, &o->offset);
      for (int d = 0; d < o->rank; d++) put_expr(w, &o->strides[d]);
    }
  }
  put_u32(w, a->ntemps);
  for (size_t t = 0; t < a->ntemps; t++) {
    put_expr(w, &a->temps[t].bytes);
    /* bit 0 zero_init; bit 1 an index flag, then its sites (one string
     * each, at most FUSER_MAX_NAME - 1 bytes): version 1 readers' 0/1 stays */
    const char *sites = a->temps[t].index_sites;
    put_u8(w, (uint64_t)(a->temps[t].zero_init ? 1 : 0) | (sites ? 2u : 0u));
    if (sites) {
      uint32_t n = 1;
      for (const char *s = sites; *s; s++) n += *s == '\n';
      put_u32(w, n);
      for (const char *s = sites;;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len >= FUSER_MAX_NAME) len = FUSER_MAX_NAME - 1;
        put_u32(w, len);
        put_bytes(w, s, len);
        if (!nl) break;
        s = nl + 1;
      }
    }
  }
  if (version >= 3) {
    put_u32(w, a->nchecks);
    for (size_t c = 0; c < a->nchecks; c++) {
      put_expr(w, &a->checks[c].cond);
      put_str(w, a->checks[c].message);
    }
  }
  put_u32(w, a->nkernels);
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    put_str(w, kn->name);
    if (version >= 2) {
      put_u8(w, (uint64_t)kn->kind);
      if (kn->kind == FUSER_KERNEL_MATMUL) {
        put_u8(w, (uint64_t)kn->mm_dtype);
        put_u8(w, (uint64_t)kn->mm_batch);
        put_u8(w, (uint64_t)kn->mm_bias);
      }
    }
    put_u32(w, kn->nparams);
    for (size_t p = 0; p < kn->nparams; p++) {
      const fuser_param *pa = &kn->params[p];
      put_u8(w, (uint64_t)pa->kind);
      if (pa->kind == FUSER_PARAM_POINTER) {
        put_u8(w, (uint64_t)pa->buffer);
        put_u32(w, (uint64_t)pa->index);
        put_expr(w, &pa->expr);
      } else if (pa->kind == FUSER_PARAM_I32 || pa->kind == FUSER_PARAM_I64) {
        put_expr(w, &pa->expr);
      } else {
        put_u32(w, (uint64_t)pa->index);
      }
    }
    put_u32(w, kn->nvariants);
    for (size_t v = 0; v < kn->nvariants; v++) {
      const fuser_variant *va = &kn->variants[v];
      put_u32(w, (uint64_t)va->module);
      put_str(w, va->entry);
      for (int g = 0; g < 3; g++) put_expr(w, &va->grid[g]);
      for (int g = 0; g < 3; g++) put_u32(w, va->block[g]);
      put_u32(w, va->shared_bytes);
      put_u32(w, va->nconditions);
      for (size_t c = 0; c < va->nconditions; c++) put_expr(w, &va->conditions[c]);
    }
  }
  put_u32(w, a->nmetadata);
  for (size_t i = 0; i < a->nmetadata; i++) {
    put_str(w, a->metadata[i].key);
    put_u64(w, a->metadata[i].size);
    put_bytes(w, a->metadata[i].value, a->metadata[i].size);
  }
}

int fuser_artifact_write_bytes(const fuser_artifact *a, void **data, size_t *size, fuser_error *err) {
  if (!a || !data || !size) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "write: NULL argument");
  wbuf w = {0};
  uint8_t header[HEADER_SIZE] = {0};
  put_bytes(&w, header, sizeof header);
  uint32_t version = a->nchecks ? 3u : has_matmul(a) ? 2u : FORMAT_VERSION_MIN;
  put_payload(&w, a, version);
  if (w.oom) {
    free(w.p);
    return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory serialising the artifact");
  }
  size_t payload = w.len - HEADER_SIZE;
  wbuf h = {header, 0, sizeof header, 0};
  put_bytes(&h, MAGIC, 8);
  put_u32(&h, version);
  put_u32(&h, HEADER_SIZE);
  put_u64(&h, payload);
  put_u64(&h, fnv1a64(w.p + HEADER_SIZE, payload));
  memcpy(w.p, header, sizeof header);
  *data = w.p;
  *size = w.len;
  fuser_clear_error(err);
  return FUSER_OK;
}

int fuser_artifact_write_file(const fuser_artifact *a, const char *path, fuser_error *err) {
  void *data;
  size_t size;
  int rc = fuser_artifact_write_bytes(a, &data, &size, err);
  if (rc) return rc;
  FILE *f = path ? fopen(path, "wb") : NULL;
  if (!f) {
    free(data);
    return fuser_set_error(err, FUSER_ERR_IO, "%s: cannot open for writing: %s", path ? path : "(null)",
                           strerror(errno));
  }
  size_t wrote = fwrite(data, 1, size, f);
  int close_rc = fclose(f);
  free(data);
  if (wrote != size || close_rc != 0)
    return fuser_set_error(err, FUSER_ERR_IO, "%s: write failed: %s", path, strerror(errno));
  return FUSER_OK;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct rbuf {
  const uint8_t *p;
  size_t len, pos;
  int bad;        /* set on the first failure; later reads return zeros */
  char what[160]; /* what was being read at the failure */
  fuser_error *err;
} rbuf;

static int truncated(rbuf *r, size_t need) {
  if (r->bad) return 1;
  if (r->len - r->pos < need) {
    r->bad = 1;
    fuser_set_error(r->err, FUSER_ERR_ARTIFACT_FORMAT,
                    "artifact payload truncated or malformed at byte %zu: %s needs %zu bytes, %zu left",
                    r->pos + HEADER_SIZE, r->what, need, r->len - r->pos);
    return 1;
  }
  return 0;
}

static int malformed(rbuf *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int malformed(rbuf *r, const char *fmt, ...) {
  if (r->bad) return -1;
  r->bad = 1;
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fuser_set_error(r->err, FUSER_ERR_ARTIFACT_FORMAT, "artifact malformed at byte %zu (%s): %s",
                  r->pos + HEADER_SIZE, r->what, msg);
  return -1;
}

static uint64_t get_u(rbuf *r, int bytes) {
  if (truncated(r, (size_t)bytes)) return 0;
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= (uint64_t)r->p[r->pos + i] << (8 * i);
  r->pos += (size_t)bytes;
  return v;
}
static uint64_t get_u8(rbuf *r) { return get_u(r, 1); }
static uint64_t get_u32(rbuf *r) { return get_u(r, 4); }
static uint64_t get_u64(rbuf *r) { return get_u(r, 8); }

/* A count of items each at least min_bytes long: refused if the rest of the
 * payload cannot hold them (so hostile counts never drive allocation). */
static size_t get_count(rbuf *r, size_t min_bytes, size_t limit) {
  uint64_t n = get_u32(r);
  if (r->bad) return 0;
  if (n > limit) {
    malformed(r, "count %llu exceeds the limit %zu", (unsigned long long)n, limit);
    return 0;
  }
  if (n * min_bytes > r->len - r->pos) {
    malformed(r, "count %llu cannot fit in the %zu bytes left", (unsigned long long)n, r->len - r->pos);
    return 0;
  }
  return (size_t)n;
}

static void *alloc_items(rbuf *r, size_t n, size_t elem) {
  if (r->bad || n == 0) return NULL;
  void *p = calloc(n, elem);
  if (!p) {
    r->bad = 1;
    fuser_set_error(r->err, FUSER_ERR_OUT_OF_MEMORY, "out of memory reading the artifact");
  }
  return p;
}

static char *get_str(rbuf *r, int required) {
  size_t n = get_u32(r);
  if (r->bad) return NULL;
  if (n >= FUSER_MAX_NAME) {
    malformed(r, "string of %zu bytes, at most %d", n, FUSER_MAX_NAME - 1);
    return NULL;
  }
  if (truncated(r, n)) return NULL;
  if (n == 0) {
    if (required) malformed(r, "empty name");
    return NULL;
  }
  if (memchr(r->p + r->pos, 0, n)) {
    malformed(r, "string contains a NUL byte");
    return NULL;
  }
  char *s = malloc(n + 1);
  if (!s) {
    r->bad = 1;
    fuser_set_error(r->err, FUSER_ERR_OUT_OF_MEMORY, "out of memory reading the artifact");
    return NULL;
  }
  memcpy(s, r->p + r->pos, n);
  s[n] = 0;
  r->pos += n;
  return s;
}

static void get_expr(rbuf *r, fuser_expr *e) {
  e->n = 0;
  e->code = NULL;
  e->nfast = 0;
  e->fast = NULL;
  size_t n = get_count(r, 13, FUSER_EXPR_MAX_LEN);
  if (r->bad) return;
  if (n == 0) {
    malformed(r, "empty expression");
    return;
  }
  e->code = alloc_items(r, n, sizeof *e->code);
  if (!e->code) return;
  e->n = (uint32_t)n;
  for (size_t i = 0; i < n; i++) {
    e->code[i].op = (uint8_t)get_u8(r);
    e->code[i].a = (uint32_t)get_u32(r);
    e->code[i].b = (int64_t)get_u64(r);
  }
}

static void set_what(rbuf *r, const char *fmt, size_t i) { snprintf(r->what, sizeof r->what, fmt, i); }
static void set_what0(rbuf *r, const char *what) { snprintf(r->what, sizeof r->what, "%s", what); }

static int get_rank(rbuf *r) {
  uint64_t rank = get_u8(r);
  if (!r->bad && rank > FUSER_TENSOR_MAX_RANK) malformed(r, "rank %llu, at most %d", (unsigned long long)rank, FUSER_TENSOR_MAX_RANK);
  return r->bad ? 0 : (int)rank;
}

static void get_payload(rbuf *r, fuser_artifact *a, uint32_t version) {
  set_what0(r, "module count");
  a->nmodules = get_count(r, 9, FUSER_MAX_MODULES);
  a->modules = alloc_items(r, a->nmodules, sizeof *a->modules);
  for (size_t m = 0; m < a->nmodules && !r->bad; m++) {
    set_what(r, "module %zu", m);
    fuser_module *mod = &a->modules[m];
    mod->format = (int)get_u8(r);
    uint64_t size = get_u64(r);
    if (r->bad) break;
    if (size > r->len - r->pos) {
      malformed(r, "image of %llu bytes, %zu left", (unsigned long long)size, r->len - r->pos);
      break;
    }
    mod->image = malloc((size_t)size + 1);
    if (!mod->image) {
      r->bad = 1;
      fuser_set_error(r->err, FUSER_ERR_OUT_OF_MEMORY, "out of memory reading the artifact");
      break;
    }
    memcpy(mod->image, r->p + r->pos, (size_t)size);
    mod->image[size] = 0;
    mod->size = (size_t)size;
    r->pos += (size_t)size;
  }
  set_what0(r, "input count");
  a->ninputs = get_count(r, 6, FUSER_MAX_INPUTS);
  a->inputs = alloc_items(r, a->ninputs, sizeof *a->inputs);
  for (size_t i = 0; i < a->ninputs && !r->bad; i++) {
    set_what(r, "input %zu", i);
    fuser_input *in = &a->inputs[i];
    in->kind = (int)get_u8(r);
    in->dtype = (int)get_u8(r);
    in->name = get_str(r, 0);
    if (in->kind != FUSER_INPUT_TENSOR) continue;
    in->rank = get_rank(r);
    for (int d = 0; d < in->rank; d++) in->sizes[d] = (int64_t)get_u64(r);
    for (int d = 0; d < in->rank; d++) in->contiguity[d] = (int8_t)get_u8(r);
    for (int d = 0; d < in->rank; d++) in->stride_order[d] = (int8_t)get_u8(r);
  }
  set_what0(r, "output count");
  a->noutputs = get_count(r, 3, FUSER_MAX_OUTPUTS);
  a->outputs = alloc_items(r, a->noutputs, sizeof *a->outputs);
  for (size_t i = 0; i < a->noutputs && !r->bad; i++) {
    set_what(r, "output %zu", i);
    fuser_output_desc *o = &a->outputs[i];
    o->kind = (int)get_u8(r);
    o->dtype = (int)get_u8(r);
    o->rank = get_rank(r);
    o->input = -1;
    for (int d = 0; d < o->rank; d++) get_expr(r, &o->sizes[d]);
    if (o->kind == FUSER_OUTPUT_NEW) {
      for (int d = 0; d < o->rank; d++) o->stride_order[d] = (int8_t)get_u8(r);
    } else if (o->kind == FUSER_OUTPUT_ALIAS) {
      uint64_t input = get_u32(r);
      o->input = input > FUSER_MAX_INPUTS ? -1 : (int)input;
      get_expr(r, &o->offset);
      for (int d = 0; d < o->rank; d++) get_expr(r, &o->strides[d]);
    } else {
      malformed(r, "unknown output kind %d", o->kind);
    }
  }
  set_what0(r, "temp count");
  a->ntemps = get_count(r, 5, FUSER_MAX_TEMPS);
  a->temps = alloc_items(r, a->ntemps, sizeof *a->temps);
  for (size_t t = 0; t < a->ntemps && !r->bad; t++) {
    set_what(r, "temp %zu", t);
    get_expr(r, &a->temps[t].bytes);
    unsigned flags = (unsigned)get_u8(r);
    a->temps[t].zero_init = (flags & 1) != 0;
    if (flags & 2) { /* an index flag and its sites */
      size_t n = get_count(r, 4, 64), used = 0;
      char *text = r->bad ? NULL : calloc(n * FUSER_MAX_NAME + 1, 1);
      for (size_t i = 0; i < n && text && !r->bad; i++) {
        char *s = get_str(r, 1);
        if (s) used += (size_t)snprintf(text + used, n * FUSER_MAX_NAME + 1 - used, "%s%s", i ? "\n" : "", s);
        free(s);
      }
      a->temps[t].index_sites = text;
      a->temps[t].zero_init = 1;
    }
  }
  if (version >= 3) {
    set_what0(r, "check count");
    a->nchecks = get_count(r, 8, FUSER_MAX_CHECKS);
    a->checks = alloc_items(r, a->nchecks, sizeof *a->checks);
    for (size_t c = 0; c < a->nchecks && !r->bad; c++) {
      set_what(r, "check %zu", c);
      get_expr(r, &a->checks[c].cond);
      a->checks[c].message = get_str(r, 0);
    }
  }
  set_what0(r, "kernel count");
  a->nkernels = get_count(r, 9, FUSER_MAX_KERNELS);
  a->kernels = alloc_items(r, a->nkernels, sizeof *a->kernels);
  for (size_t k = 0; k < a->nkernels && !r->bad; k++) {
    set_what(r, "kernel %zu", k);
    fuser_kernel *kn = &a->kernels[k];
    kn->name = get_str(r, 1);
    if (version >= 2) {
      kn->kind = (int)get_u8(r);
      if (kn->kind == FUSER_KERNEL_MATMUL) { /* values checked by validation */
        kn->mm_dtype = (int)get_u8(r);
        kn->mm_batch = (int)get_u8(r);
        kn->mm_bias = (int)get_u8(r);
      } else if (!r->bad && kn->kind != FUSER_KERNEL_LAUNCH) {
        malformed(r, "unknown kernel kind %d", kn->kind);
      }
    }
    kn->nparams = get_count(r, 5, FUSER_MAX_PARAMS);
    kn->params = alloc_items(r, kn->nparams, sizeof *kn->params);
    for (size_t p = 0; p < kn->nparams && !r->bad; p++) {
      fuser_param *pa = &kn->params[p];
      pa->kind = (int)get_u8(r);
      if (pa->kind == FUSER_PARAM_POINTER) {
        pa->buffer = (int)get_u8(r);
        uint64_t index = get_u32(r);
        pa->index = index > INT32_MAX ? -1 : (int)index;
        get_expr(r, &pa->expr);
      } else if (pa->kind == FUSER_PARAM_I32 || pa->kind == FUSER_PARAM_I64) {
        get_expr(r, &pa->expr);
      } else if (pa->kind == FUSER_PARAM_F32 || pa->kind == FUSER_PARAM_F64) {
        uint64_t index = get_u32(r);
        pa->index = index > INT32_MAX ? -1 : (int)index;
      } else {
        malformed(r, "parameter %zu has unknown kind %d", p, pa->kind);
      }
    }
    kn->nvariants = get_count(r, 40, FUSER_MAX_VARIANTS);
    kn->variants = alloc_items(r, kn->nvariants, sizeof *kn->variants);
    for (size_t v = 0; v < kn->nvariants && !r->bad; v++) {
      fuser_variant *va = &kn->variants[v];
      uint64_t module = get_u32(r);
      va->module = module > INT32_MAX ? -1 : (int)module;
      va->entry = get_str(r, 1);
      for (int g = 0; g < 3; g++) get_expr(r, &va->grid[g]);
      for (int g = 0; g < 3; g++) va->block[g] = (unsigned)get_u32(r);
      va->shared_bytes = (unsigned)get_u32(r);
      size_t nc = get_count(r, 17, FUSER_MAX_CONDITIONS);
      va->conditions = alloc_items(r, nc, sizeof *va->conditions);
      if (va->conditions) va->nconditions = nc;
      for (size_t c = 0; c < va->nconditions && !r->bad; c++) get_expr(r, &va->conditions[c]);
    }
  }
  set_what0(r, "metadata count");
  a->nmetadata = get_count(r, 13, FUSER_MAX_METADATA);
  a->metadata = alloc_items(r, a->nmetadata, sizeof *a->metadata);
  for (size_t i = 0; i < a->nmetadata && !r->bad; i++) {
    set_what(r, "metadata %zu", i);
    fuser_metadata *m = &a->metadata[i];
    m->key = get_str(r, 1);
    uint64_t size = get_u64(r);
    if (r->bad) break;
    if (size > r->len - r->pos) {
      malformed(r, "value of %llu bytes, %zu left", (unsigned long long)size, r->len - r->pos);
      break;
    }
    m->value = malloc((size_t)size + 1);
    if (!m->value) {
      r->bad = 1;
      fuser_set_error(r->err, FUSER_ERR_OUT_OF_MEMORY, "out of memory reading the artifact");
      break;
    }
    memcpy(m->value, r->p + r->pos, (size_t)size);
    m->value[size] = 0;
    m->size = (size_t)size;
    r->pos += (size_t)size;
  }
  set_what0(r, "end of payload");
  if (!r->bad && r->pos != r->len) malformed(r, "%zu unexpected bytes after the plan", r->len - r->pos);
}

int fuser_artifact_read_bytes(const void *data, size_t size, fuser_artifact **out, fuser_error *err) {
  if (out) *out = NULL;
  if (!out || (!data && size)) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "read: NULL argument");
  const uint8_t *p = data;
  if (size < HEADER_SIZE)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT,
                           "not a fuser artifact: %zu bytes, shorter than the %u-byte header", size, HEADER_SIZE);
  if (memcmp(p, MAGIC, 8) != 0)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "not a fuser artifact: bad magic (expected \"%s\")", MAGIC);
  rbuf h = {p, HEADER_SIZE, 8, 0, "header", err};
  uint32_t version = (uint32_t)get_u32(&h), header_size = (uint32_t)get_u32(&h);
  uint64_t payload = get_u64(&h), checksum = get_u64(&h);
  if (version < FORMAT_VERSION_MIN || version > FORMAT_VERSION)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_VERSION,
                           "artifact format version %u; this runtime reads versions %u to %u", version,
                           FORMAT_VERSION_MIN, FORMAT_VERSION);
  if (header_size != HEADER_SIZE)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "artifact header size %u, expected %u", header_size,
                           HEADER_SIZE);
  if (payload != size - HEADER_SIZE)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT,
                           "artifact truncated or padded: header says %llu payload bytes, file has %zu",
                           (unsigned long long)payload, size - HEADER_SIZE);
  uint64_t actual = fnv1a64(p + HEADER_SIZE, (size_t)payload);
  if (actual != checksum)
    return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT,
                           "artifact checksum mismatch (stored %016llx, computed %016llx): the file is corrupt",
                           (unsigned long long)checksum, (unsigned long long)actual);
  fuser_artifact *a = calloc(1, sizeof *a);
  if (!a) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory reading the artifact");
  a->refcount = 1;
  rbuf r = {p + HEADER_SIZE, (size_t)payload, 0, 0, "", err};
  get_payload(&r, a, version);
  int rc = r.bad ? (err ? err->code : FUSER_ERR_ARTIFACT_FORMAT) : fuser_artifact_validate_(a, err);
  if (rc) {
    fuser_artifact_destroy_(a);
    return rc;
  }
  *out = a;
  fuser_clear_error(err);
  return FUSER_OK;
}

int fuser_artifact_read_file(const char *path, fuser_artifact **out, fuser_error *err) {
  if (out) *out = NULL;
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return fuser_set_error(err, FUSER_ERR_IO, "%s: cannot open: %s", path ? path : "(null)", strerror(errno));
  uint8_t *data = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 65536;
      uint8_t *grown = realloc(data, cap);
      if (!grown) {
        free(data);
        fclose(f);
        return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "%s: out of memory reading", path);
      }
      data = grown;
    }
    size_t got = fread(data + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int read_error = ferror(f);
  fclose(f);
  if (read_error) {
    free(data);
    return fuser_set_error(err, FUSER_ERR_IO, "%s: read error", path);
  }
  int rc = fuser_artifact_read_bytes(data, len, out, err);
  free(data);
  if (rc && err) {
    char msg[sizeof err->message + FUSER_MAX_NAME];
    snprintf(msg, sizeof msg, "%s: %s", path, err->message);
    msg[sizeof err->message - 1] = 0; /* truncate to fit */
    memcpy(err->message, msg, sizeof err->message);
  }
  return rc;
}
