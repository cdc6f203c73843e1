/* fake_cuda_open.h: how the C tests reach test/driver/fake_cuda.c (the
 * stand-in libcuda.so.1 given on their command line): point the runtime at
 * it (FUSER_CUDA_LIBRARY) and open the same library to read what it
 * records. dlopen of the path the runtime opens gives the same instance, so
 * either may come first. */
#ifndef FUSER_TEST_DRIVER_FAKE_CUDA_OPEN_H
#define FUSER_TEST_DRIVER_FAKE_CUDA_OPEN_H

#include "fake_cuda.h"

#include "../../driver/fuser_runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The fake's state, with later runtimes opening it; NULL (and a message)
 * when `path` has none. */
static inline fake_state *fake_cuda_open(const char *path) {
  setenv("FUSER_CUDA_LIBRARY", path, 1);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  fake_state *s = lib ? dlsym(lib, "fake_cuda_state") : NULL;
  if (!s) fprintf(stderr, "cannot reach fake_cuda_state in %s\n", path);
  return s;
}

/* fake_cuda_open, then a runtime on device 0 queuing on `stream` with the
 * runtime's caching allocator off (FUSER_DEVICE_CACHE=0), so that every
 * allocation and free is a driver call the fake counts. NULL (and a
 * message) on failure. */
static inline fake_state *fake_cuda_runtime(const char *path, void *stream, fuser_runtime **rt) {
  fake_state *s = fake_cuda_open(path);
  if (!s) return NULL;
  setenv("FUSER_DEVICE_CACHE", "0", 1);
  fuser_error err;
  if (fuser_runtime_create(0, stream, NULL, rt, &err) != FUSER_OK) {
    fprintf(stderr, "runtime: %s\n", err.message);
    return NULL;
  }
  return s;
}

#endif
