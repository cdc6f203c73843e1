/* libfuser_host_bench.c: the host time of a cached libfuser call beside a
 * bare cuLaunchKernel of the same kernels, in one process (the issue's
 * bound: a cached call within 1.3x of the bare launch).
 *
 *   libfuser_host_bench [--iters N] [--batches B] SCRIPT.py
 *
 * The script's fusion is compiled in-process through libfuser (a
 * runtime on device 0, the script's example inputs in device memory,
 * zero-filled: values do not matter for host time), then timed, in ns of
 * host time per call, each the fastest batch of B batches of N calls
 * (the stream is synchronised between batches, untimed, so the queue never
 * fills):
 *   bare        cuLaunchKernel of every kernel of the entry, the variant and
 *               grid libfuser picks, parameters computed once beforehand:
 *               the floor, no validation, no allocation;
 *   execute     fuser_fusion_execute + fuser_output_release of each output
 *               (the runtime's stream; outputs from cuMemAllocAsync);
 *   execute_on  fuser_fusion_execute_on + fuser_output_release_on (a stream
 *               per call, as a framework passes its current stream);
 *   execute_on+caching  the same with a caching allocator callback, as a
 *               framework's allocator serves outputs (no driver call for
 *               memory);
 * and the ratio of each to bare. With the real driver (the GPU machine) the
 * numbers are what the bound is about; with the tests' fake libcuda
 * (FUSER_CUDA_LIBRARY) they show libfuser's own share. It prints numbers
 * and asserts nothing about speed.
 *
 * It uses the runtime's internals for the bare launch (driver API table,
 * expression evaluation, input recipes): built in the CMake tree against
 * the static libfuser, and on the GPU machine against libfuser.so plus the
 * runtime sources (bench/gpu/libfuser_host.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/artifact.h"
#include "driver/cuda_loader.h"
#include "driver/host_inputs.h"
#include "fuser/fuser.h"

#define MAX_ARGS 64
#define MAX_OUTS 16
#define MAX_KERNELS 16

static const fuser_cuda_api *cu;

#define CK(x)                                                                   \
  do {                                                                          \
    CUresult r_ = (x);                                                          \
    if (r_) {                                                                   \
      fprintf(stderr, "libfuser_host_bench: %s failed: %d\n", #x, (int)r_);      \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  if (text) text[n] = 0;
  *len = (size_t)n;
  return text;
}

/* ---- a caching allocator (a framework's, in miniature) ------------------- */

#define MAX_BLOCKS 64
static struct {
  int n;
  void *ptr[MAX_BLOCKS];
  size_t bytes[MAX_BLOCKS];
  int used[MAX_BLOCKS];
} blocks;

static int cache_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  for (int i = 0; i < blocks.n; i++)
    if (!blocks.used[i] && blocks.bytes[i] >= bytes) return blocks.used[i] = 1, *ptr = blocks.ptr[i], 0;
  CUdeviceptr p;
  if (blocks.n == MAX_BLOCKS || cu->cuMemAlloc(&p, bytes)) return 1;
  *ptr = (void *)(uintptr_t)p;
  blocks.ptr[blocks.n] = *ptr, blocks.bytes[blocks.n] = bytes, blocks.used[blocks.n++] = 1;
  return 0;
}

static void cache_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  for (int i = 0; i < blocks.n; i++)
    if (blocks.ptr[i] == ptr) blocks.used[i] = 0;
}

/* ---- the bare launch: what fuser_execute computes, computed once --------- */

typedef struct {
  size_t nkernels;
  CUfunction fn[MAX_KERNELS];
  unsigned grid[MAX_KERNELS][3], block[MAX_KERNELS][3], shared[MAX_KERNELS];
  int64_t slots[MAX_KERNELS][FUSER_MAX_PARAMS];
  void *params[MAX_KERNELS][FUSER_MAX_PARAMS];
} bare_plan;

static int64_t eval(const fuser_expr *e, const fuser_arg *args, size_t nargs) {
  int64_t v = 0;
  if (fuser_expr_eval(e, args, nargs, &v)) {
    fprintf(stderr, "libfuser_host_bench: an expression failed\n");
    exit(1);
  }
  return v;
}

/* Loads the entry's modules and resolves every parameter of the variants
 * fuser_artifact_check_inputs picks; outputs and temps get memory once. */
static void bare_prepare(const fuser_artifact *a, const fuser_arg *args, size_t nargs, bare_plan *p) {
  int variants[FUSER_MAX_KERNELS];
  fuser_error err;
  if (a->nkernels > MAX_KERNELS || fuser_artifact_check_inputs(a, args, nargs, variants, &err)) {
    fprintf(stderr, "libfuser_host_bench: the bare plan: %s\n", err.message);
    exit(1);
  }
  CUmodule modules[64];
  for (size_t m = 0; m < a->nmodules && m < 64; m++) CK(cu->cuModuleLoadDataEx(&modules[m], a->modules[m].image, 0, NULL, NULL));
  CUdeviceptr outs[MAX_OUTS] = {0}, temps[FUSER_MAX_TEMPS] = {0};
  for (size_t o = 0; o < a->noutputs && o < MAX_OUTS; o++) {
    int64_t numel = 1;
    for (int d = 0; d < a->outputs[o].rank; d++) numel *= eval(&a->outputs[o].sizes[d], args, nargs);
    if (a->outputs[o].kind == FUSER_OUTPUT_NEW && numel) CK(cu->cuMemAlloc(&outs[o], (size_t)numel * fuser_type_size(a->outputs[o].dtype)));
  }
  for (size_t t = 0; t < a->ntemps; t++) {
    int64_t bytes = eval(&a->temps[t].bytes, args, nargs);
    if (bytes) CK(cu->cuMemAlloc(&temps[t], (size_t)bytes));
  }
  p->nkernels = a->nkernels;
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    const fuser_variant *va = &kn->variants[variants[k]];
    CK(cu->cuModuleGetFunction(&p->fn[k], modules[va->module], va->entry));
    for (int g = 0; g < 3; g++) p->grid[k][g] = (unsigned)eval(&va->grid[g], args, nargs), p->block[k][g] = va->block[g];
    p->shared[k] = va->shared_bytes;
    for (size_t i = 0; i < kn->nparams; i++) {
      const fuser_param *pa = &kn->params[i];
      int64_t *slot = &p->slots[k][i];
      p->params[k][i] = slot;
      if (pa->kind == FUSER_PARAM_POINTER) {
        uint64_t base, elem = 1;
        if (pa->buffer == FUSER_BUFFER_INPUT) {
          const DLTensor *t = args[pa->index].tensor;
          base = (uint64_t)(uintptr_t)t->data + t->byte_offset, elem = fuser_type_size(a->inputs[pa->index].dtype);
        } else if (pa->buffer == FUSER_BUFFER_OUTPUT) {
          base = outs[pa->index], elem = fuser_type_size(a->outputs[pa->index].dtype);
        } else {
          base = temps[pa->index];
        }
        *slot = (int64_t)(base + (uint64_t)eval(&pa->expr, args, nargs) * elem);
      } else if (pa->kind == FUSER_PARAM_F32 || pa->kind == FUSER_PARAM_F64) {
        double d = args[pa->index].kind == FUSER_ARG_DOUBLE ? args[pa->index].d : (double)args[pa->index].i;
        float f = (float)d;
        *slot = 0;
        if (pa->kind == FUSER_PARAM_F32) memcpy(slot, &f, sizeof f);
        else memcpy(slot, &d, sizeof d);
      } else {
        *slot = eval(&pa->expr, args, nargs);
        if (pa->kind == FUSER_PARAM_I32) {
          int32_t v = (int32_t)*slot;
          *slot = 0;
          memcpy(slot, &v, sizeof v);
        }
      }
    }
  }
}

/* ---- timing ----------------------------------------------------------------- */

enum { BARE, EXECUTE, EXECUTE_ON, EXECUTE_ON_CACHING, NMODES };
static const char *mode_names[NMODES] = {"bare", "execute", "execute_on", "execute_on+caching"};

typedef struct {
  fuser_fusion *f, *f_caching;
  fuser_runtime *rt, *rt_caching;
  CUstream stream;
  const fuser_arg *args;
  size_t nargs, nout;
  bare_plan *bare;
} bench;

static void one_call(const bench *b, int mode) {
  fuser_output outs[MAX_OUTS];
  fuser_error err;
  int rc = FUSER_OK;
  if (mode == BARE) {
    const bare_plan *p = b->bare;
    for (size_t k = 0; k < p->nkernels; k++)
      if (p->grid[k][0] && p->grid[k][1] && p->grid[k][2])
        rc |= cu->cuLaunchKernel(p->fn[k], p->grid[k][0], p->grid[k][1], p->grid[k][2], p->block[k][0], p->block[k][1],
                                 p->block[k][2], p->shared[k], b->stream, (void **)p->params[k], NULL);
  } else if (mode == EXECUTE) {
    rc = fuser_fusion_execute(b->f, b->args, b->nargs, outs, b->nout, &err);
    for (size_t o = 0; rc == FUSER_OK && o < b->nout; o++) fuser_output_release(b->rt, &outs[o]);
  } else {
    fuser_fusion *f = mode == EXECUTE_ON ? b->f : b->f_caching;
    fuser_runtime *rt = mode == EXECUTE_ON ? b->rt : b->rt_caching;
    rc = fuser_fusion_execute_on(f, b->stream, b->args, b->nargs, outs, b->nout, &err);
    for (size_t o = 0; rc == FUSER_OK && o < b->nout; o++) fuser_output_release_on(rt, &outs[o], b->stream);
  }
  if (rc) {
    fprintf(stderr, "libfuser_host_bench: %s: %s\n", mode_names[mode], mode == BARE ? "cuLaunchKernel failed" : err.message);
    exit(1);
  }
}

/* The fastest batch, ns per call; the modes interleave batch by batch so
 * that machine noise spreads over all of them. */
static void time_modes(const bench *b, int iters, int batches, double best[NMODES]) {
  for (int m = 0; m < NMODES; m++) best[m] = 1e300;
  for (int r = 0; r < batches; r++)
    for (int m = 0; m < NMODES; m++) {
      double t0 = now_ns();
      for (int i = 0; i < iters; i++) one_call(b, m);
      double ns = (now_ns() - t0) / iters;
      CK(cu->cuStreamSynchronize(b->stream));
      if (ns < best[m]) best[m] = ns;
    }
}

int main(int argc, char **argv) {
  int iters = 1000, batches = 15;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--batches") && i + 1 < argc) batches = atoi(argv[++i]);
    else path = argv[i];
  }
  if (!path || iters < 1 || batches < 1) {
    fprintf(stderr, "usage: libfuser_host_bench [--iters N] [--batches B] SCRIPT.py\n");
    return 2;
  }
  size_t len;
  char *text = read_file(path, &len);
  if (!text) return fprintf(stderr, "libfuser_host_bench: cannot read %s\n", path), 1;
  fuser_error err;
  bench b = {0};
  fuser_allocator caching = {NULL, cache_alloc, cache_free};
  if (fuser_runtime_create(0, NULL, NULL, &b.rt, &err) || fuser_runtime_create(0, NULL, &caching, &b.rt_caching, &err))
    return fprintf(stderr, "libfuser_host_bench: runtime: %s\n", err.message), 1;
  int status;
  char msg[400];
  cu = fuser_cuda_get(&status, msg, sizeof msg);
  CK(cu->cuStreamCreate(&b.stream, FUSER_CU_STREAM_NON_BLOCKING));
  fuser_runtime_set_stream(b.rt, b.stream);
  if (fuser_fusion_create(b.rt, FUSER_SOURCE_NVFUSER, text, len, path, NULL, &b.f, &err) ||
      fuser_fusion_create(b.rt_caching, FUSER_SOURCE_NVFUSER, text, len, path, NULL, &b.f_caching, &err))
    return fprintf(stderr, "libfuser_host_bench: %s\n", err.message), 1;

  /* the script's inputs, in device memory */
  const char *recipes = fuser_fusion_example_inputs(b.f);
  fuser_input_recipe r[MAX_ARGS];
  int nargs = recipes ? fuser_recipes_parse(recipes, r, MAX_ARGS, &err) : -1;
  if (nargs < 0 || (size_t)nargs != fuser_fusion_num_inputs(b.f))
    return fprintf(stderr, "libfuser_host_bench: the script's inputs: %s\n", recipes ? err.message : "none"), 1;
  static fuser_arg args[MAX_ARGS];
  static DLTensor tensors[MAX_ARGS];
  static int64_t shapes[MAX_ARGS][FUSER_TENSOR_MAX_RANK], strides[MAX_ARGS][FUSER_TENSOR_MAX_RANK];
  for (int i = 0; i < nargs; i++) {
    if (!r[i].tensor) {
      int is_float = r[i].dtype == FUSER_TYPE_F32 || r[i].dtype == FUSER_TYPE_F64;
      args[i] = is_float ? fuser_arg_double(r[i].value) : fuser_arg_int((int64_t)r[i].value);
      continue;
    }
    size_t bytes = (size_t)(r[i].numel ? r[i].numel : 1) * fuser_type_size(r[i].dtype);
    CUdeviceptr p;
    CK(cu->cuMemAlloc(&p, bytes));
    CK(cu->cuMemsetD8Async(p, 0, bytes, b.stream));
    DLTensor *t = &tensors[i];
    t->data = (void *)(uintptr_t)p;
    t->device = (DLDevice){kDLCUDA, 0};
    t->ndim = r[i].rank;
    t->dtype = fuser_type_to_dlpack(r[i].dtype);
    for (int d = 0; d < r[i].rank; d++) shapes[i][d] = r[i].sizes[d], strides[i][d] = r[i].strides[d];
    t->shape = shapes[i];
    t->strides = strides[i];
    t->byte_offset = (uint64_t)r[i].offset * fuser_type_size(r[i].dtype);
    args[i] = fuser_arg_tensor(t);
  }
  b.args = args;
  b.nargs = (size_t)nargs;
  b.nout = fuser_fusion_num_outputs(b.f);
  size_t entry;
  double t0 = now_ns();
  if (fuser_fusion_compile(b.f, args, b.nargs, &entry, &err) || fuser_fusion_compile(b.f_caching, args, b.nargs, NULL, &err))
    return fprintf(stderr, "libfuser_host_bench: compile: %s\n", err.message), 1;
  double compile_ms = (now_ns() - t0) / 1e6;
  static bare_plan bare;
  bare_prepare(fuser_fusion_entry_artifact(b.f, entry), args, b.nargs, &bare);
  b.bare = &bare;
  for (int m = 0; m < NMODES; m++) one_call(&b, m); /* warm every path */
  CK(cu->cuStreamSynchronize(b.stream));

  double best[NMODES];
  time_modes(&b, iters, batches, best);
  printf("%s: %zu kernel(s), compiled (twice) in %.0f ms; host ns per call, fastest of %d batches of %d:\n", path,
         bare.nkernels, compile_ms, batches, iters);
  for (int m = 0; m < NMODES; m++) printf("  %-20s %9.1f ns  %5.2fx bare\n", mode_names[m], best[m], best[m] / best[BARE]);
  printf("{\"script\": \"%s\", \"kernels\": %zu, \"bare_ns\": %.1f, \"execute_ns\": %.1f, \"execute_on_ns\": %.1f, "
         "\"execute_on_caching_ns\": %.1f, \"ratio_execute_on\": %.3f, \"ratio_execute_on_caching\": %.3f}\n",
         path, bare.nkernels, best[BARE], best[EXECUTE], best[EXECUTE_ON], best[EXECUTE_ON_CACHING],
         best[EXECUTE_ON] / best[BARE], best[EXECUTE_ON_CACHING] / best[BARE]);
  fuser_fusion_destroy(b.f);
  fuser_fusion_destroy(b.f_caching);
  fuser_runtime_destroy(b.rt);
  fuser_runtime_destroy(b.rt_caching);
  free(text);
  return 0;
}
