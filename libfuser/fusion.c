/* fusion.c: a libfuser fusion: the imported source, and the cache of its
 * compiled entries keyed by call signature (fuser.h).
 *
 * The cache is a singly linked list of entries, newest first, published
 * with a release store of its head and read with an acquire load: a hit
 * builds the key on the stack (signature.c), walks the list comparing hash,
 * length and bytes, and calls fuser_execute: no lock, no allocation, no
 * MLIR, no string building. A miss takes the fusion's lock, looks again (a
 * racing thread may have compiled the same signature), compiles
 * (source.c), loads, and prepends the entry. Entries live until the fusion
 * is destroyed. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/error.h"
#include "libfuser/fuser.h"
#include "libfuser/signature.h"
#include "libfuser/source.h"

typedef struct entry {
  struct entry *next;
  size_t index;
  uint64_t hash;
  size_t len;
  unsigned char *key;
  fuser_artifact *artifact;
  fuser_function *fn;
  double compile_ms;
} entry;

struct fuser_fusion {
  fuser_runtime *rt;
  fuser_fusion_options options;
  char chip[32];
  fuser_source source;
  _Atomic(entry *) head;
  atomic_size_t nentries;
  atomic_int last_compiled;
  atomic_uint_fast64_t hits, compiles;
  pthread_mutex_t lock; /* serialises misses */
};

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A fusion bound to `rt` whose source `make_source` fills. */
static int fusion_create(fuser_runtime *rt, const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err,
                         int (*make_source)(fuser_source *s, const void *ctx, fuser_error *err), const void *ctx) {
  if (!out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_fusion_create: NULL out");
  *out = NULL;
  if (!rt) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_fusion_create: NULL runtime");
  fuser_fusion *f = calloc(1, sizeof *f);
  if (!f) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "fuser_fusion_create: out of host memory");
  f->rt = rt;
  if (options) f->options = *options;
  if (f->options.chip) { /* keep our own copy of the caller's string */
    snprintf(f->chip, sizeof f->chip, "%s", f->options.chip);
    f->options.chip = f->chip;
  }
  int rc = make_source(&f->source, ctx, err);
  if (rc != FUSER_OK) {
    free(f);
    return rc;
  }
  atomic_init(&f->head, NULL);
  atomic_init(&f->nentries, 0);
  atomic_init(&f->last_compiled, -1);
  atomic_init(&f->hits, 0);
  atomic_init(&f->compiles, 0);
  pthread_mutex_init(&f->lock, NULL);
  *out = f;
  if (err) err->code = FUSER_OK, err->message[0] = 0;
  return FUSER_OK;
}

typedef struct {
  int kind;
  const char *text;
  size_t len;
  const char *name;
  MlirModule module;
} source_args;

static int import_text(fuser_source *s, const void *ctx, fuser_error *err) {
  const source_args *a = ctx;
  return fuser_source_import(s, a->kind, a->text, a->len, a->name, err);
}

static int adopt_module(fuser_source *s, const void *ctx, fuser_error *err) {
  const source_args *a = ctx;
  return fuser_source_adopt(s, a->module, a->name, err);
}

int fuser_fusion_create(fuser_runtime *rt, int source_kind, const char *text, size_t len, const char *name,
                        const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err) {
  if (!text && len) {
    if (out) *out = NULL;
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_fusion_create: NULL text");
  }
  source_args a = {source_kind, text ? text : "", len, name ? name : "<fusion>", {NULL}};
  return fusion_create(rt, options, out, err, import_text, &a);
}

int fuser_fusion_create_module(fuser_runtime *rt, MlirModule module, const char *name,
                               const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err) {
  source_args a = {0, NULL, 0, name ? name : "<fusion>", module};
  return fusion_create(rt, options, out, err, adopt_module, &a);
}

void fuser_fusion_destroy(fuser_fusion *f) {
  if (!f) return;
  entry *e = atomic_load(&f->head);
  while (e) {
    entry *next = e->next;
    fuser_function_destroy(e->fn);
    fuser_artifact_release(e->artifact);
    free(e->key);
    free(e);
    e = next;
  }
  fuser_source_free(&f->source);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

static entry *find(entry *e, const fuser_signature *sig) {
  for (; e; e = e->next)
    if (fuser_signature_equal(sig, e->hash, e->len, e->key)) return e;
  return NULL;
}

/* The miss path: compile, load, publish. Under f->lock. */
static int add_entry(fuser_fusion *f, const fuser_arg *args, size_t nargs, const fuser_signature *sig, entry **out,
                     fuser_error *err) {
  double t0 = now_ms();
  entry *e = calloc(1, sizeof *e);
  if (e) e->key = malloc(sig->len ? sig->len : 1);
  if (!e || !e->key) {
    free(e);
    return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory for a cache entry");
  }
  int rc = fuser_source_compile(&f->source, &f->options, args, nargs, &e->artifact, err);
  if (rc == FUSER_OK) rc = fuser_load(f->rt, e->artifact, &e->fn, err);
  if (rc != FUSER_OK) {
    if (e->artifact) fuser_artifact_release(e->artifact);
    free(e->key);
    free(e);
    return rc;
  }
  memcpy(e->key, sig->bytes, sig->len);
  e->len = sig->len;
  e->hash = sig->hash;
  e->compile_ms = now_ms() - t0;
  e->index = atomic_load(&f->nentries);
  e->next = atomic_load_explicit(&f->head, memory_order_relaxed);
  atomic_store_explicit(&f->head, e, memory_order_release);
  atomic_store(&f->nentries, e->index + 1);
  *out = e;
  return FUSER_OK;
}

/* The entry for these arguments, compiled if need be. */
static int lookup(fuser_fusion *f, const fuser_arg *args, size_t nargs, entry **out, fuser_error *err) {
  if (!f) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL fusion");
  if (nargs != f->source.nargs) {
    atomic_store_explicit(&f->last_compiled, -1, memory_order_relaxed);
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs, f->source.nargs);
  }
  if (nargs && !args) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL argument array");
  fuser_signature sig;
  int rc = fuser_signature_build(args, nargs, f->options.specialize_sizes != 0, &sig, err);
  if (rc != FUSER_OK) {
    atomic_store_explicit(&f->last_compiled, -1, memory_order_relaxed);
    return rc;
  }
  entry *e = find(atomic_load_explicit(&f->head, memory_order_acquire), &sig);
  if (e) {
    atomic_fetch_add_explicit(&f->hits, 1, memory_order_relaxed);
    atomic_store_explicit(&f->last_compiled, 0, memory_order_relaxed);
    *out = e;
    return FUSER_OK;
  }
  pthread_mutex_lock(&f->lock);
  int compiled = 0;
  e = find(atomic_load_explicit(&f->head, memory_order_acquire), &sig);
  if (!e) {
    rc = add_entry(f, args, nargs, &sig, &e, err);
    compiled = 1;
  }
  pthread_mutex_unlock(&f->lock);
  if (rc != FUSER_OK) {
    atomic_store_explicit(&f->last_compiled, -1, memory_order_relaxed);
    return rc;
  }
  atomic_fetch_add_explicit(compiled ? &f->compiles : &f->hits, 1, memory_order_relaxed);
  atomic_store_explicit(&f->last_compiled, compiled, memory_order_relaxed);
  *out = e;
  return FUSER_OK;
}

int fuser_fusion_execute(fuser_fusion *f, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                         size_t noutputs, fuser_error *err) {
  entry *e;
  int rc = lookup(f, args, nargs, &e, err);
  if (rc != FUSER_OK) return rc;
  return fuser_execute(e->fn, args, nargs, outputs, noutputs, err);
}

int fuser_fusion_compile(fuser_fusion *f, const fuser_arg *args, size_t nargs, size_t *index, fuser_error *err) {
  entry *e;
  int rc = lookup(f, args, nargs, &e, err);
  if (rc != FUSER_OK) return rc;
  if (index) *index = e->index;
  if (err) err->code = FUSER_OK, err->message[0] = 0;
  return FUSER_OK;
}

size_t fuser_fusion_num_inputs(const fuser_fusion *f) { return f ? f->source.nargs : 0; }
size_t fuser_fusion_num_outputs(const fuser_fusion *f) { return f ? f->source.nresults : 0; }
const char *fuser_fusion_example_inputs(const fuser_fusion *f) { return f ? f->source.recipes : NULL; }
size_t fuser_fusion_num_entries(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->nentries) : 0; }
int fuser_fusion_last_compiled(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->last_compiled) : -1; }
uint64_t fuser_fusion_hits(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->hits) : 0; }
uint64_t fuser_fusion_compiles(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->compiles) : 0; }

static const entry *entry_at(const fuser_fusion *f, size_t i) {
  if (!f) return NULL;
  for (entry *e = atomic_load_explicit(&((fuser_fusion *)f)->head, memory_order_acquire); e; e = e->next)
    if (e->index == i) return e;
  return NULL;
}

const fuser_artifact *fuser_fusion_entry_artifact(const fuser_fusion *f, size_t i) {
  const entry *e = entry_at(f, i);
  return e ? e->artifact : NULL;
}

fuser_function *fuser_fusion_entry_function(const fuser_fusion *f, size_t i) {
  const entry *e = entry_at(f, i);
  return e ? e->fn : NULL;
}

double fuser_fusion_entry_compile_ms(const fuser_fusion *f, size_t i) {
  const entry *e = entry_at(f, i);
  return e ? e->compile_ms : -1;
}
