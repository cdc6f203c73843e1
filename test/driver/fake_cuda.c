/* fake_cuda.c: a stand-in for libcuda.so.1 so that the runtime's GPU path
 * (create, load, execute, release) runs in CPU tests. The runtime opens it
 * through FUSER_CUDA_LIBRARY. "Device" memory is host memory, launches are
 * recorded (function, grid, block, raw parameter bytes) instead of run, and
 * failures can be injected. The test reads and steers it through
 * fake_cuda_state (dlsym on the same library).
 *
 * A fake module image is text: one line "entry NAME NPARAMS [MAXTHREADS]"
 * per kernel (NPARAMS tells the fake how many parameters to record); an
 * image containing FAIL_JIT fails to load with a JIT log. Real PTX loads too:
 * each ".entry NAME(" is a kernel with as many parameters as ".param"
 * declarations before its ")", so benchmarks and tests can run the
 * compiler's own artifacts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

typedef int CUresult;

/* Entries kept per module: a plan of many kernels (a 10,000-op chain cut
 * every 1,000 ops by fuser-segment's op budget) has dozens. */
#define FAKE_MAX_FUNCTIONS 256

typedef struct fake_function {
  char name[64];
  int nparams;
  int max_threads;
} fake_function;

typedef struct fake_module {
  int nfunctions;
  fake_function functions[FAKE_MAX_FUNCTIONS];
} fake_module;

fake_state fake_cuda_state;

#define PRIMARY_CTX ((void *)(uintptr_t)0xc0111e47)

CUresult cuInit(unsigned flags) { return 0; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return 0; }
CUresult cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return 0; }
CUresult cuDeviceGetAttribute(int *value, int attrib, int dev) { *value = 132; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = PRIMARY_CTX; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { return 0; }
CUresult cuCtxSetCurrent(void *ctx) { fake_cuda_state.current_ctx = ctx; return 0; }
CUresult cuCtxGetCurrent(void **ctx) { *ctx = fake_cuda_state.current_ctx; return 0; }
CUresult cuCtxSynchronize(void) {
  __atomic_fetch_add(&fake_cuda_state.ctx_syncs, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&fake_cuda_state.htod_unordered, 0, __ATOMIC_RELAXED);
  return 0;
}

/* The legacy default stream: NULL or CU_STREAM_LEGACY (0x1). */
static int is_legacy_stream(void *stream) { return stream == NULL || stream == (void *)(uintptr_t)1; }

__attribute__((destructor)) static void report_at_exit(void) {
  const char *r = getenv("FAKE_CUDA_REPORT");
  if (r && *r == '1')
    fprintf(stderr, "fake_cuda: %d launches, %d on a non-legacy stream with a cuMemcpyHtoD not yet synchronized\n",
            fake_cuda_state.nlaunches, fake_cuda_state.racing_launches);
}
/* A stream's id: its handle, shifted by the generation (a test bumps it to
 * stand for streams destroyed and created again under the same handles). */
CUresult cuStreamGetId(void *stream, unsigned long long *id) {
  __atomic_fetch_add(&fake_cuda_state.stream_id_calls, 1, __ATOMIC_RELAXED);
  if (fake_cuda_state.no_stream_id) return 1; /* CUDA_ERROR_INVALID_VALUE */
  *id = (unsigned long long)(uintptr_t)stream + ((unsigned long long)fake_cuda_state.stream_generation << 32);
  return 0;
}

/* 1 (CU_STREAM_CAPTURE_STATUS_ACTIVE) for the stream a test marks as capturing. */
CUresult cuStreamIsCapturing(void *stream, int *status) {
  if (fake_cuda_state.no_capture_query) return 1;
  *status = stream && stream == fake_cuda_state.capturing_stream;
  return 0;
}

/* A PTX ".entry NAME(.param ..., .param ...)": 1 if parsed into f. */
static int ptx_entry(const char *p, fake_function *f) {
  while (*p == ' ') p++;
  size_t n = strcspn(p, "( \t\n");
  const char *close = strchr(p, ')');
  if (n == 0 || n >= sizeof f->name || !close) return 0;
  memcpy(f->name, p, n);
  f->name[n] = 0;
  f->nparams = 0;
  for (const char *q = p; (q = strstr(q, ".param")) != NULL && q < close; q += 6) f->nparams++;
  return 1;
}

CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *options, void **values) {
  const char *text = image;
  if (strstr(text, "FAIL_JIT")) {
    for (unsigned i = 0; i < n; i++)
      if (options[i] == 5) snprintf(values[i], 64, "fake JIT log: line 1: syntax error");
    return 218; /* CUDA_ERROR_INVALID_PTX */
  }
  fake_module *m = calloc(1, sizeof *m);
  const char *p = text;
  while ((p = strstr(p, "entry ")) != NULL && m->nfunctions < FAKE_MAX_FUNCTIONS) {
    fake_function *f = &m->functions[m->nfunctions];
    f->max_threads = 1024;
    if (p > text && p[-1] == '.') {
      m->nfunctions += ptx_entry(p + 6, f);
    } else if (sscanf(p, "entry %63s %d %d", f->name, &f->nparams, &f->max_threads) >= 2) {
      m->nfunctions++;
    }
    p += 6;
  }
  fake_cuda_state.module_loads++;
  *mod = m;
  return 0;
}

CUresult cuModuleUnload(void *mod) {
  fake_cuda_state.module_unloads++;
  free(mod);
  return 0;
}

CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
  fake_module *m = mod;
  for (int i = 0; i < m->nfunctions; i++)
    if (!strcmp(m->functions[i].name, name)) {
      *fn = &m->functions[i];
      return 0;
    }
  return 500; /* CUDA_ERROR_NOT_FOUND */
}

CUresult cuFuncGetAttribute(int *value, int attrib, void *fn) {
  fake_function *f = fn;
  *value = attrib == 4 ? 42 : attrib == 0 ? f->max_threads : 0;
  return 0;
}

/* The per-stream counter slot of a fake CUstream. */
static int stream_slot(void *stream) {
  uintptr_t s = (uintptr_t)stream;
  return s >= 1 && s <= FAKE_MAX_STREAMS ? (int)s : 0;
}

CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
  fake_function *f = fn;
  if (!strncmp(f->name, "fail_launch", 11)) return 719; /* CUDA_ERROR_LAUNCH_FAILED */
  if (!is_legacy_stream(stream) && __atomic_load_n(&fake_cuda_state.htod_unordered, __ATOMIC_RELAXED) > 0)
    __atomic_fetch_add(&fake_cuda_state.racing_launches, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&fake_cuda_state.stream_launches[stream_slot(stream)], 1, __ATOMIC_RELAXED);
  /* a slot taken atomically: launches may come from several threads */
  int slot = __atomic_fetch_add(&fake_cuda_state.nlaunches, 1, __ATOMIC_RELAXED);
  if (slot >= FAKE_MAX_LAUNCHES) {
    __atomic_store_n(&fake_cuda_state.nlaunches, FAKE_MAX_LAUNCHES, __ATOMIC_RELAXED);
    return 0;
  }
  fake_launch *l = &fake_cuda_state.launches[slot];
  snprintf(l->name, sizeof l->name, "%s", f->name);
  l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = gz;
  l->block[0] = bx, l->block[1] = by, l->block[2] = bz;
  l->shared = shared;
  l->stream = stream;
  l->nparams = f->nparams < FAKE_MAX_PARAMS ? f->nparams : FAKE_MAX_PARAMS;
  for (int i = 0; i < l->nparams; i++) memcpy(&l->params[i], params[i], 8);
  return 0;
}

/* The fake device has 16 GiB, like a real one it refuses more (found by
 * fuzz_artifact: a corrupted artifact's output size reached 2^57 bytes) */
#define FAKE_DEVICE_BYTES ((size_t)1 << 34)

CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  if (bytes > FAKE_DEVICE_BYTES) return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  void *p = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p) return 2;
  *ptr = (uint64_t)(uintptr_t)p;
  return 0;
}
CUresult cuMemFree_v2(uint64_t ptr) {
  free((void *)(uintptr_t)ptr);
  return 0;
}
CUresult cuMemAllocAsync(uint64_t *ptr, size_t bytes, void *stream) {
  if (fake_cuda_state.fail_alloc_above && bytes > fake_cuda_state.fail_alloc_above) return 2; /* OUT_OF_MEMORY */
  __atomic_fetch_add(&fake_cuda_state.allocs, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&fake_cuda_state.stream_allocs[stream_slot(stream)], 1, __ATOMIC_RELAXED);
  return cuMemAlloc_v2(ptr, bytes);
}
CUresult cuMemFreeAsync(uint64_t ptr, void *stream) {
  __atomic_fetch_add(&fake_cuda_state.frees, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&fake_cuda_state.stream_frees[stream_slot(stream)], 1, __ATOMIC_RELAXED);
  return cuMemFree_v2(ptr);
}
CUresult cuDeviceGetDefaultMemPool(void **pool, int dev) { *pool = NULL; return 0; }
CUresult cuMemPoolSetAttribute(void *pool, int attr, void *value) { return 0; }
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) {
  memcpy((void *)(uintptr_t)dst, src, n);
  __atomic_fetch_add(&fake_cuda_state.htod_unordered, 1, __ATOMIC_RELAXED);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) { memcpy(dst, (void *)(uintptr_t)src, n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t n, void *s) {
  memcpy((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
  return 0;
}
CUresult cuMemsetD8Async(uint64_t dst, unsigned char v, size_t n, void *s) {
  fake_cuda_state.memsets++;
  fake_cuda_state.last_memset_bytes = n;
  memset((void *)(uintptr_t)dst, v, n);
  return 0;
}
CUresult cuStreamCreate(void **s, unsigned flags) { *s = (void *)(uintptr_t)0x5157; return 0; }
CUresult cuStreamDestroy_v2(void *s) { return 0; }
CUresult cuStreamSynchronize(void *s) {
  if (is_legacy_stream(s)) __atomic_store_n(&fake_cuda_state.htod_unordered, 0, __ATOMIC_RELAXED);
  return 0;
}
CUresult cuEventCreate(void **e, unsigned flags) { *e = (void *)(uintptr_t)0xe1; return 0; }
CUresult cuEventDestroy_v2(void *e) { return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { *ms = 0; return 0; }
CUresult cuStreamBeginCapture_v2(void *s, int mode) { return 0; }
CUresult cuStreamEndCapture(void *s, void **g) { *g = NULL; return 0; }
CUresult cuGraphInstantiateWithFlags(void **e, void *g, unsigned long long f) { *e = NULL; return 0; }
CUresult cuGraphLaunch(void *e, void *s) { return 0; }
CUresult cuGraphExecDestroy(void *e) { return 0; }
CUresult cuGraphDestroy(void *g) { return 0; }
CUresult cuGetErrorName(CUresult r, const char **name) { *name = "CUDA_ERROR_FAKE"; return 0; }
CUresult cuGetErrorString(CUresult r, const char **text) { *text = "fake failure"; return 0; }
