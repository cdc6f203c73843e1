/* runtime.c: the runtime proper: a device context and stream, loading
 * artifacts into CUDA modules (with a process-wide module cache keyed by
 * context and image bytes), and executing them.
 *
 * fuser_execute is the hot path. It does, in order and with no heap
 * allocation and no synchronisation:
 *   1-2. plan the call: if the call's signature equals the last planned
 *      one's (call_memo.h), take that plan; otherwise check the arguments
 *      against the signature (validate.c) and evaluate everything that can
 *      fail: each kernel's variant, grid and parameter values, each output's
 *      sizes/strides and each temp's size, into a stack plan, and memoise it;
 *   3. allocate outputs and temps (allocator callback, or the runtime's
 *      caching allocator, device_cache.h: no driver call once warm),
 *      clear zero-init temps;
 *   4. launch the kernels with pointer parameters = buffer base + offset and
 *      floating parameters converted from the call's scalars;
 *   5. free the temps, stream-ordered (back to the cache).
 * Driver calls of a warm call with no temps: cuCtxGetCurrent, cuStreamGetId
 * (the cache's stream identity), cuLaunchKernel per kernel.
 * So an error in 1-2 launches nothing and allocates nothing, and an error
 * in 3 frees what was allocated. */
#include "driver/call_memo.h"
#include "driver/checked_math.h"
#include "driver/cublaslt.h"
#include "driver/cuda_loader.h"
#include "driver/device_cache.h"
#include "driver/runtime_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fuser_runtime {
  const fuser_cuda_api *cu;
  int device;
  CUdevice dev;
  CUcontext ctx;
  CUstream stream;
  int has_allocator;
  fuser_allocator allocator;
  int caching; /* device memory through cache (no allocator callback, FUSER_DEVICE_CACHE not 0) */
  fuser_device_cache cache;
};

static int cuda_fail(const fuser_cuda_api *cu, fuser_error *err, CUresult r, const char *what) {
  char text[200];
  return fuser_set_error(err, FUSER_ERR_CUDA, "%s failed: %s", what, fuser_cuda_describe(cu, r, text, sizeof text));
}

int fuser_runtime_create(int device, void *stream, const fuser_allocator *allocator, fuser_runtime **out,
                         fuser_error *err) {
  if (out) *out = NULL;
  if (!out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_runtime_create: out is NULL");
  if (allocator && (!allocator->alloc || !allocator->free))
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "allocator needs both alloc and free callbacks");
  int status;
  char msg[400];
  const fuser_cuda_api *cu = fuser_cuda_get(&status, msg, sizeof msg);
  if (!cu) return fuser_set_error(err, status, "%s", msg);
  int count = 0;
  CUresult r = cu->cuDeviceGetCount(&count);
  if (r) return cuda_fail(cu, err, r, "cuDeviceGetCount");
  if (device < 0 || device >= count)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "CUDA device %d does not exist (%d devices)", device,
                           count);
  fuser_runtime *rt = calloc(1, sizeof *rt);
  if (!rt) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  rt->cu = cu;
  rt->device = device;
  rt->stream = (CUstream)stream;
  if (allocator) {
    rt->has_allocator = 1;
    rt->allocator = *allocator;
  }
  if ((r = cu->cuDeviceGet(&rt->dev, device)) || (r = cu->cuDevicePrimaryCtxRetain(&rt->ctx, rt->dev))) {
    free(rt);
    return cuda_fail(cu, err, r, "getting the device's primary context");
  }
  if ((r = cu->cuCtxSetCurrent(rt->ctx))) {
    cu->cuDevicePrimaryCtxRelease(rt->dev);
    free(rt);
    return cuda_fail(cu, err, r, "cuCtxSetCurrent");
  }
  if (!allocator) {
    /* cuMemAllocAsync draws on the device's default pool, which by default
     * gives memory back to the OS at every synchronisation (threshold 0), so
     * the next call would map fresh memory. Keep freed memory cached, as a
     * framework's caching allocator does. Best effort: a failure only costs
     * speed. */
    CUmemoryPool pool;
    uint64_t keep = UINT64_MAX;
    if (cu->cuDeviceGetDefaultMemPool(&pool, rt->dev) == FUSER_CUDA_SUCCESS)
      cu->cuMemPoolSetAttribute(pool, FUSER_CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
    const char *env = getenv("FUSER_DEVICE_CACHE");
    rt->caching = !(env && !strcmp(env, "0"));
    if (rt->caching) fuser_device_cache_init(&rt->cache, cu, rt->ctx);
  }
  *out = rt;
  fuser_clear_error(err);
  return FUSER_OK;
}

void fuser_runtime_set_stream(fuser_runtime *rt, void *stream) {
  if (rt) rt->stream = (CUstream)stream;
}
void *fuser_runtime_stream(const fuser_runtime *rt) { return rt ? (void *)rt->stream : NULL; }
void *fuser_runtime_context(const fuser_runtime *rt) { return rt ? (void *)rt->ctx : NULL; }

/* Makes the runtime's context current on this thread if it is not. */
static int ensure_context(fuser_runtime *rt, fuser_error *err) {
  CUcontext cur = NULL;
  rt->cu->cuCtxGetCurrent(&cur);
  if (cur == rt->ctx) return FUSER_OK;
  CUresult r = rt->cu->cuCtxSetCurrent(rt->ctx);
  return r ? cuda_fail(rt->cu, err, r, "cuCtxSetCurrent") : FUSER_OK;
}

void fuser_runtime_destroy(fuser_runtime *rt) {
  if (!rt) return;
  if (rt->caching) {
    fuser_error ignored;
    if (ensure_context(rt, &ignored) == FUSER_OK) fuser_device_cache_destroy(&rt->cache);
  }
  rt->cu->cuDevicePrimaryCtxRelease(rt->dev);
  free(rt);
}

void fuser_runtime_cache_stats(fuser_runtime *rt, fuser_device_cache_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!rt || !rt->caching) return;
  pthread_mutex_lock(&rt->cache.lock);
  *out = rt->cache.stats;
  pthread_mutex_unlock(&rt->cache.lock);
}

int fuser_runtime_empty_cache(fuser_runtime *rt, fuser_error *err) {
  if (!rt) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_runtime_empty_cache: NULL runtime");
  if (!rt->caching) return FUSER_OK;
  int rc = ensure_context(rt, err);
  if (rc) return rc;
  CUresult r = fuser_device_cache_trim(&rt->cache);
  return r ? cuda_fail(rt->cu, err, r, "giving cached device memory back") : FUSER_OK;
}

/* ---- module cache --------------------------------------------------------- */

typedef struct cache_entry {
  struct cache_entry *next;
  CUcontext ctx;
  int format;
  size_t size;
  uint8_t *image; /* own copy, to compare bytes exactly */
  CUmodule module;
  int refs;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache_head;

static int cache_acquire(fuser_runtime *rt, const fuser_module *m, size_t index, cache_entry **out,
                         fuser_error *err) {
  pthread_mutex_lock(&cache_lock);
  for (cache_entry *e = cache_head; e; e = e->next) {
    if (e->ctx == rt->ctx && e->format == m->format && e->size == m->size && !memcmp(e->image, m->image, m->size)) {
      e->refs++;
      *out = e;
      pthread_mutex_unlock(&cache_lock);
      return FUSER_OK;
    }
  }
  cache_entry *e = calloc(1, sizeof *e);
  uint8_t *copy = malloc(m->size);
  if (!e || !copy) {
    pthread_mutex_unlock(&cache_lock);
    free(e);
    free(copy);
    return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  }
  memcpy(copy, m->image, m->size);
  char log[2048] = {0};
  int options[2] = {FUSER_CU_JIT_ERROR_LOG_BUFFER, FUSER_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[2] = {log, (void *)(uintptr_t)sizeof log};
  /* image[size] is a NUL the artifact keeps, as PTX loading needs. */
  CUresult r = rt->cu->cuModuleLoadDataEx(&e->module, m->image, 2, options, values);
  if (r) {
    pthread_mutex_unlock(&cache_lock);
    free(e);
    free(copy);
    char text[200];
    log[sizeof log - 1] = 0;
    return fuser_set_error(err, FUSER_ERR_CUDA, "loading module %zu (%s) failed: %s%s%s", index,
                           m->format == FUSER_MODULE_PTX ? "ptx" : "cubin",
                           fuser_cuda_describe(rt->cu, r, text, sizeof text), log[0] ? "; JIT log: " : "", log);
  }
  e->ctx = rt->ctx;
  e->format = m->format;
  e->size = m->size;
  e->image = copy;
  e->refs = 1;
  e->next = cache_head;
  cache_head = e;
  *out = e;
  pthread_mutex_unlock(&cache_lock);
  return FUSER_OK;
}

static void cache_release(const fuser_cuda_api *cu, cache_entry *entry) {
  pthread_mutex_lock(&cache_lock);
  if (--entry->refs == 0) {
    for (cache_entry **p = &cache_head; *p; p = &(*p)->next)
      if (*p == entry) {
        *p = entry->next;
        break;
      }
    cu->cuModuleUnload(entry->module);
    free(entry->image);
    free(entry);
  }
  pthread_mutex_unlock(&cache_lock);
}

/* ---- loading ---------------------------------------------------------------- */

struct fuser_function {
  fuser_runtime *rt;
  fuser_artifact *a;
  cache_entry **modules;
  size_t *first;         /* index of kernel k's variant 0 in functions */
  CUfunction *functions; /* all variants of all kernels */
  int *registers;
  fuser_call_memo memo;  /* the last call's plan, by signature */
};

void fuser_function_destroy(fuser_function *fn) {
  if (!fn) return;
  if (fn->modules)
    for (size_t m = 0; m < fn->a->nmodules; m++)
      if (fn->modules[m]) cache_release(fn->rt->cu, fn->modules[m]);
  free(fn->modules);
  free(fn->first);
  free(fn->functions);
  free(fn->registers);
  fuser_call_memo_free(&fn->memo);
  fuser_artifact_release(fn->a);
  free(fn);
}

int fuser_load(fuser_runtime *rt, fuser_artifact *a, fuser_function **out, fuser_error *err) {
  if (out) *out = NULL;
  if (!rt || !a || !out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_load: NULL argument");
  int rc = ensure_context(rt, err);
  if (rc) return rc;
  fuser_function *fn = calloc(1, sizeof *fn);
  if (!fn) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  fn->rt = rt;
  fn->a = a;
  fuser_artifact_retain(a);
  size_t nfunctions = 0;
  for (size_t k = 0; k < a->nkernels; k++) nfunctions += a->kernels[k].nvariants;
  fn->modules = calloc(a->nmodules ? a->nmodules : 1, sizeof *fn->modules);
  fn->first = calloc(a->nkernels ? a->nkernels : 1, sizeof *fn->first);
  fn->functions = calloc(nfunctions ? nfunctions : 1, sizeof *fn->functions);
  fn->registers = calloc(nfunctions ? nfunctions : 1, sizeof *fn->registers);
  /* a memo that cannot be allocated only costs speed (it stays disabled) */
  fuser_call_memo_init(&fn->memo, a);
  if (!fn->modules || !fn->first || !fn->functions || !fn->registers) {
    fuser_function_destroy(fn);
    return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t m = 0; m < a->nmodules; m++) {
    rc = cache_acquire(rt, &a->modules[m], m, &fn->modules[m], err);
    if (rc) {
      fuser_function_destroy(fn);
      return rc;
    }
  }
  const fuser_cuda_api *cu = rt->cu;
  size_t f = 0;
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    fn->first[k] = f;
    if (kn->kind == FUSER_KERNEL_MATMUL) { /* cuBLASLt runs it: opened here, only for fusions that have one */
      f += kn->nvariants;
      rc = fuser_cublaslt_open(err);
      if (rc) {
        fuser_function_destroy(fn);
        return rc;
      }
      continue;
    }
    for (size_t v = 0; v < kn->nvariants; v++, f++) {
      const fuser_variant *va = &kn->variants[v];
      CUresult r = cu->cuModuleGetFunction(&fn->functions[f], fn->modules[va->module]->module, va->entry);
      char text[200];
      if (r) {
        fuser_function_destroy(fn);
        return fuser_set_error(err, FUSER_ERR_CUDA, "kernel %zu (%s) variant %zu: entry '%s' not found in module %d: %s",
                               k, kn->name, v, va->entry, va->module, fuser_cuda_describe(cu, r, text, sizeof text));
      }
      int max_threads = 0;
      cu->cuFuncGetAttribute(&fn->registers[f], FUSER_CU_FUNC_ATTRIBUTE_NUM_REGS, fn->functions[f]);
      cu->cuFuncGetAttribute(&max_threads, FUSER_CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn->functions[f]);
      unsigned threads = va->block[0] * va->block[1] * va->block[2];
      if (max_threads > 0 && threads > (unsigned)max_threads) {
        fuser_function_destroy(fn);
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                               "kernel %zu (%s) variant %zu (%s): block of %u threads, the compiled entry allows %d",
                               k, kn->name, v, va->entry, threads, max_threads);
      }
      if (va->shared_bytes > 48 * 1024) {
        fuser_function_destroy(fn);
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_INVALID,
                               "kernel %zu (%s) variant %zu: %u bytes of dynamic shared memory; above 48 KiB is "
                               "not supported yet",
                               k, kn->name, v, va->shared_bytes);
      }
    }
  }
  *out = fn;
  fuser_clear_error(err);
  return FUSER_OK;
}

const fuser_artifact *fuser_function_artifact(const fuser_function *fn) { return fn ? fn->a : NULL; }

const fuser_call_memo *fuser_function_memo_(const fuser_function *fn) { return &fn->memo; }

int fuser_function_registers(const fuser_function *fn, size_t kernel, size_t variant) {
  if (!fn || kernel >= fn->a->nkernels || variant >= fn->a->kernels[kernel].nvariants) return -1;
  return fn->registers[fn->first[kernel] + variant];
}

/* ---- execution ---------------------------------------------------------------- */

static int device_alloc(fuser_runtime *rt, CUstream stream, size_t bytes, void **ptr, int *by, fuser_error *err) {
  if (rt->has_allocator) {
    *ptr = NULL;
    if (rt->allocator.alloc(rt->allocator.ctx, bytes, stream, ptr) != 0 || !*ptr)
      return fuser_set_error(err, FUSER_ERR_ALLOCATOR, "the allocator callback failed to allocate %zu bytes", bytes);
    *by = FUSER_ALLOCATED_CALLER;
    return FUSER_OK;
  }
  CUdeviceptr p = 0;
  CUresult r = rt->caching ? fuser_device_cache_alloc(&rt->cache, stream, bytes, &p)
                           : rt->cu->cuMemAllocAsync(&p, bytes, stream);
  if (r) {
    char what[64];
    snprintf(what, sizeof what, "cuMemAllocAsync of %zu bytes", bytes);
    return cuda_fail(rt->cu, err, r, what);
  }
  *ptr = (void *)(uintptr_t)p;
  *by = FUSER_ALLOCATED_RUNTIME;
  return FUSER_OK;
}

static void device_free(fuser_runtime *rt, CUstream stream, void *ptr, size_t bytes, int by) {
  if (!ptr) return;
  if (by == FUSER_ALLOCATED_CALLER) rt->allocator.free(rt->allocator.ctx, ptr, bytes, stream);
  else if (by == FUSER_ALLOCATED_RUNTIME && rt->caching) fuser_device_cache_free(&rt->cache, (CUdeviceptr)(uintptr_t)ptr, stream);
  else if (by == FUSER_ALLOCATED_RUNTIME) rt->cu->cuMemFreeAsync((CUdeviceptr)(uintptr_t)ptr, stream);
}

void fuser_output_release_on(fuser_runtime *rt, fuser_output *out, void *stream) {
  if (!out) return;
  if (out->allocated_by == FUSER_ALLOCATED_HOST) free(out->allocation);
  else if (rt) device_free(rt, (CUstream)stream, out->allocation, out->bytes, out->allocated_by);
  else if (out->allocation) return; /* device memory needs the runtime that made it: keep it, leak rather than crash */
  out->allocation = NULL;
  out->bytes = 0;
  out->allocated_by = FUSER_ALLOCATED_NONE;
}

void fuser_output_release(fuser_runtime *rt, fuser_output *out) {
  fuser_output_release_on(rt, out, rt ? (void *)rt->stream : NULL);
}

/* The deleter of fuser_output_to_managed (dlpack.c): device memory goes
 * back through the runtime that allocated it, ordered on the stream of the
 * call that made it. */
void fuser_runtime_free_device_(fuser_runtime *rt, void *stream, void *ptr, size_t bytes, int allocated_by) {
  if (rt) device_free(rt, (CUstream)stream, ptr, bytes, allocated_by);
}

/* Evaluates e into *v or formats where it failed. */
#define EVAL(e, v, ...)                                                        \
  do {                                                                         \
    int eval_rc_ = fuser_expr_eval((e), args, nargs, (v));                     \
    if (eval_rc_) return fuser_expr_fail_(err, eval_rc_, (e), __VA_ARGS__);    \
  } while (0)

/* Step 2 for outputs: shapes, strides, byte sizes, alias addresses. */
static int plan_outputs(const fuser_artifact *a, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                        fuser_error *err) {
  for (size_t i = 0; i < a->noutputs; i++) {
    const fuser_output_desc *o = &a->outputs[i];
    fuser_output *out = &outputs[i];
    memset(&out->tensor, 0, sizeof out->tensor);
    out->allocation = NULL;
    out->bytes = 0;
    out->allocated_by = 0;
    out->alias_of = -1;
    out->tensor.ndim = o->rank;
    out->tensor.dtype = fuser_type_to_dlpack(o->dtype);
    out->tensor.shape = out->shape;
    out->tensor.strides = out->strides;
    uint64_t numel = 1;
    int overflow = 0;
    for (int d = 0; d < o->rank; d++) {
      EVAL(&o->sizes[d], &out->shape[d], "output %zu size of dim %d", i, d);
      if (out->shape[d] < 0)
        return fuser_set_error(err, FUSER_ERR_EXPRESSION, "output %zu: size of dim %d evaluates to %lld", i, d,
                               (long long)out->shape[d]);
      if (out->shape[d] && numel > UINT64_MAX / (uint64_t)out->shape[d]) overflow = 1;
      numel *= (uint64_t)out->shape[d];
    }
    size_t elem = fuser_type_size(o->dtype);
    if (overflow || numel > (uint64_t)INT64_MAX / elem)
      return fuser_set_error(err, FUSER_ERR_EXPRESSION, "output %zu: element count overflows", i);
    if (o->kind == FUSER_OUTPUT_ALIAS) {
      const DLTensor *in = args[o->input].tensor;
      int64_t offset;
      EVAL(&o->offset, &offset, "output %zu offset", i);
      for (int d = 0; d < o->rank; d++) EVAL(&o->strides[d], &out->strides[d], "output %zu stride of dim %d", i, d);
      int rc = fuser_check_alias_view_(a, i, in, offset, &out->tensor, err);
      if (rc) return rc;
      int64_t byte_offset; /* in range: the view lies inside the input's span */
      if (!fuser_mul_i64(offset, (int64_t)elem, &byte_offset) ||
          !fuser_add_i64((int64_t)in->byte_offset, byte_offset, &byte_offset) || byte_offset < 0)
        return fuser_set_error(err, FUSER_ERR_EXPRESSION, "output %zu: alias offset %lld points before input %d's data",
                               i, (long long)offset, o->input);
      out->tensor.data = in->data;
      out->tensor.byte_offset = (uint64_t)byte_offset;
      out->tensor.device = in->device;
      out->alias_of = o->input;
      continue;
    }
    /* Dense in allocation order: innermost allocation position has stride 1. */
    int64_t stride = 1;
    for (int p = o->rank - 1; p >= 0; p--) {
      int d = o->alloc_order[p];
      out->strides[d] = stride;
      stride *= out->shape[d] ? out->shape[d] : 1;
    }
    out->bytes = (size_t)(numel * elem);
  }
  return FUSER_OK;
}

/* Byte size of one element of the buffer a pointer parameter points into. */
static uint64_t pointer_elem(const fuser_artifact *a, const fuser_param *pa) {
  if (pa->buffer == FUSER_BUFFER_INPUT) return fuser_type_size(a->inputs[pa->index].dtype);
  if (pa->buffer == FUSER_BUFFER_OUTPUT) return fuser_type_size(a->outputs[pa->index].dtype);
  return 1;
}

/* Steps 1-2 from scratch: check the arguments, then evaluate every
 * expression of the call into plan and outputs. */
static int plan_call(const fuser_function *fn, const fuser_arg *args, size_t nargs, fuser_call_plan *plan,
                     fuser_output *outputs, fuser_error *err) {
  const fuser_artifact *a = fn->a;
  int rc = fuser_check_args_(a, args, nargs, fn->rt->device, err);
  if (!rc) rc = fuser_check_call_(a, args, nargs, err);
  if (rc) return rc;
  size_t s = 0;
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    int v;
    rc = fuser_select_variant_(a, k, args, nargs, &v, err);
    if (rc == FUSER_ERR_NO_VARIANT) return fuser_diagnose_mismatch_(a, args, nargs, err);
    if (rc) return rc;
    plan->chosen[k] = (uint16_t)v;
    const fuser_variant *va = &kn->variants[v];
    for (int g = 0; g < 3; g++) {
      int64_t value;
      EVAL(&va->grid[g], &value, "kernel %zu (%s) grid %c", k, kn->name, "xyz"[g]);
      int64_t limit = g == 0 ? INT32_MAX : 65535;
      if (value < 0 || value > limit)
        return fuser_set_error(err, FUSER_ERR_EXPRESSION, "kernel %zu (%s): grid %c = %lld outside 0..%lld", k,
                               kn->name, "xyz"[g], (long long)value, (long long)limit);
      plan->grid[k][g] = (unsigned)value;
    }
    for (size_t p = 0; p < kn->nparams; p++, s++) {
      const fuser_param *pa = &kn->params[p];
      int64_t *slot = &plan->slots[s];
      if (pa->kind == FUSER_PARAM_F32 || pa->kind == FUSER_PARAM_F64) {
        *slot = 0; /* converted from the scalar at launch: doubles are not in the memo's signature */
        continue;
      }
      EVAL(&pa->expr, slot, "kernel %zu (%s) parameter %zu", k, kn->name, p);
      if (pa->kind == FUSER_PARAM_POINTER) {
        *slot = (int64_t)((uint64_t)*slot * pointer_elem(a, pa)); /* element offset -> byte offset */
      } else if (pa->kind == FUSER_PARAM_I32) {
        if (*slot < INT32_MIN || *slot > INT32_MAX)
          return fuser_set_error(err, FUSER_ERR_EXPRESSION, "kernel %zu (%s) parameter %zu: %lld does not fit in i32",
                                 k, kn->name, p, (long long)*slot);
        int32_t v32 = (int32_t)*slot;
        *slot = 0;
        memcpy(slot, &v32, sizeof v32);
      }
    }
  }
  rc = plan_outputs(a, args, nargs, outputs, err);
  if (rc) return rc;
  for (size_t t = 0; t < a->ntemps; t++) {
    int64_t bytes;
    EVAL(&a->temps[t].bytes, &bytes, "temp %zu size", t);
    if (bytes < 0)
      return fuser_set_error(err, FUSER_ERR_EXPRESSION, "temp %zu: size evaluates to %lld", t, (long long)bytes);
    plan->temp_bytes[t] = (size_t)bytes;
  }
  return FUSER_OK;
}

/* Step 4 for a matmul kernel: its evaluated parameters (pointers already
 * absolute) as a cuBLASLt call, with a stream-ordered workspace. */
static int launch_matmul(fuser_runtime *rt, CUstream stream, const fuser_kernel *kn, const int64_t *slot,
                         fuser_error *err) {
  fuser_matmul_call c = {.dtype = kn->mm_dtype, .batch = kn->mm_batch, .has_bias = kn->mm_bias};
  int64_t *value[] = {&c.m, &c.n, &c.k, &c.a_m, &c.a_k, &c.b_k, &c.b_n, &c.d_m, &c.d_n, &c.bias_n};
  for (int i = 0; i < 10; i++) *value[i] = slot[FUSER_MATMUL_P_M + i];
  for (int d = 0; d < c.batch; d++) {
    const int64_t *b = &slot[FUSER_MATMUL_P_BATCH + 4 * d];
    c.batch_size[d] = b[0], c.a_batch[d] = b[1], c.b_batch[d] = b[2], c.d_batch[d] = b[3];
  }
  c.a = (uint64_t)slot[FUSER_MATMUL_P_A];
  c.b = (uint64_t)slot[FUSER_MATMUL_P_B];
  c.d = (uint64_t)slot[FUSER_MATMUL_P_D];
  c.bias = c.has_bias ? (uint64_t)slot[FUSER_MATMUL_P_BATCH + 4 * c.batch] : 0;
  fuser_matmul_plan *plan;
  size_t bytes;
  int rc = fuser_cublaslt_prepare(rt->ctx, &c, kn->name, &plan, &bytes, err);
  void *workspace = NULL;
  int by = 0;
  if (!rc && bytes) rc = device_alloc(rt, stream, bytes, &workspace, &by, err);
  if (!rc) rc = fuser_cublaslt_run(plan, &c, workspace, stream, kn->name, err);
  device_free(rt, stream, workspace, bytes, by);
  fuser_cublaslt_release(plan);
  return rc;
}

/* The first index flag's sites when `stream` is being captured into a CUDA
 * graph, else NULL. A flag is read back after the kernels (a stream
 * synchronisation and a copy to the host), which a capture cannot hold: the
 * synchronisation would fail and invalidate the caller's capture. (A query
 * the driver lacks or that fails: not capturing; the read-back then reports
 * what the driver says.) */
static const char *captured_index_flag(const fuser_function *fn, CUstream stream) {
  const fuser_artifact *a = fn->a;
  const fuser_cuda_api *cu = fn->rt->cu;
  const char *sites = NULL;
  for (size_t t = 0; t < a->ntemps && !sites; t++) sites = a->temps[t].index_sites;
  int status = 0;
  if (!sites || !cu->cuStreamIsCapturing || cu->cuStreamIsCapturing(stream, &status) != FUSER_CUDA_SUCCESS) return NULL;
  return status ? sites : NULL;
}

int fuser_execute(fuser_function *fn, const fuser_arg *args, size_t nargs, fuser_output *outputs, size_t noutputs,
                  fuser_error *err) {
  if (!fn) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_execute: NULL function");
  return fuser_execute_on(fn, (void *)fn->rt->stream, args, nargs, outputs, noutputs, err);
}

int fuser_execute_on(fuser_function *fn, void *stream_arg, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                     size_t noutputs, fuser_error *err) {
  if (!fn) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_execute_on: NULL function");
  fuser_runtime *rt = fn->rt;
  CUstream stream = (CUstream)stream_arg;
  const fuser_artifact *a = fn->a;
  const fuser_cuda_api *cu = rt->cu;
  if (noutputs != a->noutputs || (noutputs && !outputs))
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu outputs given, the fusion has %zu", noutputs,
                           a->noutputs);

  const char *sites = captured_index_flag(fn, stream);
  if (sites) {
    int n = (int)strcspn(sites, "\n");
    return fuser_set_error(err, FUSER_ERR_UNSUPPORTED,
                           "a fusion with index ops (%.*s) cannot be captured into a CUDA graph: its index flag is read "
                           "back after the kernels (docs/runtime.md); run it outside the capture",
                           n, sites);
  }

  /* 1-2. the plan: memoised, or checked and evaluated (nothing allocated yet) */
  fuser_call_plan plan;
  int rc;
  if (nargs != a->ninputs || (nargs && !args) || !fuser_call_memo_lookup(&fn->memo, a, args, &plan, outputs)) {
    rc = plan_call(fn, args, nargs, &plan, outputs, err);
    if (rc) return rc;
    fuser_call_memo_store(&fn->memo, a, args, &plan, outputs);
  }
  int64_t *slots = plan.slots;
  size_t s;
  void *temps[FUSER_MAX_TEMPS] = {0};
  int temp_by[FUSER_MAX_TEMPS] = {0};
  const size_t *temp_bytes = plan.temp_bytes;

  /* 3. allocate */
  rc = ensure_context(rt, err);
  if (rc) return rc;
  for (size_t i = 0; i < a->noutputs && !rc; i++) {
    fuser_output *out = &outputs[i];
    out->stream = stream_arg;
    if (out->alias_of >= 0) continue;
    out->tensor.device.device_type = kDLCUDA;
    out->tensor.device.device_id = rt->device;
    if (out->bytes == 0) continue;
    rc = device_alloc(rt, stream, out->bytes, &out->allocation, &out->allocated_by, err);
    out->tensor.data = out->allocation;
  }
  for (size_t t = 0; t < a->ntemps && !rc; t++) {
    if (!temp_bytes[t]) continue;
    rc = device_alloc(rt, stream, temp_bytes[t], &temps[t], &temp_by[t], err);
    if (!rc && a->temps[t].zero_init) {
      CUresult r = cu->cuMemsetD8Async((CUdeviceptr)(uintptr_t)temps[t], 0, temp_bytes[t], stream);
      if (r) rc = cuda_fail(cu, err, r, "cuMemsetD8Async (zero-initialising a temp)");
    }
  }

  /* 4. launch */
  s = 0;
  for (size_t k = 0; k < a->nkernels && !rc; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    void *params[FUSER_MAX_PARAMS];
    size_t first_slot = s;
    for (size_t p = 0; p < kn->nparams; p++, s++) {
      const fuser_param *pa = &kn->params[p];
      params[p] = &slots[s];
      if (pa->kind == FUSER_PARAM_POINTER) {
        uint64_t base;
        if (pa->buffer == FUSER_BUFFER_INPUT) {
          const DLTensor *t = args[pa->index].tensor;
          base = (uint64_t)(uintptr_t)t->data + t->byte_offset;
        } else if (pa->buffer == FUSER_BUFFER_OUTPUT) {
          const DLTensor *t = &outputs[pa->index].tensor;
          base = (uint64_t)(uintptr_t)t->data + t->byte_offset;
        } else {
          base = (uint64_t)(uintptr_t)temps[pa->index];
        }
        slots[s] = (int64_t)(base + (uint64_t)slots[s]);
      } else if (pa->kind == FUSER_PARAM_F32 || pa->kind == FUSER_PARAM_F64) {
        const fuser_arg *arg = &args[pa->index];
        double d = arg->kind == FUSER_ARG_DOUBLE ? arg->d : (double)arg->i;
        if (pa->kind == FUSER_PARAM_F32) {
          float f = (float)d;
          memcpy(&slots[s], &f, sizeof f);
        } else {
          memcpy(&slots[s], &d, sizeof d);
        }
      }
    }
    if (kn->kind == FUSER_KERNEL_MATMUL) {
      rc = launch_matmul(rt, stream, kn, &slots[first_slot], err);
      continue;
    }
    if (!plan.grid[k][0] || !plan.grid[k][1] || !plan.grid[k][2]) continue; /* nothing to do (empty tensors) */
    const fuser_variant *va = &kn->variants[plan.chosen[k]];
    CUresult r = cu->cuLaunchKernel(fn->functions[fn->first[k] + plan.chosen[k]], plan.grid[k][0], plan.grid[k][1],
                                    plan.grid[k][2], va->block[0], va->block[1], va->block[2], va->shared_bytes,
                                    stream, params, NULL);
    if (r) {
      char what[FUSER_MAX_NAME * 2 + 64];
      snprintf(what, sizeof what, "cuLaunchKernel of kernel %zu (%s, variant %s)", k, kn->name, va->entry);
      rc = cuda_fail(cu, err, r, what);
    }
  }

  /* 4b. index flags (kernels with index_select/gather/take_along_axis): the
   * one synchronisation of such a call, to report an index out of range */
  for (size_t t = 0; t < a->ntemps && !rc; t++) {
    if (!a->temps[t].index_sites || !temps[t]) continue;
    int32_t flag = 0;
    CUresult r = cu->cuStreamSynchronize(stream);
    if (!r) r = cu->cuMemcpyDtoH(&flag, (CUdeviceptr)(uintptr_t)temps[t], sizeof flag);
    if (r) rc = cuda_fail(cu, err, r, "reading an index flag");
    else if (flag) {
      char msg[400];
      fuser_index_flag_message(a->temps[t].index_sites, flag, msg, sizeof msg);
      rc = fuser_set_error(err, FUSER_ERR_INDEX, "%s", msg);
    }
  }

  /* 5. temps go back after the kernels (stream order); outputs too on error */
  for (size_t t = 0; t < a->ntemps; t++) device_free(rt, stream, temps[t], temp_bytes[t], temp_by[t]);
  if (rc) {
    for (size_t i = 0; i < a->noutputs; i++) fuser_output_release_on(rt, &outputs[i], stream_arg);
    return rc;
  }
  if (err && err->code) fuser_clear_error(err);
  return FUSER_OK;
}
