/* unit_libfuser_api.c: libfuser's embedding API (fuser/fuser.h) beyond the
 * cache (unit_libfuser.c): the version queries; a fusion with no runtime
 * and no libcuda (FUSER_CUDA_LIBRARY pointed at a file that does not
 * exist; `nodriver`): compile to an artifact, CPU runs through the public API (values
 * checked, outputs freed and handed on as DLPack managed tensors), inputs
 * from DLPack managed tensors; every diagnostic of a bad fusion; then,
 * against the fake libcuda (`fake LIB`), per-call streams from several threads
 * on one fusion (each stream gets exactly its own launches; the runtime's
 * caching allocator asks the driver once per stream and reuses that block,
 * also when managed outputs return it through their deleter), and a size
 * mismatch between inputs reported as an input mismatch naming them. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/fake_cuda_open.h" /* test/driver */
#include "fuser/fuser.h"
#include "unit.h"


static fuser_error err;

static const char add_neg_script[] =
    "from nvfuser import FusionDefinition, DataType\n"
    "def nvfuser_fusion_id1(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T2 = fd.ops.add(T0, T1)\n"
    "    T3 = fd.ops.neg(T2)\n"
    "    fd.add_output(T3)\n";

typedef struct {
  DLTensor t;
  int64_t shape[2], strides[2];
} tensor2;

static void make2(tensor2 *x, void *data, DLDeviceType dev, int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  memset(x, 0, sizeof *x);
  x->shape[0] = rows, x->shape[1] = cols, x->strides[0] = s0, x->strides[1] = s1;
  x->t.data = data;
  x->t.device = (DLDevice){dev, 0};
  x->t.ndim = 2;
  x->t.dtype = (DLDataType){kDLFloat, 32, 1};
  x->t.shape = x->shape;
  x->t.strides = x->strides;
}

static void test_version(void) {
  CHECK_EQ_INT(fuser_api_version(), FUSER_API_VERSION);
  CHECK(strcmp(fuser_version_string(), FUSER_VERSION_STRING) == 0);
  const char *v = fuser_compiler_version();
  CHECK(strncmp(v, FUSER_VERSION_STRING "+", strlen(FUSER_VERSION_STRING) + 1) == 0);
  printf("compiler version: %s\n", v);
}

/* ---- without libcuda ------------------------------------------------------ */

static float host_a[4 * 8], host_b[4 * 8];

static void test_no_driver(void) {
  fuser_runtime *rt = (fuser_runtime *)1;
  CHECK_EQ_INT(fuser_runtime_create(0, NULL, NULL, &rt, &err), FUSER_ERR_NO_DRIVER);
  CHECK(rt == NULL);
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_NVFUSER, add_neg_script, strlen(add_neg_script), "add.py", NULL, &f, &err),
               FUSER_OK);
  if (!f) return;
  CHECK(fuser_fusion_runtime(f) == NULL);

  /* compile-only: a signature with no memory behind it (data NULL) */
  tensor2 a, b;
  make2(&a, NULL, kDLCUDA, 4, 8, 8, 1);
  make2(&b, NULL, kDLCUDA, 4, 8, 8, 1);
  fuser_arg args[2] = {fuser_arg_tensor(&a.t), fuser_arg_tensor(&b.t)};
  fuser_artifact *art = NULL;
  CHECK_EQ_INT(fuser_fusion_compile_artifact(f, args, 2, &art, &err), FUSER_OK);
  CHECK(art != NULL);
  if (art) {
    CHECK_EQ_INT(fuser_artifact_num_inputs(art), 2);
    CHECK_EQ_INT(fuser_artifact_num_outputs(art), 1);
    CHECK(fuser_artifact_num_kernels(art) >= 1);
    void *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_INT(fuser_artifact_write_bytes(art, &bytes, &size, &err), FUSER_OK);
    CHECK(size > 0);
    free(bytes);
    /* the runtime accepts such inputs for it (no GPU needed to check) */
    a.t.data = b.t.data = (void *)(uintptr_t)0x10000;
    CHECK_EQ_INT(fuser_artifact_check_inputs(art, args, 2, NULL, &err), FUSER_OK);
    if (err.code) fprintf(stderr, "check: %s\n", err.message);
    fuser_artifact_release(art);
  }
  fuser_fusion_stats st;
  fuser_fusion_get_stats(f, &st);
  CHECK_EQ_INT(st.compiles, 1);
  CHECK_EQ_INT(fuser_fusion_entry_function(f, 0) == NULL, 1);
  fuser_output out[1];
  CHECK_EQ_INT(fuser_fusion_execute_on(f, NULL, args, 2, out, 1, &err), FUSER_ERR_NO_DRIVER);

  /* a CPU run through the fallback (no runtime): values checked */
  for (int i = 0; i < 32; i++) host_a[i] = (float)i * 0.5f, host_b[i] = (float)(3 - i);
  make2(&a, host_a, kDLCPU, 4, 8, 8, 1);
  make2(&b, host_b, kDLCPU, 4, 8, 1, 4); /* column-major: any strides */
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_OK);
  if (err.code) fprintf(stderr, "cpu: %s\n", err.message);
  CHECK_EQ_INT(out[0].allocated_by, FUSER_ALLOCATED_HOST);
  CHECK_EQ_INT(out[0].tensor.device.device_type, kDLCPU);
  CHECK_EQ_INT(out[0].tensor.ndim, 2);
  int bad = 0;
  if (out[0].tensor.data)
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 8; c++) {
        const float *o = out[0].tensor.data;
        float got = o[r * out[0].tensor.strides[0] + c * out[0].tensor.strides[1]];
        bad += got != -(host_a[r * 8 + c] + host_b[c * 4 + r]);
      }
  CHECK_EQ_INT(bad, 0);
  fuser_output_release(NULL, &out[0]);
  CHECK(out[0].allocation == NULL);

  /* the same through the explicit entry, outputs handed on as DLPack */
  CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_CPU_REFERENCE, args, 2, out, 1, &err), FUSER_OK);
  DLManagedTensorVersioned *m = NULL;
  CHECK_EQ_INT(fuser_output_to_managed(NULL, &out[0], &m, &err), FUSER_OK);
  CHECK(m != NULL && out[0].allocation == NULL);
  if (m) {
    CHECK_EQ_INT(m->version.major, 1);
    CHECK(m->dl_tensor.shape[0] == 4 && m->dl_tensor.shape[1] == 8);
    CHECK(((const float *)m->dl_tensor.data)[0] == -(host_a[0] + host_b[0]));
    /* a managed tensor is an input too */
    fuser_arg margs[2];
    CHECK_EQ_INT(fuser_arg_from_managed(m, &margs[0], &err), FUSER_OK);
    margs[1] = fuser_arg_tensor(&a.t);
    fuser_output out2[1];
    CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_AUTO, margs, 2, out2, 1, &err), FUSER_OK);
    if (!err.code) {
      CHECK(((const float *)out2[0].tensor.data)[1] == -(((const float *)m->dl_tensor.data)[1] + host_a[1]));
      fuser_output_release(NULL, &out2[0]);
    }
    m->version.major = 2;
    CHECK_EQ_INT(fuser_arg_from_managed(m, &margs[0], &err), FUSER_ERR_INVALID_ARGUMENT);
    CHECK(unit_contains(err.message, "DLPack 2.0"));
    m->deleter(m); /* frees the host buffer and itself (ASan/valgrind check this) */
  }
  CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_GPU, args, 2, out, 1, &err), FUSER_ERR_INVALID_ARGUMENT);

  /* the CPU JIT (the kernels' own loops): the same values as the reference */
  make2(&b, host_b, kDLCPU, 4, 8, 1, 4);
  CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_CPU_JIT, args, 2, out, 1, &err), FUSER_OK);
  if (err.code) fprintf(stderr, "jit: %s\n", err.message);
  bad = 0;
  if (!err.code && out[0].tensor.data) {
    CHECK_EQ_INT(out[0].allocated_by, FUSER_ALLOCATED_HOST);
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 8; c++) {
        const float *o = out[0].tensor.data;
        bad += o[r * out[0].tensor.strides[0] + c * out[0].tensor.strides[1]] != -(host_a[r * 8 + c] + host_b[c * 4 + r]);
      }
    fuser_output_release(NULL, &out[0]);
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(fuser_fusion_compiles(f), 1); /* the JIT's compile is the CPU entry's, not an artifact */

  /* inputs that do not fit together, on the CPU */
  make2(&b, host_b, kDLCPU, 4, 4, 4, 1);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  printf("cpu mismatch: %s\n", err.message);
  /* device memory given to a CPU run */
  make2(&b, host_b, kDLCUDA, 4, 8, 8, 1);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "host memory"));
  fuser_fusion_get_stats(f, &st);
  CHECK_EQ_INT(st.cpu_runs, 4);
  fuser_fusion_destroy(f);
}

/* The CPU JIT as the fallback (options.cpu_backend), on a fusion with a
 * scalar and an alias output (a view of the input), on a strided input. */
static float host_x[6 * 16];

static void test_cpu_jit(void) {
  const char *script =
      "def nvfuser_fusion_id5(fd : FusionDefinition) -> None :\n"
      "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
      "    S1 = fd.define_scalar(None, dtype=DataType.Double)\n"
      "    T2 = fd.ops.mul(T0, S1)\n"
      "    T3 = fd.ops.permute(T0, dims=[1, 0])\n"
      "    fd.add_output(T2)\n"
      "    fd.add_output(T3)\n";
  fuser_fusion_options o = {0};
  o.cpu_backend = FUSER_BACKEND_CPU_JIT;
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_NVFUSER, script, strlen(script), "jit.py", &o, &f, &err), FUSER_OK);
  if (!f) {
    fprintf(stderr, "create: %s\n", err.message);
    return;
  }
  CHECK_EQ_INT(fuser_fusion_input_kind(f, 0), FUSER_ARG_TENSOR);
  CHECK_EQ_INT(fuser_fusion_input_kind(f, 1), FUSER_ARG_DOUBLE);
  CHECK_EQ_INT(fuser_fusion_input_kind(f, 2), 0);
  for (int i = 0; i < 6 * 16; i++) host_x[i] = (float)i - 40.0f;
  tensor2 x;
  make2(&x, host_x, kDLCPU, 6, 8, 16, 1); /* every other row of a 6x16 buffer's first half: strided */
  fuser_arg args[2] = {fuser_arg_tensor(&x.t), fuser_arg_double(0.25)};
  fuser_output out[2];
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 2, &err), FUSER_OK);
  if (err.code) {
    fprintf(stderr, "jit: %s\n", err.message);
  } else {
    int bad = 0;
    const float *y = out[0].tensor.data;
    for (int r = 0; r < 6; r++)
      for (int c = 0; c < 8; c++) bad += y[r * out[0].tensor.strides[0] + c * out[0].tensor.strides[1]] != host_x[r * 16 + c] * 0.25f;
    CHECK_EQ_INT(bad, 0);
    /* the permute is a view of the input, on the CPU as on the GPU */
    CHECK_EQ_INT(out[1].alias_of, 0);
    CHECK(out[1].tensor.data == host_x && out[1].allocation == NULL);
    CHECK(out[1].tensor.shape[0] == 8 && out[1].tensor.shape[1] == 6);
    CHECK(out[1].tensor.strides[0] == 1 && out[1].tensor.strides[1] == 16);
    fuser_output_release(NULL, &out[0]);
    fuser_output_release(NULL, &out[1]);
  }
  fuser_fusion_stats st;
  fuser_fusion_get_stats(f, &st);
  CHECK_EQ_INT(st.cpu_runs, 1);
  fuser_fusion_destroy(f);
}

/* A plan with no kernels (the output a view of the input) still checks
 * what its view relies on: a reshape of `?x?` into [4, 8] needs 32
 * elements. The CPU JIT ran it on an 8 x 8 input and returned the first 32
 * elements (the checks rode on kernels' variants), where the reference
 * refuses; a 4 x 8 input is the view itself. */
static float host_r[8 * 8];

static void test_cpu_jit_view_checks(void) {
  const char *script =
      "def reshape_view(fd : FusionDefinition) -> None :\n"
      "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)\n"
      "    T1 = fd.ops.reshape(T0, new_shape=[4, 8])\n"
      "    fd.add_output(T1)\n";
  fuser_fusion_options o = {0};
  o.cpu_backend = FUSER_BACKEND_CPU_JIT;
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_NVFUSER, script, strlen(script), "view.py", &o, &f, &err), FUSER_OK);
  if (!f) {
    fprintf(stderr, "create: %s\n", err.message);
    return;
  }
  tensor2 x;
  make2(&x, host_r, kDLCPU, 8, 8, 8, 1);
  fuser_arg args[1] = {fuser_arg_tensor(&x.t)};
  fuser_output out[1];
  CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_CPU_JIT, args, 1, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input check failed: `(size(0, 0) * size(0, 1)) == 32` (view.py:3:10: reshape keeps the element count)"));
  CHECK(unit_contains(err.message, "view.py:3:10: reshape keeps the element count"));
  printf("8 x 8 into [4, 8]: %s\n", err.message);
  make2(&x, host_r, kDLCPU, 4, 8, 8, 1);
  CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_CPU_JIT, args, 1, out, 1, &err), FUSER_OK);
  if (!err.code) {
    CHECK(out[0].alias_of == 0 && out[0].tensor.data == host_r);
    fuser_output_release(NULL, &out[0]);
  }
  fuser_fusion_destroy(f);
}

/* Every diagnostic, each with its location. */
static void test_all_diagnostics(void) {
  const char *bad =
      "module {\n"
      "  func.func @f(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> tensor<?xf32> attributes {fuser.fusion} {\n"
      "    %0 = \"fuser.add\"(%a, %b) : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?xf32>\n"
      "    %1 = \"fuser.neg\"(%b) : (tensor<?x?xf32>) -> tensor<?xf64>\n"
      "    return %0 : tensor<?xf32>\n"
      "  }\n"
      "}\n";
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, bad, strlen(bad), "two.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "two.mlir:3:10: error: 'fuser.add' op operand ranks differ"));
  CHECK(unit_contains(err.message, "\ntwo.mlir:4:10: error: 'fuser.neg' op result #0 has type"));
  const char *syntax = "module {\n  %0 = foo\n  %1 = bar\n}\n";
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, syntax, strlen(syntax), "s.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "s.mlir:2:"));
}

/* MLIR sources pass the screen every tool's input passes (issue 17, C8:
 * `array<index>` crashed libMLIR's parser), and a parser failure without a
 * diagnostic still gets a located error. The buffers are not NUL-terminated
 * at `len`. */
static void test_screened_mlir(void) {
  fuser_error err;
  fuser_fusion *f = NULL;
  const char index_array[] = "module attributes {fuser.x = array<index: 1>} {}\nTRAILING";
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, index_array, sizeof index_array - 10, "idx.mlir", NULL, &f, &err),
               FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "idx.mlir:1:36: error: a dense array of 'index' elements is not supported (use i64)"));
  char deep[3000];
  memset(deep, '[', sizeof deep);
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, deep, sizeof deep, "deep.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "deep.mlir:1:1001: error: brackets nested deeper than 1000 levels"));
  const char silent[] = "func.func @f(%a: tensor<2xf32>)fuser.stride -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n";
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, silent, sizeof silent - 1, "silent.mlir", NULL, &f, &err),
               FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "silent.mlir:1:32: error: fuser ops print and parse in generic form: \"fuser.stride\""));
  const char nul[] = "module {\n  \0 }";
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, nul, sizeof nul - 1, "nul.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "nul.mlir:2:3: error: unexpected NUL byte"));
}

/* ---- against the fake libcuda -------------------------------------------- */

static fake_state *fake;
static char device_memory[1 << 16] __attribute__((aligned(256)));

typedef struct {
  fuser_fusion *f;
  fuser_runtime *rt;
  void *stream;
  int calls, failures;
} stream_job;

/* Calls on one stream, releasing half of the outputs directly and handing
 * the other half on as managed tensors (freed by their deleter). */
static void *on_stream(void *p) {
  stream_job *job = p;
  tensor2 a, b;
  make2(&a, device_memory, kDLCUDA, 4, 32, 32, 1);
  make2(&b, device_memory + 4096, kDLCUDA, 4, 32, 32, 1);
  fuser_arg args[2] = {fuser_arg_tensor(&a.t), fuser_arg_tensor(&b.t)};
  fuser_error e;
  for (int i = 0; i < job->calls; i++) {
    fuser_output out[1];
    if (fuser_fusion_execute_on(job->f, job->stream, args, 2, out, 1, &e) != FUSER_OK || out[0].stream != job->stream) {
      job->failures++;
      continue;
    }
    if (i % 2) {
      fuser_output_release_on(job->rt, &out[0], job->stream);
    } else {
      DLManagedTensorVersioned *m;
      if (fuser_output_to_managed(job->rt, &out[0], &m, &e) != FUSER_OK) {
        job->failures++;
        continue;
      }
      m->deleter(m);
    }
  }
  return NULL;
}

static void test_streams(void) {
  fuser_runtime *rt = NULL;
  if (fuser_runtime_create(0, (void *)(uintptr_t)15, NULL, &rt, &err) != FUSER_OK) {
    fprintf(stderr, "runtime: %s\n", err.message);
    CHECK(0);
    return;
  }
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, add_neg_script, strlen(add_neg_script), "add.py", NULL, &f, &err),
               FUSER_OK);
  if (!f) return;
  enum { T = 4, CALLS = 200 };
  memset(fake->stream_launches, 0, sizeof fake->stream_launches);
  memset(fake->stream_allocs, 0, sizeof fake->stream_allocs);
  memset(fake->stream_frees, 0, sizeof fake->stream_frees);
  pthread_t th[T];
  stream_job jobs[T];
  for (int t = 0; t < T; t++) {
    jobs[t] = (stream_job){f, rt, (void *)(uintptr_t)(t + 1), CALLS, 0};
    pthread_create(&th[t], NULL, on_stream, &jobs[t]);
  }
  for (int t = 0; t < T; t++) {
    pthread_join(th[t], NULL);
    CHECK_EQ_INT(jobs[t].failures, 0);
  }
  int kernels = (int)fuser_artifact_num_kernels(fuser_fusion_entry_artifact(f, 0));
  for (int t = 1; t <= T; t++) {
    CHECK_EQ_INT(fake->stream_launches[t], CALLS * kernels);
    CHECK_EQ_INT(fake->stream_allocs[t], 1); /* the first call's block, then reused */
    CHECK_EQ_INT(fake->stream_frees[t], 0);  /* kept by the cache */
  }
  fuser_device_cache_stats cs;
  fuser_runtime_cache_stats(rt, &cs);
  CHECK_EQ_INT(cs.misses, T);
  CHECK_EQ_INT(cs.hits, T * (CALLS - 1));
  CHECK_EQ_INT(cs.idle_blocks, T);
  /* the runtime's own stream (15) saw nothing */
  CHECK_EQ_INT(fake->stream_launches[15], 0);
  CHECK(fuser_runtime_stream(rt) == (void *)(uintptr_t)15);
  CHECK_EQ_INT(fuser_fusion_compiles(f), 1);
  CHECK_EQ_INT(fuser_fusion_hits(f), T * CALLS - 1);

  /* the plain entry still runs on the runtime's stream */
  tensor2 a, b;
  make2(&a, device_memory, kDLCUDA, 4, 32, 32, 1);
  make2(&b, device_memory + 4096, kDLCUDA, 4, 32, 32, 1);
  fuser_arg args[2] = {fuser_arg_tensor(&a.t), fuser_arg_tensor(&b.t)};
  fuser_output out[1];
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_OK);
  CHECK(out[0].stream == (void *)(uintptr_t)15);
  CHECK_EQ_INT(fake->stream_launches[15], kernels);
  fuser_output_release(rt, &out[0]);
  CHECK_EQ_INT(fake->stream_allocs[15], 1);
  fuser_runtime_cache_stats(rt, &cs);
  CHECK_EQ_INT(cs.idle_blocks, T + 1);
  CHECK_EQ_INT(fuser_runtime_empty_cache(rt, &err), FUSER_OK);
  CHECK_EQ_INT(fake->stream_frees[0], T + 1); /* after a context sync, on the legacy stream */
  fuser_runtime_cache_stats(rt, &cs);
  CHECK_EQ_INT(cs.idle_blocks, 0);

  /* a size mismatch between the inputs: an input mismatch naming both */
  make2(&b, device_memory + 4096, kDLCUDA, 4, 16, 16, 1);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "inputs 0"));
  CHECK(unit_contains(err.message, "dim 1 of input 1 has size 16"));
  CHECK(unit_contains(err.message, "dim 1 of input 0 has size 32"));
  printf("gpu mismatch: %s\n", err.message);
  make2(&b, device_memory + 4096, kDLCUDA, 2, 32, 32, 1);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "dim 0 of input 1 has size 2"));
  fuser_fusion_destroy(f);
  fuser_runtime_destroy(rt);
}

/* The runtime opens its driver once per process, so the two halves run as
 * two processes (two ctest tests): `nodriver` and `fake FAKE_LIBCUDA`. */
int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "nodriver") == 0) {
    setenv("FUSER_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    test_version();
    test_no_driver();
    test_cpu_jit();
    test_cpu_jit_view_checks();
    test_all_diagnostics();
    test_screened_mlir();
    UNIT_MAIN_END();
  }
  if (argc < 3 || strcmp(argv[1], "fake") != 0) {
    fprintf(stderr, "usage: unit_libfuser_api nodriver | fake FAKE_LIBCUDA\n");
    return 2;
  }
  if (!(fake = fake_cuda_open(argv[2]))) return 2;
  test_streams();
  UNIT_MAIN_END();
}
