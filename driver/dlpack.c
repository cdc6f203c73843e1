/* dlpack.c: DLPack 1.0 managed tensors at the edges of a call
 * (fuser_runtime.h): inputs borrowed from a DLManagedTensorVersioned, and
 * outputs handed over as one, whose deleter frees the memory through the
 * allocator that made it.
 *
 * A managed output is one malloc'd block: the DLManagedTensorVersioned, then
 * what its deleter needs (runtime, stream, allocation, who allocated it),
 * then the shape and strides arrays its dl_tensor points to. */
#include "driver/error.h"

#include <stdlib.h>
#include <string.h>

/* runtime.c: returns device memory as fuser_output_release_on would. */
void fuser_runtime_free_device_(fuser_runtime *rt, void *stream, void *ptr, size_t bytes, int allocated_by);

typedef struct managed_output {
  DLManagedTensorVersioned managed; /* first: the deleter gets its address */
  fuser_runtime *rt;
  void *stream;
  void *allocation;
  size_t bytes;
  int allocated_by;
  int64_t shape[FUSER_TENSOR_MAX_RANK];
  int64_t strides[FUSER_TENSOR_MAX_RANK];
} managed_output;

int fuser_arg_from_managed(const DLManagedTensorVersioned *m, fuser_arg *out, fuser_error *err) {
  if (!m || !out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_arg_from_managed: NULL argument");
  if (m->version.major != DLPACK_MAJOR_VERSION)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT,
                           "DLManagedTensorVersioned of DLPack %u.%u: this library reads major version %d", m->version.major,
                           m->version.minor, DLPACK_MAJOR_VERSION);
  *out = fuser_arg_tensor(&m->dl_tensor);
  fuser_clear_error(err);
  return FUSER_OK;
}

static void delete_managed(DLManagedTensorVersioned *self) {
  if (!self) return;
  managed_output *m = (managed_output *)self;
  if (m->allocated_by == FUSER_ALLOCATED_HOST) free(m->allocation);
  else if (m->allocation) fuser_runtime_free_device_(m->rt, m->stream, m->allocation, m->bytes, m->allocated_by);
  free(m);
}

int fuser_output_to_managed(fuser_runtime *rt, fuser_output *out, DLManagedTensorVersioned **managed,
                            fuser_error *err) {
  if (managed) *managed = NULL;
  if (!out || !managed) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_output_to_managed: NULL argument");
  if (out->tensor.ndim < 0 || out->tensor.ndim > FUSER_TENSOR_MAX_RANK)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_output_to_managed: rank %d", out->tensor.ndim);
  if (out->allocation && out->allocated_by != FUSER_ALLOCATED_HOST && !rt)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT,
                           "fuser_output_to_managed: a device output needs the runtime that allocated it");
  managed_output *m = calloc(1, sizeof *m);
  if (!m) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory for a managed tensor");
  m->managed.version.major = DLPACK_MAJOR_VERSION;
  m->managed.version.minor = DLPACK_MINOR_VERSION;
  m->managed.manager_ctx = m;
  m->managed.deleter = delete_managed;
  m->managed.dl_tensor = out->tensor;
  int rank = out->tensor.ndim;
  if (rank && out->tensor.shape) memcpy(m->shape, out->tensor.shape, (size_t)rank * sizeof *m->shape);
  if (rank && out->tensor.strides) memcpy(m->strides, out->tensor.strides, (size_t)rank * sizeof *m->strides);
  m->managed.dl_tensor.shape = m->shape;
  m->managed.dl_tensor.strides = out->tensor.strides ? m->strides : NULL;
  m->rt = rt;
  m->stream = out->stream;
  m->allocation = out->allocation;
  m->bytes = out->bytes;
  m->allocated_by = out->allocated_by;
  /* the managed tensor owns the memory now */
  out->allocation = NULL;
  out->bytes = 0;
  out->allocated_by = FUSER_ALLOCATED_NONE;
  *managed = &m->managed;
  fuser_clear_error(err);
  return FUSER_OK;
}
