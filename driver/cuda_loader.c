/* cuda_loader.c: dlopen the CUDA driver and resolve its entry points
 * (cuda_loader.h). The driver exports some functions only under versioned
 * names (cuMemAlloc_v2, ...); each entry lists the names to try in order. */
#include "driver/cuda_loader.h"
#include "driver/fuser_runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  size_t offset;        /* of the pointer in fuser_cuda_api */
  const char *names[3]; /* exported names, preferred first */
  int optional;         /* absent in older drivers: the pointer stays NULL */
} entry;

#define E(field, ...) {offsetof(fuser_cuda_api, field), {__VA_ARGS__}, 0}
#define E_OPTIONAL(field, name) {offsetof(fuser_cuda_api, field), {name}, 1}
static const entry entries[] = {
    E(cuInit, "cuInit"),
    E(cuDeviceGetCount, "cuDeviceGetCount"),
    E(cuDeviceGet, "cuDeviceGet"),
    E(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
    E(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    E(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"),
    E(cuCtxSetCurrent, "cuCtxSetCurrent"),
    E(cuCtxGetCurrent, "cuCtxGetCurrent"),
    E(cuCtxSynchronize, "cuCtxSynchronize"),
    E(cuModuleLoadDataEx, "cuModuleLoadDataEx"),
    E(cuModuleUnload, "cuModuleUnload"),
    E(cuModuleGetFunction, "cuModuleGetFunction"),
    E(cuFuncGetAttribute, "cuFuncGetAttribute"),
    E(cuLaunchKernel, "cuLaunchKernel"),
    E(cuMemAlloc, "cuMemAlloc_v2"),
    E(cuMemFree, "cuMemFree_v2"),
    E(cuMemAllocAsync, "cuMemAllocAsync"),
    E(cuMemFreeAsync, "cuMemFreeAsync"),
    E(cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool"),
    E(cuMemPoolSetAttribute, "cuMemPoolSetAttribute"),
    E(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
    E(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
    E(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
    E(cuMemsetD8Async, "cuMemsetD8Async"),
    E(cuStreamCreate, "cuStreamCreate"),
    E(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy"),
    E(cuStreamSynchronize, "cuStreamSynchronize"),
    E(cuEventCreate, "cuEventCreate"),
    E(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy"),
    E(cuEventRecord, "cuEventRecord"),
    E(cuEventSynchronize, "cuEventSynchronize"),
    E(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
    E(cuStreamBeginCapture, "cuStreamBeginCapture_v2", "cuStreamBeginCapture"),
    E(cuStreamEndCapture, "cuStreamEndCapture"),
    E(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"),
    E(cuGraphLaunch, "cuGraphLaunch"),
    E(cuGraphExecDestroy, "cuGraphExecDestroy"),
    E(cuGraphDestroy, "cuGraphDestroy"),
    E(cuGetErrorName, "cuGetErrorName"),
    E(cuGetErrorString, "cuGetErrorString"),
    E_OPTIONAL(cuStreamGetId, "cuStreamGetId"), /* CUDA 12.0 */
    E_OPTIONAL(cuStreamIsCapturing, "cuStreamIsCapturing"), /* CUDA 10.0: no graphs before it */
};
#undef E

int fuser_cuda_open(const char *path, fuser_cuda_api *api, char *msg, size_t msg_size) {
  memset(api, 0, sizeof *api);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(msg, msg_size, "no CUDA driver (%s not found)%s%s", path, why ? ": " : "", why ? why : "");
    return FUSER_ERR_NO_DRIVER;
  }
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
    void *fn = NULL;
    for (int n = 0; n < 3 && entries[i].names[n] && !fn; n++) fn = dlsym(lib, entries[i].names[n]);
    if (!fn && entries[i].optional) continue;
    if (!fn) {
      snprintf(msg, msg_size, "no CUDA driver (%s lacks %s: driver too old or not libcuda)", path,
               entries[i].names[0]);
      dlclose(lib);
      memset(api, 0, sizeof *api);
      return FUSER_ERR_NO_DRIVER;
    }
    memcpy((char *)api + entries[i].offset, &fn, sizeof fn);
  }
  /* The library stays open for the life of the process, like the driver's
   * own users expect (contexts hold references into it). */
  return FUSER_OK;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static fuser_cuda_api global_api;
static int global_status;
static char global_msg[400];

static void open_global(void) {
  const char *path = getenv("FUSER_CUDA_LIBRARY");
  if (!path || !*path) path = "libcuda.so.1";
  global_status = fuser_cuda_open(path, &global_api, global_msg, sizeof global_msg);
  if (global_status) return;
  CUresult r = global_api.cuInit(0);
  if (r != FUSER_CUDA_SUCCESS) {
    char text[200];
    snprintf(global_msg, sizeof global_msg, "cuInit failed: %s (no usable GPU?)",
             fuser_cuda_describe(&global_api, r, text, sizeof text));
    global_status = FUSER_ERR_CUDA;
  }
}

const fuser_cuda_api *fuser_cuda_get(int *status, char *msg, size_t msg_size) {
  pthread_once(&once, open_global);
  if (status) *status = global_status;
  if (global_status) {
    if (msg && msg_size) snprintf(msg, msg_size, "%s", global_msg);
    return NULL;
  }
  return &global_api;
}

const char *fuser_cuda_describe(const fuser_cuda_api *api, CUresult r, char *buf, size_t size) {
  const char *name = NULL, *text = NULL;
  if (api && api->cuGetErrorName) api->cuGetErrorName(r, &name);
  if (api && api->cuGetErrorString) api->cuGetErrorString(r, &text);
  snprintf(buf, size, "%s (%d): %s", name ? name : "CUDA error", (int)r, text ? text : "unknown");
  return buf;
}
