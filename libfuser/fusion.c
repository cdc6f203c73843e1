/* fusion.c: a libfuser fusion: the imported source, and the cache of its
 * entries keyed by call signature (fuser.h).
 *
 * The cache is a singly linked list of entries, newest first, published
 * with a release store of its head and read with an acquire load. An entry
 * holds what calls with its signature have needed so far, each made once
 * and published with a release store: the artifact (loaded from the
 * persistent cache or compiled), the loaded function (with a runtime), the
 * CPU reference's retyped clone, the CPU JIT's host plan and kernels. A hit builds the key on the stack
 * (signature.c), walks the list comparing hash, length and bytes, finds
 * what it needs, and calls fuser_execute_on: no lock, no allocation, no
 * MLIR, no string building. A miss takes the fusion's lock, looks again (a
 * racing thread may have made it), makes what is missing, and publishes.
 * Entries live until the fusion is destroyed. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/error.h"
#include "libfuser/disk_cache.h"
#include "libfuser/fuser.h"
#include "libfuser/signature.h"
#include "libfuser/source.h"

typedef struct entry {
  struct entry *next;
  size_t index;
  uint64_t hash;
  size_t len;
  unsigned char *key;
  _Atomic(fuser_artifact *) artifact;
  _Atomic(fuser_function *) fn;
  _Atomic(fuser_source_ref *) ref;
  _Atomic(fuser_source_jit *) jit;
  double compile_ms;
} entry;

/* What a call needs of its entry. */
typedef enum { NEED_ARTIFACT, NEED_FUNCTION, NEED_REFERENCE, NEED_JIT } need;

struct fuser_fusion {
  fuser_runtime *rt;
  fuser_fusion_options options;
  char chip[32];
  char *cache_dir; /* NULL: no persistent cache */
  uint64_t fusion_hash;
  fuser_source source;
  _Atomic(entry *) head;
  atomic_size_t nentries;
  atomic_size_t sized_entries; /* entries made for small calls (FUSER_SPECIALIZE_SMALL) */
  atomic_int last_compiled;
  atomic_uint_fast64_t hits, compiles, disk_hits, disk_writes, disk_rejects, cpu_runs;
  pthread_mutex_t lock; /* serialises misses */
};

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
  return h;
}

/* What the fusion compiles from: kind, text, options that change code. */
static uint64_t hash_fusion(int kind, const char *text, size_t len, const fuser_fusion_options *o) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  int32_t ints[4] = {kind, o->unroll, o->block_size, o->specialize_sizes != 0};
  h = fnv1a(h, ints, sizeof ints);
  h = fnv1a(h, o->chip ? o->chip : "", o->chip ? strlen(o->chip) : 0);
  h = fnv1a(h, "\0", 1);
  return fnv1a(h, text, len);
}

/* What a fusion is made from: script or module text, or (kind
 * FUSER_SOURCE_DEFINITION) a module built in the shared context, with its
 * printed IR as the text that keys the persistent cache. */
#define FUSER_SOURCE_DEFINITION 3
typedef struct {
  int kind;
  const char *text;
  size_t len;
  const char *name;
  MlirModule module;
} source_args;

static int fusion_create(fuser_runtime *rt, const source_args *src, const fuser_fusion_options *options,
                         fuser_fusion **out, fuser_error *err) {
  int source_kind = src->kind;
  const char *text = src->text, *name = src->name;
  size_t len = src->len;
  if (!out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_fusion_create: NULL out");
  *out = NULL;
  if (!text && len) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_fusion_create: NULL text");
  fuser_fusion *f = calloc(1, sizeof *f);
  if (!f) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "fuser_fusion_create: out of host memory");
  f->rt = rt;
  if (options) f->options = *options;
  if (f->options.chip) { /* keep our own copy of the caller's string */
    snprintf(f->chip, sizeof f->chip, "%s", f->options.chip);
    f->options.chip = f->chip;
  }
  int cpu = f->options.cpu_backend;
  if (cpu != 0 && cpu != FUSER_BACKEND_CPU_REFERENCE && cpu != FUSER_BACKEND_CPU_JIT) {
    free(f);
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "cpu_backend %d is not a CPU backend", cpu);
  }
  const char *dir = fuser_disk_cache_dir(f->options.cache_dir);
  if (dir && !(f->cache_dir = strdup(dir))) {
    free(f);
    return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "fuser_fusion_create: out of host memory");
  }
  f->options.cache_dir = f->cache_dir ? f->cache_dir : "";
  f->fusion_hash = hash_fusion(source_kind, text ? text : "", len, &f->options);
  int rc = source_kind == FUSER_SOURCE_DEFINITION
               ? fuser_source_adopt(&f->source, src->module, name ? name : "<fusion>", err)
               : fuser_source_import(&f->source, source_kind, text ? text : "", len, name ? name : "<fusion>", err);
  if (rc != FUSER_OK) {
    free(f->cache_dir);
    free(f);
    return rc;
  }
  atomic_init(&f->head, NULL);
  atomic_init(&f->nentries, 0);
  atomic_init(&f->sized_entries, 0);
  atomic_init(&f->last_compiled, -1);
  atomic_init(&f->hits, 0);
  atomic_init(&f->compiles, 0);
  atomic_init(&f->disk_hits, 0);
  atomic_init(&f->disk_writes, 0);
  atomic_init(&f->disk_rejects, 0);
  atomic_init(&f->cpu_runs, 0);
  pthread_mutex_init(&f->lock, NULL);
  *out = f;
  fuser_clear_error(err);
  return FUSER_OK;
}

int fuser_fusion_create(fuser_runtime *rt, int source_kind, const char *text, size_t len, const char *name,
                        const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err) {
  source_args a = {source_kind, text, len, name, {NULL}};
  return fusion_create(rt, &a, options, out, err);
}

int fuser_fusion_create_module(fuser_runtime *rt, MlirModule module, const char *ir, const char *name,
                               const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err) {
  source_args a = {FUSER_SOURCE_DEFINITION, ir ? ir : "", ir ? strlen(ir) : 0, name, module};
  return fusion_create(rt, &a, options, out, err);
}

static void entry_free(entry *e) {
  fuser_function_destroy(atomic_load(&e->fn));
  fuser_artifact *a = atomic_load(&e->artifact);
  if (a) fuser_artifact_release(a);
  fuser_source_ref_free(atomic_load(&e->ref));
  fuser_source_jit_free(atomic_load(&e->jit));
  free(e->key);
  free(e);
}

void fuser_fusion_destroy(fuser_fusion *f) {
  if (!f) return;
  entry *e = atomic_load(&f->head);
  while (e) {
    entry *next = e->next;
    entry_free(e);
    e = next;
  }
  fuser_source_free(&f->source);
  pthread_mutex_destroy(&f->lock);
  free(f->cache_dir);
  free(f);
}

static entry *find(entry *e, const fuser_signature *sig) {
  for (; e; e = e->next)
    if (fuser_signature_equal(sig, e->hash, e->len, e->key)) return e;
  return NULL;
}

static bool has(entry *e, need n) {
  switch (n) {
  case NEED_ARTIFACT: return atomic_load_explicit(&e->artifact, memory_order_acquire) != NULL;
  case NEED_FUNCTION: return atomic_load_explicit(&e->fn, memory_order_acquire) != NULL;
  case NEED_REFERENCE: return atomic_load_explicit(&e->ref, memory_order_acquire) != NULL;
  case NEED_JIT: return atomic_load_explicit(&e->jit, memory_order_acquire) != NULL;
  }
  return false;
}

/* Whether a call's extents are compiled as constants (specialize_sizes;
 * FUSER_SPECIALIZE_SMALL decides by the call's tensor bytes). */
static bool sized_call(const fuser_fusion *f, const fuser_arg *args, size_t nargs) {
  if (f->options.specialize_sizes != FUSER_SPECIALIZE_SMALL) return f->options.specialize_sizes != 0;
  /* past the limit, small shapes share the layout class's entry */
  if (atomic_load_explicit(&f->sized_entries, memory_order_relaxed) >= FUSER_SMALL_SHAPES_MAX) return false;
  uint64_t bytes = 0;
  for (size_t i = 0; i < nargs; i++) {
    const DLTensor *t = args[i].kind == FUSER_ARG_TENSOR ? args[i].tensor : NULL;
    if (!t) continue;
    uint64_t n = (t->dtype.bits * (uint64_t)t->dtype.lanes + 7) / 8;
    for (int d = 0; d < t->ndim && n; d++) {
      if (t->shape[d] <= 0) n = 0;
      else if (n > UINT64_MAX / (uint64_t)t->shape[d]) return false; /* past any small size */
      else n *= (uint64_t)t->shape[d];
    }
    bytes += n;
    if (bytes >= FUSER_SMALL_CALL_BYTES) return false;
  }
  return true;
}

/* The options an entry compiles with: specialize_sizes as its key says
 * (the key's first byte, fuser_signature_build), decided once per call. */
static fuser_fusion_options entry_options(const fuser_fusion *f, const fuser_signature *sig) {
  fuser_fusion_options o = f->options;
  o.specialize_sizes = sig->len > 0 && sig->bytes[0];
  return o;
}

/* The persistent cache's key of an entry: a tag, the compiler version, the
 * chip, the fusion hash and the signature (disk_cache.h). */
static size_t disk_key(const fuser_fusion *f, const fuser_signature *sig, unsigned char *buf, size_t cap) {
  const char *version = fuser_compiler_version(), *chip = f->options.chip ? f->options.chip : "sm_90";
  size_t n = 0, lv = strlen(version) + 1, lc = strlen(chip) + 1;
  if (16 + lv + lc + 8 + sig->len > cap) return 0;
  memcpy(buf, "libfuser-key-v1", 16), n = 16;
  memcpy(buf + n, version, lv), n += lv;
  memcpy(buf + n, chip, lc), n += lc;
  memcpy(buf + n, &f->fusion_hash, 8), n += 8;
  memcpy(buf + n, sig->bytes, sig->len);
  return n + sig->len;
}

/* The entry's artifact: from the persistent cache, else compiled (and
 * then written there). Under f->lock. */
static int make_artifact(fuser_fusion *f, entry *e, const fuser_arg *args, size_t nargs, const fuser_signature *sig,
                         fuser_error *err) {
  double t0 = now_ms();
  static _Thread_local unsigned char key[16 + 512 + 8 + FUSER_SIG_MAX_BYTES];
  size_t klen = disk_key(f, sig, key, sizeof key);
  char why[1024];
  fuser_artifact *a = NULL;
  if (f->cache_dir && klen) {
    fuser_disk_result r = fuser_disk_cache_load(f->cache_dir, key, klen, &a, why, sizeof why);
    if (r == FUSER_DISK_REJECT) {
      atomic_fetch_add(&f->disk_rejects, 1);
      fprintf(stderr, "libfuser: warning: persistent cache entry ignored: %s; compiling it again\n", why);
    } else if (r == FUSER_DISK_HIT) {
      atomic_fetch_add(&f->disk_hits, 1);
    }
  }
  if (!a) {
    fuser_fusion_options o = entry_options(f, sig);
    int rc = fuser_source_compile(&f->source, &o, args, nargs, klen ? key : NULL, klen, &a, err);
    if (rc != FUSER_OK) return rc;
    atomic_fetch_add(&f->compiles, 1);
    if (f->cache_dir && klen) {
      if (fuser_disk_cache_store(f->cache_dir, key, klen, a, why, sizeof why) == 0) atomic_fetch_add(&f->disk_writes, 1);
      else fprintf(stderr, "libfuser: warning: persistent cache: %s\n", why);
    }
  }
  e->compile_ms = now_ms() - t0;
  atomic_store_explicit(&e->artifact, a, memory_order_release);
  return FUSER_OK;
}

/* Makes what `n` needs in e. Under f->lock. */
static int fill(fuser_fusion *f, entry *e, const fuser_arg *args, size_t nargs, const fuser_signature *sig, need n,
                fuser_error *err) {
  int rc = FUSER_OK;
  fuser_fusion_options o = entry_options(f, sig);
  if (n == NEED_REFERENCE) {
    fuser_source_ref *r;
    rc = fuser_source_ref_prepare(&f->source, &o, args, nargs, &r, err);
    if (rc == FUSER_OK) atomic_store_explicit(&e->ref, r, memory_order_release);
    return rc;
  }
  if (n == NEED_JIT) {
    fuser_source_jit *j;
    rc = fuser_source_jit_prepare(&f->source, &o, args, nargs, &j, err);
    if (rc == FUSER_OK) atomic_store_explicit(&e->jit, j, memory_order_release);
    return rc;
  }
  if (!has(e, NEED_ARTIFACT)) rc = make_artifact(f, e, args, nargs, sig, err);
  if (rc == FUSER_OK && n == NEED_FUNCTION && !has(e, NEED_FUNCTION)) {
    if (!f->rt)
      return fuser_set_error(err, FUSER_ERR_NO_DRIVER,
                             "the fusion has no runtime (created without a GPU): run it on the CPU "
                             "(fuser_fusion_execute_cpu) or compile it (fuser_fusion_compile_artifact)");
    fuser_function *fn;
    rc = fuser_load(f->rt, atomic_load(&e->artifact), &fn, err);
    if (rc == FUSER_OK) atomic_store_explicit(&e->fn, fn, memory_order_release);
  }
  return rc;
}

/* The miss path. Under f->lock. *made: whether anything new was made. */
static int miss(fuser_fusion *f, const fuser_arg *args, size_t nargs, const fuser_signature *sig, need n, entry **out,
                int *made, fuser_error *err) {
  entry *e = find(atomic_load_explicit(&f->head, memory_order_acquire), sig);
  *made = 0;
  if (e && has(e, n)) {
    *out = e;
    return FUSER_OK;
  }
  *made = 1;
  if (e) {
    *out = e;
    return fill(f, e, args, nargs, sig, n, err);
  }
  e = calloc(1, sizeof *e);
  if (e) e->key = malloc(sig->len ? sig->len : 1);
  if (!e || !e->key) {
    free(e);
    return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory for a cache entry");
  }
  memcpy(e->key, sig->bytes, sig->len);
  e->len = sig->len;
  e->hash = sig->hash;
  e->compile_ms = -1;
  int rc = fill(f, e, args, nargs, sig, n, err);
  if (rc != FUSER_OK) { /* not cached: the next call tries again */
    entry_free(e);
    return rc;
  }
  if (f->options.specialize_sizes == FUSER_SPECIALIZE_SMALL && entry_options(f, sig).specialize_sizes)
    atomic_fetch_add(&f->sized_entries, 1);
  e->index = atomic_load(&f->nentries);
  e->next = atomic_load_explicit(&f->head, memory_order_relaxed);
  atomic_store_explicit(&f->head, e, memory_order_release);
  atomic_store(&f->nentries, e->index + 1);
  *out = e;
  return FUSER_OK;
}

/* The entry for these arguments, with what `n` needs made if need be. */
static int lookup(fuser_fusion *f, const fuser_arg *args, size_t nargs, need n, entry **out, fuser_error *err) {
  if (!f) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL fusion");
  if (nargs != f->source.nargs) {
    atomic_store_explicit(&f->last_compiled, -1, memory_order_relaxed);
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs, f->source.nargs);
  }
  if (nargs && !args) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL argument array");
  fuser_signature sig;
  int rc = fuser_signature_build(args, nargs, sized_call(f, args, nargs), &sig, err);
  if (rc != FUSER_OK) {
    atomic_store_explicit(&f->last_compiled, -1, memory_order_relaxed);
    return rc;
  }
  entry *e = find(atomic_load_explicit(&f->head, memory_order_acquire), &sig);
  if (e && has(e, n)) {
    atomic_fetch_add_explicit(&f->hits, 1, memory_order_relaxed);
    atomic_store_explicit(&f->last_compiled, 0, memory_order_relaxed);
    *out = e;
    return FUSER_OK;
  }
  int made;
  pthread_mutex_lock(&f->lock);
  rc = miss(f, args, nargs, &sig, n, &e, &made, err);
  pthread_mutex_unlock(&f->lock);
  if (rc != FUSER_OK) {
    atomic_store_explicit(&f->last_compiled, -1, memory_order_relaxed);
    return rc;
  }
  if (!made) atomic_fetch_add_explicit(&f->hits, 1, memory_order_relaxed);
  atomic_store_explicit(&f->last_compiled, made, memory_order_relaxed);
  *out = e;
  return FUSER_OK;
}

int fuser_fusion_execute_on(fuser_fusion *f, void *stream, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                            size_t noutputs, fuser_error *err) {
  if (f && !f->rt)
    return fuser_set_error(err, FUSER_ERR_NO_DRIVER,
                           "the fusion has no runtime (created without a GPU): run it on the CPU (fuser_fusion_execute_cpu)");
  entry *e;
  int rc = lookup(f, args, nargs, NEED_FUNCTION, &e, err);
  if (rc != FUSER_OK) return rc;
  return fuser_execute_on(atomic_load_explicit(&e->fn, memory_order_acquire), stream, args, nargs, outputs, noutputs,
                          err);
}

int fuser_fusion_execute(fuser_fusion *f, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                         size_t noutputs, fuser_error *err) {
  if (f && !f->rt) return fuser_fusion_execute_cpu(f, FUSER_BACKEND_AUTO, args, nargs, outputs, noutputs, err);
  return fuser_fusion_execute_on(f, f ? fuser_runtime_stream(f->rt) : NULL, args, nargs, outputs, noutputs, err);
}

int fuser_fusion_execute_cpu(fuser_fusion *f, int backend, const fuser_arg *args, size_t nargs,
                             fuser_output *outputs, size_t noutputs, fuser_error *err) {
  if (!f) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL fusion");
  if (backend == FUSER_BACKEND_AUTO) backend = f->options.cpu_backend ? f->options.cpu_backend : FUSER_BACKEND_CPU_REFERENCE;
  if (noutputs != f->source.nresults || (noutputs && !outputs))
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu outputs given, the fusion has %zu", noutputs,
                           f->source.nresults);
  if (backend != FUSER_BACKEND_CPU_REFERENCE && backend != FUSER_BACKEND_CPU_JIT)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "backend %d is not a CPU backend", backend);
  entry *e;
  bool jit = backend == FUSER_BACKEND_CPU_JIT;
  int rc = lookup(f, args, nargs, jit ? NEED_JIT : NEED_REFERENCE, &e, err);
  if (rc != FUSER_OK) return rc;
  if (jit)
    rc = fuser_source_jit_run(&f->source, atomic_load_explicit(&e->jit, memory_order_acquire), args, nargs, outputs,
                              noutputs, err);
  else
    rc = fuser_source_ref_run(&f->source, atomic_load_explicit(&e->ref, memory_order_acquire), args, nargs, outputs,
                              noutputs, err);
  if (rc == FUSER_OK) {
    atomic_fetch_add_explicit(&f->cpu_runs, 1, memory_order_relaxed);
    fuser_clear_error(err);
  }
  return rc;
}

int fuser_fusion_compile(fuser_fusion *f, const fuser_arg *args, size_t nargs, size_t *index, fuser_error *err) {
  entry *e;
  int rc = lookup(f, args, nargs, f && f->rt ? NEED_FUNCTION : NEED_ARTIFACT, &e, err);
  if (rc != FUSER_OK) return rc;
  if (index) *index = e->index;
  fuser_clear_error(err);
  return FUSER_OK;
}

int fuser_fusion_compile_artifact(fuser_fusion *f, const fuser_arg *args, size_t nargs, fuser_artifact **out,
                                  fuser_error *err) {
  if (!out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_fusion_compile_artifact: NULL out");
  *out = NULL;
  entry *e;
  int rc = lookup(f, args, nargs, NEED_ARTIFACT, &e, err);
  if (rc != FUSER_OK) return rc;
  fuser_artifact *a = atomic_load_explicit(&e->artifact, memory_order_acquire);
  fuser_artifact_retain(a);
  *out = a;
  fuser_clear_error(err);
  return FUSER_OK;
}

fuser_runtime *fuser_fusion_runtime(const fuser_fusion *f) { return f ? f->rt : NULL; }
uint64_t fuser_fusion_hash(const fuser_fusion *f) { return f ? f->fusion_hash : 0; }
size_t fuser_fusion_num_inputs(const fuser_fusion *f) { return f ? f->source.nargs : 0; }
size_t fuser_fusion_num_outputs(const fuser_fusion *f) { return f ? f->source.nresults : 0; }
int fuser_fusion_input_kind(const fuser_fusion *f, size_t i) { return f && i < f->source.nargs ? f->source.arg_kind[i] : 0; }
const char *fuser_fusion_example_inputs(const fuser_fusion *f) { return f ? f->source.recipes : NULL; }
size_t fuser_fusion_num_entries(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->nentries) : 0; }
int fuser_fusion_last_compiled(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->last_compiled) : -1; }
uint64_t fuser_fusion_hits(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->hits) : 0; }
uint64_t fuser_fusion_compiles(const fuser_fusion *f) { return f ? atomic_load(&((fuser_fusion *)f)->compiles) : 0; }

void fuser_fusion_get_stats(const fuser_fusion *f, fuser_fusion_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!f) return;
  fuser_fusion *m = (fuser_fusion *)f;
  out->hits = atomic_load(&m->hits);
  out->compiles = atomic_load(&m->compiles);
  out->disk_hits = atomic_load(&m->disk_hits);
  out->disk_writes = atomic_load(&m->disk_writes);
  out->disk_rejects = atomic_load(&m->disk_rejects);
  out->cpu_runs = atomic_load(&m->cpu_runs);
}

static entry *entry_at(const fuser_fusion *f, size_t i) {
  if (!f) return NULL;
  for (entry *e = atomic_load_explicit(&((fuser_fusion *)f)->head, memory_order_acquire); e; e = e->next)
    if (e->index == i) return e;
  return NULL;
}

const fuser_artifact *fuser_fusion_entry_artifact(const fuser_fusion *f, size_t i) {
  entry *e = entry_at(f, i);
  return e ? atomic_load_explicit(&e->artifact, memory_order_acquire) : NULL;
}

fuser_function *fuser_fusion_entry_function(const fuser_fusion *f, size_t i) {
  entry *e = entry_at(f, i);
  return e ? atomic_load_explicit(&e->fn, memory_order_acquire) : NULL;
}

double fuser_fusion_entry_compile_ms(const fuser_fusion *f, size_t i) {
  entry *e = entry_at(f, i);
  return e && atomic_load_explicit(&e->artifact, memory_order_acquire) ? e->compile_ms : -1;
}
