/* example_artifact.h: artifacts the runtime tests share, built through the
 * compiler's builder API, and DLTensor helpers (fake device pointers: the
 * CPU-side checks never dereference them). */
#ifndef FUSER_TEST_DRIVER_EXAMPLE_ARTIFACT_H
#define FUSER_TEST_DRIVER_EXAMPLE_ARTIFACT_H

#include "driver/artifact_builder.h"

#include <string.h>

/* Not real PTX (the CPU tests never JIT it); the "entry NAME NPARAMS"
 * comments tell test/driver/fake_cuda.c which kernels the module has. */
static const char example_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n// entry add_vec4 4\n// entry add_scalar 4\n";

/* out0 = in0 + in1 (f32, rank 2, [-1, -1], row-major contiguous), out1 = a
 * view of in0 from element scalar(2) on, kernel "add" with a vec4 variant
 * (needs both inputs 16-byte aligned and the inner size % 4 == 0) and, when
 * with_fallback, a scalar fallback. Input 2 is an i64 scalar. */
static inline fuser_artifact *example_add_artifact(int with_fallback, fuser_error *err) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "T0", FUSER_DTYPE_F32, 2, sizes, contig, NULL);
  fuser_builder_add_tensor_input(b, "T1", FUSER_DTYPE_F32, 2, sizes, contig, NULL);
  fuser_builder_add_scalar_input(b, "S2", FUSER_DTYPE_I64);
  const char *osz[2] = {"size(0, 0)", "size(0, 1)"};
  fuser_builder_add_output(b, FUSER_DTYPE_F32, 2, osz, NULL);
  const char *vsz[1] = {"size(0, 0) * size(0, 1) - scalar(2)"};
  const char *vst[1] = {"1"};
  fuser_builder_add_alias_output(b, 0, 1, "scalar(2)", vsz, vst);
  int k = fuser_builder_add_kernel(b, "add");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I64, "size(0, 0) * size(0, 1)");
  const char *vec[3] = {"addr(0) % 16 == 0", "addr(input 1) % 16 == 0", "size(0, 1) % 4 == 0"};
  fuser_builder_add_variant(b, k, m, "add_vec4", "ceildiv(size(0, 0) * size(0, 1) / 4, 256)", 256, 3, vec);
  if (with_fallback)
    fuser_builder_add_variant(b, k, m, "add_scalar", "ceildiv(size(0, 0) * size(0, 1), 256)", 256, 0, NULL);
  fuser_builder_set_metadata(b, "fusion", "replaced", 8);
  fuser_builder_set_metadata(b, "fusion", "add_test", 8);
  static const uint8_t blob[4] = {0, 1, 2, 0xff};
  fuser_builder_set_metadata(b, "blob", blob, sizeof blob);
  fuser_artifact *a = NULL;
  fuser_builder_finish(b, &a, err);
  return a;
}

/* A kDLCUDA device-0 f32 tensor over caller-owned shape/strides arrays. */
static inline DLTensor example_tensor(void *data, int ndim, int64_t *shape, int64_t *strides) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCUDA;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  return t;
}

#endif
