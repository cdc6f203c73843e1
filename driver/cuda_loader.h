/* cuda_loader.h: the CUDA driver API, opened at run time.
 *
 * The runtime must build and run its CPU tests where there is no GPU and no
 * CUDA toolkit, so it never includes cuda.h and never links libcuda: it
 * declares the few driver types it uses here (their ABI is stable: opaque
 * handles, int enums, 64-bit device pointers) and fills a table of function
 * pointers with dlopen("libcuda.so.1") + dlsym. Where the library is absent
 * every entry point that needs it returns FUSER_ERR_NO_DRIVER with the message
 * "no CUDA driver (libcuda.so.1 not found)", never a crash.
 *
 * The environment variable FUSER_CUDA_LIBRARY names another file to open
 * (tests use it to simulate a missing or broken driver). */
#ifndef FUSER_DRIVER_CUDA_LOADER_H
#define FUSER_DRIVER_CUDA_LOADER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUmemPoolHandle_st *CUmemoryPool;

enum {
  FUSER_CUDA_SUCCESS = 0,
  /* CUjit_option values (cuda.h) */
  FUSER_CU_JIT_ERROR_LOG_BUFFER = 5,
  FUSER_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  /* CUfunction_attribute values */
  FUSER_CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  FUSER_CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  /* CUdevice_attribute values */
  FUSER_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  /* CUstreamCaptureMode */
  FUSER_CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
  FUSER_CU_STREAM_CAPTURE_MODE_RELAXED = 2,
  FUSER_CU_STREAM_NON_BLOCKING = 1,
  /* CUmemPool_attribute */
  FUSER_CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
};

/* One pointer per driver entry point, named like the driver's function
 * (without the _v2 suffixes the driver exports under). Every entry is
 * required except those marked optional. */
typedef struct fuser_cuda_api {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
  CUresult (*cuDeviceGetAttribute)(int *value, int attrib, CUdevice dev);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
  CUresult (*cuCtxSetCurrent)(CUcontext ctx);
  CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
  CUresult (*cuCtxSynchronize)(void);
  CUresult (*cuModuleLoadDataEx)(CUmodule *mod, const void *image, unsigned num_options,
                                 int *options, void **option_values);
  CUresult (*cuModuleUnload)(CUmodule mod);
  CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
  CUresult (*cuFuncGetAttribute)(int *value, int attrib, CUfunction fn);
  CUresult (*cuLaunchKernel)(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuMemAllocAsync)(CUdeviceptr *ptr, size_t bytes, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr ptr, CUstream stream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *pool, CUdevice dev);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool pool, int attr, void *value);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t n, CUstream stream);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
  CUresult (*cuStreamBeginCapture)(CUstream stream, int mode);
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *exec, CUgraph graph,
                                          unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphDestroy)(CUgraph graph);
  CUresult (*cuGetErrorName)(CUresult err, const char **name);
  CUresult (*cuGetErrorString)(CUresult err, const char **text);
  /* optional (NULL where the driver lacks it) */
  CUresult (*cuStreamGetId)(CUstream stream, unsigned long long *id);
  /* status: 0 none, 1 active, 2 invalidated (CUstreamCaptureStatus) */
  CUresult (*cuStreamIsCapturing)(CUstream stream, int *status);
} fuser_cuda_api;

/* Opens `path` and resolves every entry point into *api. Returns 0, or a
 * fuser_status code (FUSER_ERR_NO_DRIVER) with a message in msg. Does not
 * call cuInit. Not cached: tests call it with bad paths. */
int fuser_cuda_open(const char *path, fuser_cuda_api *api, char *msg, size_t msg_size);

/* The process-wide driver table: opened and cuInit'ed once (thread-safe),
 * from $FUSER_CUDA_LIBRARY or "libcuda.so.1". On failure returns NULL and
 * copies the reason (same every call) into msg; *status gets the code. */
const fuser_cuda_api *fuser_cuda_get(int *status, char *msg, size_t msg_size);

/* "CUDA_ERROR_X: text" for a driver result, into buf. */
const char *fuser_cuda_describe(const fuser_cuda_api *api, CUresult r, char *buf, size_t size);

#endif
