/* unit_loader.c: the runtime without a usable CUDA driver. A missing
 * libcuda.so.1, or a library that lacks the driver's entry points, must give
 * FUSER_ERR_NO_DRIVER and a clear message from every call that needs the GPU,
 * never a crash. FUSER_CUDA_LIBRARY points the loader at a path that cannot
 * exist, so the test means the same on a machine with a GPU. */
#include "driver/cuda_loader.h"
#include "example_artifact.h"
#include "unit.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_open(void) {
  fuser_cuda_api api;
  char msg[400];
  CHECK_EQ_INT(fuser_cuda_open("/nonexistent/libcuda.so.1", &api, msg, sizeof msg), FUSER_ERR_NO_DRIVER);
  CHECK(unit_contains(msg, "no CUDA driver (/nonexistent/libcuda.so.1 not found)"));
  CHECK(api.cuInit == NULL);
  /* a real library that is not the driver: the first missing entry point is named */
  CHECK_EQ_INT(fuser_cuda_open("libc.so.6", &api, msg, sizeof msg), FUSER_ERR_NO_DRIVER);
  CHECK(unit_contains(msg, "no CUDA driver (libc.so.6 lacks cuInit"));
  CHECK(api.cuLaunchKernel == NULL);
  /* the default name, where this machine has no driver (the CPU test machines) */
  void *probe = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!probe) {
    CHECK_EQ_INT(fuser_cuda_open("libcuda.so.1", &api, msg, sizeof msg), FUSER_ERR_NO_DRIVER);
    CHECK(strncmp(msg, "no CUDA driver (libcuda.so.1 not found)", 39) == 0);
  } else {
    dlclose(probe);
  }
}

static void test_runtime_without_driver(void) {
  setenv("FUSER_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
  fuser_runtime *rt = (fuser_runtime *)1;
  fuser_error err;
  CHECK_EQ_INT(fuser_runtime_create(0, NULL, NULL, &rt, &err), FUSER_ERR_NO_DRIVER);
  CHECK(rt == NULL);
  CHECK_EQ_INT(err.code, FUSER_ERR_NO_DRIVER);
  CHECK(unit_contains(err.message, "no CUDA driver (/nonexistent/libcuda.so.1 not found)"));
  CHECK(strcmp(fuser_status_name(err.code), "FUSER_ERR_NO_DRIVER") == 0);
  /* the answer is cached and stays the same */
  CHECK_EQ_INT(fuser_runtime_create(0, NULL, NULL, &rt, &err), FUSER_ERR_NO_DRIVER);
  CHECK(unit_contains(err.message, "no CUDA driver"));
  /* GPU entry points given no runtime answer with an error, not a crash */
  fuser_artifact *a = example_add_artifact(1, &err);
  fuser_function *fn = (fuser_function *)1;
  CHECK_EQ_INT(fuser_load(NULL, a, &fn, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(fn == NULL);
  CHECK_EQ_INT(fuser_execute(NULL, NULL, 0, NULL, 0, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "NULL function"));
  fuser_output_release(NULL, NULL);
  fuser_function_destroy(NULL);
  fuser_runtime_destroy(NULL);
  /* a half-given allocator is refused before the driver is touched */
  fuser_allocator half = {NULL, NULL, NULL};
  CHECK_EQ_INT(fuser_runtime_create(0, NULL, &half, &rt, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "allocator needs both alloc and free"));
  fuser_artifact_release(a);
}

int main(void) {
  test_open();
  test_runtime_without_driver();
  UNIT_MAIN_END();
}
