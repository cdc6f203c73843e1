/* builder.c: the compiler-facing way to describe a compiled fusion
 * (artifact_builder.h). The builder owns a growing fuser_artifact; the first
 * error is sticky (kept for fuser_builder_finish), so the compiler can make a
 * run of calls and check once. finish runs the same validation as the file
 * loader. */
#include "driver/artifact.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fuser_builder {
  fuser_artifact *a;
  fuser_error err; /* first error; code 0 while none */
};

static int fail(fuser_builder *b, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(fuser_builder *b, int code, const char *fmt, ...) {
  if (b->err.code == 0) {
    b->err.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err.message, sizeof b->err.message, fmt, ap);
    va_end(ap);
  }
  return -1;
}

fuser_builder *fuser_builder_create(void) {
  fuser_builder *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->a = calloc(1, sizeof *b->a);
  if (!b->a) {
    free(b);
    return NULL;
  }
  b->a->refcount = 1;
  return b;
}

void fuser_builder_destroy(fuser_builder *b) {
  if (!b) return;
  fuser_artifact_destroy_(b->a);
  free(b);
}

/* Grows *items (of *count elements) by one zeroed element; NULL on OOM. */
static void *grow(fuser_builder *b, void **items, size_t *count, size_t elem) {
  void *bigger = realloc(*items, (*count + 1) * elem);
  if (!bigger) {
    fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
    return NULL;
  }
  *items = bigger;
  void *slot = (char *)bigger + *count * elem;
  memset(slot, 0, elem);
  (*count)++;
  return slot;
}

static char *dup_string(fuser_builder *b, const char *s) {
  if (!s) return NULL;
  char *d = strdup(s);
  if (!d) fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  return d;
}

/* Parses `text` into *e; `what` names the place for the message. */
static int parse(fuser_builder *b, const char *text, fuser_expr *e, const char *what) {
  char msg[160];
  if (!text) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: missing expression", what);
  if (fuser_expr_parse(text, e, msg, sizeof msg) != 0)
    return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: in '%s': %s", what, text, msg);
  return 0;
}

int fuser_builder_add_module(fuser_builder *b, int format, const void *image, size_t size) {
  if (!b || b->err.code) return -1;
  if (!image || !size) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "module: empty image");
  fuser_module *m = grow(b, (void **)&b->a->modules, &b->a->nmodules, sizeof *m);
  if (!m) return -1;
  m->format = format;
  m->image = malloc(size + 1);
  if (!m->image) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  memcpy(m->image, image, size);
  m->image[size] = 0;
  m->size = size;
  return (int)b->a->nmodules - 1;
}

static int check_rank(fuser_builder *b, int rank, const char *what) {
  if (rank < 0 || rank > FUSER_TENSOR_MAX_RANK)
    return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: rank %d outside 0..%d", what, rank, FUSER_TENSOR_MAX_RANK);
  return 0;
}

/* stride_order as int8 (row-major when NULL); values are range-checked by validation. */
static int copy_stride_order(fuser_builder *b, int rank, const int64_t *from, int8_t *to, const char *what) {
  for (int d = 0; d < rank; d++) {
    int64_t s = from ? from[d] : rank - 1 - d;
    if (s < 0 || s >= rank)
      return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: stride_order[%d] = %lld outside 0..%d", what, d,
                  (long long)s, rank - 1);
    to[d] = (int8_t)s;
  }
  return 0;
}

int fuser_builder_add_tensor_input(fuser_builder *b, const char *name, int dtype, int rank,
                                   const int64_t *sizes, const int64_t *contiguity,
                                   const int64_t *stride_order) {
  if (!b || b->err.code) return -1;
  char what[64];
  snprintf(what, sizeof what, "input %zu", b->a->ninputs);
  if (check_rank(b, rank, what)) return -1;
  if (rank && (!sizes || !contiguity))
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: sizes and contiguity are required", what);
  fuser_input *in = grow(b, (void **)&b->a->inputs, &b->a->ninputs, sizeof *in);
  if (!in) return -1;
  in->kind = FUSER_INPUT_TENSOR;
  in->dtype = dtype;
  in->rank = rank;
  in->name = dup_string(b, name);
  for (int d = 0; d < rank; d++) {
    if (contiguity[d] < -1 || contiguity[d] > 1)
      return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: contiguity[%d] = %lld (use 1, 0 or -1)", what, d,
                  (long long)contiguity[d]);
    in->sizes[d] = sizes[d];
    in->contiguity[d] = (int8_t)contiguity[d];
  }
  if (copy_stride_order(b, rank, stride_order, in->stride_order, what)) return -1;
  return (int)b->a->ninputs - 1;
}

int fuser_builder_add_scalar_input(fuser_builder *b, const char *name, int dtype) {
  if (!b || b->err.code) return -1;
  fuser_input *in = grow(b, (void **)&b->a->inputs, &b->a->ninputs, sizeof *in);
  if (!in) return -1;
  in->kind = FUSER_INPUT_SCALAR;
  in->dtype = dtype;
  in->name = dup_string(b, name);
  return (int)b->a->ninputs - 1;
}

/* Copies a program the caller made (a translator's, not text) into *e
 * after checking its stack discipline; `what` names the place. */
static int take(fuser_builder *b, const fuser_expr *from, fuser_expr *e, const char *what) {
  char msg[160];
  if (!from) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: missing expression", what);
  if (from->n > FUSER_EXPR_MAX_LEN) return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: longer than %d operations", what, FUSER_EXPR_MAX_LEN);
  if (fuser_expr_check(from, msg, sizeof msg) != 0) return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: %s", what, msg);
  if (fuser_expr_copy(from, e) != 0) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  return 0;
}

/* Parses n texts into programs (what's they are called, for messages);
 * frees what it made on error. */
static int parse_all(fuser_builder *b, int n, const char *const *texts, fuser_expr *out, const char *what) {
  for (int i = 0; i < n; i++) {
    char w[96];
    snprintf(w, sizeof w, "%s %d", what, i);
    if (parse(b, texts[i], &out[i], w)) {
      while (i--) fuser_expr_free(&out[i]);
      return -1;
    }
  }
  return 0;
}

static void free_all(int n, fuser_expr *e) {
  for (int i = 0; i < n; i++) fuser_expr_free(&e[i]);
}

int fuser_builder_add_output_programs(fuser_builder *b, int dtype, int rank, const fuser_expr *const *sizes,
                                      const int64_t *stride_order) {
  if (!b || b->err.code) return -1;
  char what[80];
  snprintf(what, sizeof what, "output %zu", b->a->noutputs);
  if (check_rank(b, rank, what)) return -1;
  if (rank && !sizes) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: sizes are required", what);
  fuser_output_desc *o = grow(b, (void **)&b->a->outputs, &b->a->noutputs, sizeof *o);
  if (!o) return -1;
  o->kind = FUSER_OUTPUT_NEW;
  o->dtype = dtype;
  o->rank = rank;
  o->input = -1;
  for (int d = 0; d < rank; d++) {
    snprintf(what, sizeof what, "output %zu size of dim %d", b->a->noutputs - 1, d);
    if (take(b, sizes[d], &o->sizes[d], what)) return -1;
  }
  snprintf(what, sizeof what, "output %zu", b->a->noutputs - 1);
  if (copy_stride_order(b, rank, stride_order, o->stride_order, what)) return -1;
  return (int)b->a->noutputs - 1;
}

int fuser_builder_add_output(fuser_builder *b, int dtype, int rank, const char *const *sizes,
                             const int64_t *stride_order) {
  if (!b || b->err.code) return -1;
  if (rank < 0 || rank > FUSER_TENSOR_MAX_RANK || (rank && !sizes))
    return fuser_builder_add_output_programs(b, dtype, rank, NULL, stride_order); /* its message */
  char what[80];
  snprintf(what, sizeof what, "output %zu size of dim", b->a->noutputs);
  fuser_expr e[FUSER_TENSOR_MAX_RANK];
  const fuser_expr *p[FUSER_TENSOR_MAX_RANK];
  if (parse_all(b, rank, sizes, e, what)) return -1;
  for (int d = 0; d < rank; d++) p[d] = &e[d];
  int i = fuser_builder_add_output_programs(b, dtype, rank, p, stride_order);
  free_all(rank, e);
  return i;
}

int fuser_builder_add_alias_output_programs(fuser_builder *b, int input, int rank, const fuser_expr *offset,
                                            const fuser_expr *const *sizes, const fuser_expr *const *strides) {
  if (!b || b->err.code) return -1;
  char what[80];
  snprintf(what, sizeof what, "output %zu", b->a->noutputs);
  if (check_rank(b, rank, what)) return -1;
  if (input < 0 || (size_t)input >= b->a->ninputs || b->a->inputs[input].kind != FUSER_INPUT_TENSOR)
    return fail(b, FUSER_ERR_ARTIFACT_INVALID, "%s: aliases input %d, which is not a tensor input", what, input);
  if (rank && (!sizes || !strides))
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: sizes and strides are required", what);
  fuser_output_desc *o = grow(b, (void **)&b->a->outputs, &b->a->noutputs, sizeof *o);
  if (!o) return -1;
  size_t idx = b->a->noutputs - 1;
  o->kind = FUSER_OUTPUT_ALIAS;
  o->dtype = b->a->inputs[input].dtype;
  o->rank = rank;
  o->input = input;
  snprintf(what, sizeof what, "output %zu offset", idx);
  if (take(b, offset, &o->offset, what)) return -1;
  for (int d = 0; d < rank; d++) {
    snprintf(what, sizeof what, "output %zu size of dim %d", idx, d);
    if (take(b, sizes[d], &o->sizes[d], what)) return -1;
    snprintf(what, sizeof what, "output %zu stride of dim %d", idx, d);
    if (take(b, strides[d], &o->strides[d], what)) return -1;
  }
  return (int)idx;
}

int fuser_builder_add_alias_output(fuser_builder *b, int input, int rank, const char *offset,
                                   const char *const *sizes, const char *const *strides) {
  if (!b || b->err.code) return -1;
  if (rank < 0 || rank > FUSER_TENSOR_MAX_RANK || (rank && (!sizes || !strides)))
    return fuser_builder_add_alias_output_programs(b, input, rank, NULL, NULL, NULL); /* its message */
  char what[80];
  snprintf(what, sizeof what, "output %zu offset", b->a->noutputs);
  fuser_expr off, sz[FUSER_TENSOR_MAX_RANK], st[FUSER_TENSOR_MAX_RANK];
  const fuser_expr *psz[FUSER_TENSOR_MAX_RANK], *pst[FUSER_TENSOR_MAX_RANK];
  if (parse(b, offset, &off, what)) return -1;
  snprintf(what, sizeof what, "output %zu size of dim", b->a->noutputs);
  if (parse_all(b, rank, sizes, sz, what)) return fuser_expr_free(&off), -1;
  snprintf(what, sizeof what, "output %zu stride of dim", b->a->noutputs);
  if (parse_all(b, rank, strides, st, what)) return fuser_expr_free(&off), free_all(rank, sz), -1;
  for (int d = 0; d < rank; d++) psz[d] = &sz[d], pst[d] = &st[d];
  int i = fuser_builder_add_alias_output_programs(b, input, rank, &off, psz, pst);
  fuser_expr_free(&off), free_all(rank, sz), free_all(rank, st);
  return i;
}

int fuser_builder_add_temp_program(fuser_builder *b, const fuser_expr *bytes, int zero_init) {
  if (!b || b->err.code) return -1;
  fuser_temp *t = grow(b, (void **)&b->a->temps, &b->a->ntemps, sizeof *t);
  if (!t) return -1;
  t->zero_init = zero_init != 0;
  char what[48];
  snprintf(what, sizeof what, "temp %zu size", b->a->ntemps - 1);
  if (take(b, bytes, &t->bytes, what)) return -1;
  return (int)b->a->ntemps - 1;
}

int fuser_builder_add_temp(fuser_builder *b, const char *bytes, int zero_init) {
  if (!b || b->err.code) return -1;
  char what[48];
  snprintf(what, sizeof what, "temp %zu size", b->a->ntemps);
  fuser_expr e;
  if (parse(b, bytes, &e, what)) return -1;
  int i = fuser_builder_add_temp_program(b, &e, zero_init);
  fuser_expr_free(&e);
  return i;
}

int fuser_builder_set_index_flag(fuser_builder *b, int t, const char *sites) {
  if (!b || b->err.code) return -1;
  if (t < 0 || (size_t)t >= b->a->ntemps || !sites)
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "index flag: no temp %d (or no sites)", t);
  fuser_temp *tp = &b->a->temps[t];
  free(tp->index_sites);
  tp->index_sites = malloc(strlen(sites) + 1);
  if (!tp->index_sites) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "index flag: out of memory");
  strcpy(tp->index_sites, sites);
  tp->zero_init = 1;
  return 0;
}

void fuser_index_flag_message(const char *sites, int32_t v, char *out, size_t len) {
  const char *line = sites ? sites : "";
  for (int32_t i = 1; i < v && strchr(line, '\n'); i++) line = strchr(line, '\n') + 1;
  const char *end = strchr(line, '\n');
  int n = end ? (int)(end - line) : (int)strlen(line);
  snprintf(out, len, "%.*s: index out of range (the index flag of the kernel: no read went out of bounds; site %d)", n, line, (int)v);
}

int fuser_builder_add_check_program(fuser_builder *b, const fuser_expr *cond, const char *message) {
  if (!b || b->err.code) return -1;
  if (b->a->nchecks >= FUSER_MAX_CHECKS) return fail(b, FUSER_ERR_ARTIFACT_INVALID, "more than %d checks", FUSER_MAX_CHECKS);
  fuser_check *c = grow(b, (void **)&b->a->checks, &b->a->nchecks, sizeof *c);
  if (!c) return -1;
  char what[32];
  snprintf(what, sizeof what, "check %zu", b->a->nchecks - 1);
  if (take(b, cond, &c->cond, what)) return -1;
  if (message && *message) { /* the file's strings are < FUSER_MAX_NAME bytes */
    size_t n = strlen(message) < FUSER_MAX_NAME - 1 ? strlen(message) : FUSER_MAX_NAME - 1;
    if (!(c->message = malloc(n + 1))) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(c->message, message, n);
    c->message[n] = 0;
  }
  return (int)b->a->nchecks - 1;
}

int fuser_builder_add_check(fuser_builder *b, const char *cond, const char *message) {
  if (!b || b->err.code) return -1;
  char what[32];
  snprintf(what, sizeof what, "check %zu", b->a->nchecks);
  fuser_expr e;
  if (parse(b, cond, &e, what)) return -1;
  int i = fuser_builder_add_check_program(b, &e, message);
  fuser_expr_free(&e);
  return i;
}

int fuser_builder_add_kernel(fuser_builder *b, const char *name) {
  if (!b || b->err.code) return -1;
  if (!name || !*name) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "kernel %zu: missing name", b->a->nkernels);
  fuser_kernel *k = grow(b, (void **)&b->a->kernels, &b->a->nkernels, sizeof *k);
  if (!k) return -1;
  k->name = dup_string(b, name);
  return (int)b->a->nkernels - 1;
}

static fuser_kernel *kernel_at(fuser_builder *b, int kernel) {
  if (kernel < 0 || (size_t)kernel >= b->a->nkernels) {
    fail(b, FUSER_ERR_INVALID_ARGUMENT, "kernel %d does not exist (%zu kernels)", kernel, b->a->nkernels);
    return NULL;
  }
  return &b->a->kernels[kernel];
}

static fuser_param *add_param(fuser_builder *b, int kernel, char *what, size_t what_size) {
  fuser_kernel *k = kernel_at(b, kernel);
  if (!k) return NULL;
  snprintf(what, what_size, "kernel %d (%s) parameter %zu", kernel, k->name, k->nparams);
  return grow(b, (void **)&k->params, &k->nparams, sizeof(fuser_param));
}

int fuser_builder_param_pointer_program(fuser_builder *b, int kernel, int buffer, int index, const fuser_expr *offset) {
  if (!b || b->err.code) return -1;
  char what[FUSER_MAX_NAME + 64];
  fuser_param *p = add_param(b, kernel, what, sizeof what);
  if (!p) return -1;
  p->kind = FUSER_PARAM_POINTER;
  p->buffer = buffer;
  p->index = index;
  if (take(b, offset, &p->expr, what)) return -1;
  return (int)b->a->kernels[kernel].nparams - 1;
}

int fuser_builder_param_pointer(fuser_builder *b, int kernel, int buffer, int index, const char *offset) {
  if (!b || b->err.code) return -1;
  char what[64];
  snprintf(what, sizeof what, "kernel %d parameter", kernel);
  fuser_expr e;
  if (parse(b, offset, &e, what)) return -1;
  int i = fuser_builder_param_pointer_program(b, kernel, buffer, index, &e);
  fuser_expr_free(&e);
  return i;
}

int fuser_builder_param_value_program(fuser_builder *b, int kernel, int kind, const fuser_expr *value) {
  if (!b || b->err.code) return -1;
  char what[FUSER_MAX_NAME + 64];
  fuser_param *p = add_param(b, kernel, what, sizeof what);
  if (!p) return -1;
  if (kind != FUSER_PARAM_I32 && kind != FUSER_PARAM_I64)
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: value parameters are FUSER_PARAM_I32 or I64", what);
  p->kind = kind;
  if (take(b, value, &p->expr, what)) return -1;
  return (int)b->a->kernels[kernel].nparams - 1;
}

int fuser_builder_param_value(fuser_builder *b, int kernel, int kind, const char *expr) {
  if (!b || b->err.code) return -1;
  char what[64];
  snprintf(what, sizeof what, "kernel %d parameter", kernel);
  fuser_expr e;
  if (parse(b, expr, &e, what)) return -1;
  int i = fuser_builder_param_value_program(b, kernel, kind, &e);
  fuser_expr_free(&e);
  return i;
}

int fuser_builder_param_scalar(fuser_builder *b, int kernel, int kind, int input) {
  if (!b || b->err.code) return -1;
  char what[FUSER_MAX_NAME + 64];
  fuser_param *p = add_param(b, kernel, what, sizeof what);
  if (!p) return -1;
  if (kind != FUSER_PARAM_F32 && kind != FUSER_PARAM_F64)
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: scalar parameters are FUSER_PARAM_F32 or F64", what);
  p->kind = kind;
  p->index = input;
  return (int)b->a->kernels[kernel].nparams - 1;
}

int fuser_builder_add_variant_programs(fuser_builder *b, int kernel, int module, const char *entry,
                                      const fuser_expr *const grid[3], const unsigned block[3], unsigned shared_bytes,
                                      int nconditions, const fuser_expr *const *conditions) {
  if (!b || b->err.code) return -1;
  fuser_kernel *k = kernel_at(b, kernel);
  if (!k) return -1;
  char what[FUSER_MAX_NAME + 64];
  snprintf(what, sizeof what, "kernel %d (%s) variant %zu", kernel, k->name, k->nvariants);
  if (!entry || !*entry) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: missing entry name", what);
  if (nconditions < 0 || (nconditions && !conditions))
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "%s: bad condition list", what);
  fuser_variant *v = grow(b, (void **)&k->variants, &k->nvariants, sizeof *v);
  if (!v) return -1;
  size_t vi = k->nvariants - 1;
  v->module = module;
  v->entry = dup_string(b, entry);
  v->shared_bytes = shared_bytes;
  for (int g = 0; g < 3; g++) {
    v->block[g] = block[g];
    char gw[FUSER_MAX_NAME + 80];
    snprintf(gw, sizeof gw, "%s grid %c", what, "xyz"[g]);
    if (take(b, grid[g], &v->grid[g], gw)) return -1;
  }
  if (nconditions) {
    v->conditions = calloc((size_t)nconditions, sizeof *v->conditions);
    if (!v->conditions) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
    for (int c = 0; c < nconditions; c++) {
      char cw[FUSER_MAX_NAME + 96];
      snprintf(cw, sizeof cw, "%s condition %d", what, c);
      v->nconditions = (size_t)c + 1; /* so that destroy frees what was copied */
      if (take(b, conditions[c], &v->conditions[c], cw)) return -1;
    }
  }
  return (int)vi;
}

int fuser_builder_add_variant_3d(fuser_builder *b, int kernel, int module, const char *entry,
                                 const char *const grid[3], const unsigned block[3],
                                 unsigned shared_bytes, int nconditions,
                                 const char *const *conditions) {
  if (!b || b->err.code) return -1;
  if (nconditions < 0 || (nconditions && !conditions))
    return fuser_builder_add_variant_programs(b, kernel, module, entry, NULL, block, shared_bytes, -1, NULL); /* its message */
  char what[80];
  snprintf(what, sizeof what, "kernel %d variant grid", kernel);
  fuser_expr g[3], *c = nconditions ? calloc((size_t)nconditions, sizeof *c) : NULL;
  const fuser_expr *pg[3], **pc = nconditions ? calloc((size_t)nconditions, sizeof *pc) : NULL;
  if (nconditions && (!c || !pc)) {
    free(c), free(pc);
    return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  }
  int i = -1;
  if (parse_all(b, 3, grid, g, what) == 0) {
    snprintf(what, sizeof what, "kernel %d variant condition", kernel);
    if (parse_all(b, nconditions, conditions, c, what) == 0) {
      for (int j = 0; j < 3; j++) pg[j] = &g[j];
      for (int j = 0; j < nconditions; j++) pc[j] = &c[j];
      i = fuser_builder_add_variant_programs(b, kernel, module, entry, pg, block, shared_bytes, nconditions, pc);
      free_all(nconditions, c);
    }
    free_all(3, g);
  }
  free(c), free(pc);
  return i;
}

int fuser_builder_add_variant(fuser_builder *b, int kernel, int module, const char *entry,
                              const char *grid_x, unsigned block_x, int nconditions,
                              const char *const *conditions) {
  const char *grid[3] = {grid_x, "1", "1"};
  const unsigned block[3] = {block_x, 1, 1};
  return fuser_builder_add_variant_3d(b, kernel, module, entry, grid, block, 0, nconditions, conditions);
}

int fuser_builder_finish(fuser_builder *b, fuser_artifact **out, fuser_error *err) {
  if (out) *out = NULL;
  if (!b) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "no builder (fuser_builder_create failed?)");
  if (!out) {
    fuser_builder_destroy(b);
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_builder_finish: out is NULL");
  }
  int rc;
  if (b->err.code) rc = fuser_set_error(err, b->err.code, "%s", b->err.message);
  else rc = fuser_artifact_validate_(b->a, err);
  if (rc == FUSER_OK) {
    *out = b->a;
    b->a = NULL;
  }
  fuser_builder_destroy(b);
  return rc;
}

int fuser_builder_set_metadata(fuser_builder *b, const char *key, const void *value, size_t size) {
  if (!b || b->err.code) return -1;
  if (!key || !*key || strlen(key) >= FUSER_MAX_NAME)
    return fail(b, FUSER_ERR_INVALID_ARGUMENT, "metadata: missing or too long key");
  if (size && !value) return fail(b, FUSER_ERR_INVALID_ARGUMENT, "metadata %s: NULL value", key);
  fuser_metadata *m = NULL;
  for (size_t i = 0; i < b->a->nmetadata; i++)
    if (!strcmp(b->a->metadata[i].key, key)) m = &b->a->metadata[i];
  if (!m) {
    m = grow(b, (void **)&b->a->metadata, &b->a->nmetadata, sizeof *m);
    if (!m) return -1;
    m->key = dup_string(b, key);
  }
  uint8_t *copy = malloc(size + 1);
  if (!copy) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  if (size) memcpy(copy, value, size);
  copy[size] = 0;
  free(m->value);
  m->value = copy;
  m->size = size;
  return 0;
}

/* A matmul kernel: its one variant has no module (cuBLASLt runs it) and
 * carries the extent checks as conditions, so variant selection and the
 * input-mismatch diagnosis treat it like any kernel. */
int fuser_builder_add_matmul_programs(fuser_builder *b, const char *name, int dtype, int batch, int has_bias, int nchecks,
                                      const fuser_expr *const *checks) {
  int k = fuser_builder_add_kernel(b, name);
  if (k < 0) return -1;
  fuser_kernel *kn = &b->a->kernels[k];
  kn->kind = FUSER_KERNEL_MATMUL;
  kn->mm_dtype = dtype;
  kn->mm_batch = batch;
  kn->mm_bias = has_bias != 0;
  fuser_expr one;
  if (fuser_expr_const(1, &one) != 0) return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  const fuser_expr *grid[3] = {&one, &one, &one};
  const unsigned block[3] = {1, 1, 1};
  int v = fuser_builder_add_variant_programs(b, k, -1, "cublasLtMatmul", grid, block, 0, nchecks, checks);
  fuser_expr_free(&one);
  return v < 0 ? -1 : k;
}

int fuser_builder_add_matmul(fuser_builder *b, const char *name, int dtype, int batch, int has_bias,
                             int nchecks, const char *const *checks) {
  if (!b || b->err.code) return -1;
  if (nchecks < 0 || (nchecks && !checks)) return fuser_builder_add_matmul_programs(b, name, dtype, batch, has_bias, -1, NULL);
  fuser_expr *c = nchecks ? calloc((size_t)nchecks, sizeof *c) : NULL;
  const fuser_expr **pc = nchecks ? calloc((size_t)nchecks, sizeof *pc) : NULL;
  if (nchecks && (!c || !pc)) {
    free(c), free(pc);
    return fail(b, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  }
  int k = -1;
  if (parse_all(b, nchecks, checks, c, "matmul check") == 0) {
    for (int j = 0; j < nchecks; j++) pc[j] = &c[j];
    k = fuser_builder_add_matmul_programs(b, name, dtype, batch, has_bias, nchecks, pc);
    free_all(nchecks, c);
  }
  free(c), free(pc);
  return k;
}
