/* host_bench.c: the host cost of fuser_execute on the CPU, against the fake
 * libcuda of the tests (test/driver/fake_cuda.c: launches and allocations
 * return at once), for real artifacts (`fuser-translate --emit-artifact`).
 *
 *   host_bench [--iters N] [--misalign K] ART.fart...
 *
 * Outputs and temps come from a caching allocator callback (a free list,
 * as a framework's caching allocator; the fake's cuMemAllocAsync would map
 * fresh host memory for large outputs on every call and drown the numbers).
 * Inputs are the artifact's input recipes (sizes, strides, offsets) over
 * 256-byte-aligned host memory (the fake's "device" memory is host memory;
 * nothing is read or written through it); --misalign K shifts every tensor
 * input by K elements (the scalar fallbacks). Per artifact it prints, in ns
 * per call (the fastest of 15 batches of N calls: the machine is shared, and
 * the minimum is the least disturbed by other work):
 *   execute   fuser_execute + fuser_output_release of each output, the
 *             function loaded normally (the call-plan memo on; a cached
 *             fusion, as `fuser-run --bench` measures it on the GPU;
 *             FUSER_EXECUTE_MEMO in the environment is ignored);
 *   nomemo    the same with FUSER_EXECUTE_MEMO=0 at load: every call
 *             checks, selects and evaluates from scratch;
 *   check     fuser_artifact_check_inputs: validation and variant selection
 *             (the expression interpreter), the slow path's first half;
 *   driver    the fake driver's and the allocator's own share: the same
 *             number of cuCtxGetCurrent, cuLaunchKernel and allocator
 *             calls made directly.
 * The fake library is the one built with the tests unless FUSER_CUDA_LIBRARY
 * names another. It prints numbers and asserts nothing about speed. */
#include "driver/artifact.h"
#include "driver/host_inputs.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ARGS 64
#define MAX_OUTS 16
#define BATCHES 15

typedef struct bench_case {
  fuser_artifact *art;
  int nargs, nout;
  fuser_arg args[MAX_ARGS];
  DLTensor tensors[MAX_ARGS];
  int64_t shapes[MAX_ARGS][FUSER_TENSOR_MAX_RANK], strides[MAX_ARGS][FUSER_TENSOR_MAX_RANK];
  void *storage[MAX_ARGS];
} bench_case;

/* A caching allocator: blocks are kept after free and handed out again to
 * requests they are large enough for. */
#define MAX_BLOCKS 64
typedef struct block_cache {
  int n;
  void *ptr[MAX_BLOCKS];
  size_t bytes[MAX_BLOCKS];
  int used[MAX_BLOCKS];
} block_cache;

static int cache_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  block_cache *c = ctx;
  for (int i = 0; i < c->n; i++)
    if (!c->used[i] && c->bytes[i] >= bytes) {
      c->used[i] = 1;
      *ptr = c->ptr[i];
      return 0;
    }
  if (c->n == MAX_BLOCKS || !(*ptr = aligned_alloc(256, (bytes + 255) / 256 * 256))) return 1;
  c->ptr[c->n] = *ptr, c->bytes[c->n] = bytes, c->used[c->n++] = 1;
  return 0;
}

static void cache_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  block_cache *c = ctx;
  for (int i = 0; i < c->n; i++)
    if (c->ptr[i] == ptr) c->used[i] = 0;
}

static block_cache blocks;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static int make_inputs(bench_case *c, int misalign) {
  size_t len;
  const char *text = fuser_artifact_metadata(c->art, "inputs", &len);
  fuser_input_recipe recipes[MAX_ARGS];
  fuser_error err;
  if (!text) {
    fprintf(stderr, "host_bench: error: the artifact has no input recipes\n");
    return 0;
  }
  c->nargs = fuser_recipes_parse(text, recipes, MAX_ARGS, &err);
  if (c->nargs < 0 || (size_t)c->nargs != fuser_artifact_num_inputs(c->art)) {
    fprintf(stderr, "host_bench: error: input recipes: %s\n", c->nargs < 0 ? err.message : "count differs");
    return 0;
  }
  for (int i = 0; i < c->nargs; i++) {
    const fuser_input_recipe *r = &recipes[i];
    if (!r->tensor) {
      int is_float = r->dtype == FUSER_TYPE_F32 || r->dtype == FUSER_TYPE_F64;
      c->args[i] = is_float ? fuser_arg_double(r->value) : fuser_arg_int((int64_t)r->value);
      continue;
    }
    size_t es = fuser_type_size(r->dtype), shift = r->rank ? (size_t)misalign : 0;
    size_t bytes = ((size_t)r->numel + shift) * es;
    c->storage[i] = aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
    DLTensor *t = &c->tensors[i];
    memset(t, 0, sizeof *t);
    t->data = c->storage[i];
    t->device = (DLDevice){kDLCUDA, 0};
    t->ndim = r->rank;
    t->dtype = fuser_type_to_dlpack(r->dtype);
    for (int d = 0; d < r->rank; d++) c->shapes[i][d] = r->sizes[d], c->strides[i][d] = r->strides[d];
    t->shape = c->shapes[i];
    t->strides = c->strides[i];
    t->byte_offset = ((uint64_t)r->offset + shift) * es;
    c->args[i] = fuser_arg_tensor(t);
  }
  c->nout = (int)fuser_artifact_num_outputs(c->art);
  return c->nout <= MAX_OUTS;
}

/* ns per fuser_execute + releases, median of BATCHES batches. */
static double time_execute(fuser_runtime *rt, fuser_function *fn, bench_case *c, int iters, int *allocs_per_call) {
  fuser_output outs[MAX_OUTS];
  fuser_error err;
  double t[BATCHES];
  if (fuser_execute(fn, c->args, (size_t)c->nargs, outs, (size_t)c->nout, &err) != FUSER_OK) {
    fprintf(stderr, "host_bench: error: %s\n", err.message);
    return -1;
  }
  *allocs_per_call = 0;
  for (int k = 0; k < c->nout; k++) {
    *allocs_per_call += outs[k].allocation != NULL; /* temps not counted: few fusions have them */
    fuser_output_release(rt, &outs[k]);
  }
  for (int b = 0; b < BATCHES; b++) {
    double t0 = now_ns();
    for (int i = 0; i < iters; i++) {
      fuser_execute(fn, c->args, (size_t)c->nargs, outs, (size_t)c->nout, &err);
      for (int k = 0; k < c->nout; k++) fuser_output_release(rt, &outs[k]);
    }
    t[b] = (now_ns() - t0) / iters;
  }
  qsort(t, BATCHES, sizeof t[0], cmp_double);
  return t[0];
}

static double time_check(bench_case *c, int iters) {
  int variants[256];
  fuser_error err;
  double t[BATCHES];
  for (int b = 0; b < BATCHES; b++) {
    double t0 = now_ns();
    for (int i = 0; i < iters; i++) fuser_artifact_check_inputs(c->art, c->args, (size_t)c->nargs, variants, &err);
    t[b] = (now_ns() - t0) / iters;
  }
  qsort(t, BATCHES, sizeof t[0], cmp_double);
  return t[0];
}

/* The fake driver's share: cuCtxGetCurrent, `allocs` allocator calls and
 * one launch of each kernel (with its parameter count, which is what the
 * fake copies), per call. */
static double time_driver(const char *lib_path, int allocs, const fuser_artifact *a, int iters) {
  void *lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
  if (!lib || a->nkernels > 16) return -1;
  typedef int (*launch_fn)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                           void **, void **);
  int (*get_current)(void **) = (int (*)(void **))dlsym(lib, "cuCtxGetCurrent");
  int (*load)(void **, const void *, unsigned, int *, void **) =
      (int (*)(void **, const void *, unsigned, int *, void **))dlsym(lib, "cuModuleLoadDataEx");
  int (*get_function)(void **, void *, const char *) =
      (int (*)(void **, void *, const char *))dlsym(lib, "cuModuleGetFunction");
  launch_fn launch = (launch_fn)dlsym(lib, "cuLaunchKernel");
  int (*unload)(void *) = (int (*)(void *))dlsym(lib, "cuModuleUnload");
  if (!get_current || !load || !get_function || !launch || !unload) return -1;
  char image[1024] = "", name[32];
  for (size_t k = 0; k < a->nkernels; k++)
    snprintf(image + strlen(image), sizeof image - strlen(image), "entry bench_k%zu %zu\n", k, a->kernels[k].nparams);
  void *module, *functions[16];
  if (load(&module, image, 0, NULL, NULL)) return -1;
  for (size_t k = 0; k < a->nkernels; k++) {
    snprintf(name, sizeof name, "bench_k%zu", k);
    if (get_function(&functions[k], module, name)) return -1;
  }
  static int64_t slots[FUSER_MAX_PARAMS];
  void *params[FUSER_MAX_PARAMS];
  for (int p = 0; p < FUSER_MAX_PARAMS; p++) params[p] = &slots[p];
  double t[BATCHES];
  for (int b = 0; b < BATCHES; b++) {
    double t0 = now_ns();
    for (int i = 0; i < iters; i++) {
      void *ctx;
      void *ptr[MAX_OUTS];
      get_current(&ctx);
      for (int j = 0; j < allocs; j++) cache_alloc(&blocks, 4096, NULL, &ptr[j]);
      for (size_t k = 0; k < a->nkernels; k++) launch(functions[k], 1, 1, 1, 128, 1, 1, 0, NULL, params, NULL);
      for (int j = 0; j < allocs; j++) cache_free(&blocks, ptr[j], 4096, NULL);
    }
    t[b] = (now_ns() - t0) / iters;
  }
  unload(module);
  qsort(t, BATCHES, sizeof t[0], cmp_double);
  return t[0];
}

int main(int argc, char **argv) {
  int iters = 20000, misalign = 0, first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (!strcmp(argv[first], "--iters") && first + 1 < argc) iters = atoi(argv[++first]);
    else if (!strcmp(argv[first], "--misalign") && first + 1 < argc) misalign = atoi(argv[++first]);
    else {
      fprintf(stderr, "usage: host_bench [--iters N] [--misalign K] ART.fart...\n");
      return 2;
    }
  }
  if (first == argc || iters <= 0) {
    fprintf(stderr, "usage: host_bench [--iters N] [--misalign K] ART.fart...\n");
    return 2;
  }
  const char *lib = getenv("FUSER_CUDA_LIBRARY");
  if (!lib) setenv("FUSER_CUDA_LIBRARY", lib = FUSER_FAKE_CUDA_PATH, 1);
  fuser_runtime *rt;
  fuser_error err;
  fuser_allocator allocator = {&blocks, cache_alloc, cache_free};
  if (fuser_runtime_create(0, NULL, &allocator, &rt, &err) != FUSER_OK) {
    fprintf(stderr, "host_bench: error: %s\n", err.message);
    return 1;
  }
  printf("ns per call, fastest of %d batches of %d calls\n", BATCHES, iters);
  printf("%-22s %7s %11s %9s %9s %9s %9s\n", "artifact", "kernels", "params/cond", "execute", "nomemo", "check",
         "driver");
  int rc = 0;
  for (int f = first; f < argc; f++) {
    bench_case *c = calloc(1, sizeof *c);
    if (fuser_artifact_read_file(argv[f], &c->art, &err) != FUSER_OK || !make_inputs(c, misalign)) {
      fprintf(stderr, "host_bench: error: %s: %s\n", argv[f], err.message);
      rc = 1;
      free(c);
      continue;
    }
    fuser_function *fn = NULL, *slow = NULL;
    unsetenv("FUSER_EXECUTE_MEMO");
    int ok = fuser_load(rt, c->art, &fn, &err) == FUSER_OK;
    setenv("FUSER_EXECUTE_MEMO", "0", 1);
    ok = ok && fuser_load(rt, c->art, &slow, &err) == FUSER_OK;
    unsetenv("FUSER_EXECUTE_MEMO");
    if (!ok) {
      fprintf(stderr, "host_bench: error: %s: %s\n", argv[f], err.message);
      rc = 1;
    } else {
      int allocs = 0;
      double execute = time_execute(rt, fn, c, iters, &allocs);
      double nomemo = time_execute(rt, slow, c, iters, &allocs);
      double check = time_check(c, iters);
      double driver = time_driver(lib, allocs, c->art, iters);
      const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
      size_t nparams = 0, nconditions = 0;
      for (size_t k = 0; k < c->art->nkernels; k++) {
        nparams += c->art->kernels[k].nparams;
        for (size_t v = 0; v < c->art->kernels[k].nvariants; v++) nconditions += c->art->kernels[k].variants[v].nconditions;
      }
      printf("%-22.22s %7zu %6zu/%-4zu %9.1f %9.1f %9.1f %9.1f\n", name, c->art->nkernels, nparams, nconditions,
             execute, nomemo, check, driver);
      if (execute < 0 || nomemo < 0) rc = 1;
    }
    fuser_function_destroy(fn);
    fuser_function_destroy(slow);
    for (int i = 0; i < c->nargs; i++) free(c->storage[i]);
    fuser_artifact_release(c->art);
    free(c);
  }
  fuser_runtime_destroy(rt);
  return rc;
}
