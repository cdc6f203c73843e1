/* unit_libfuser.c: libfuser (libfuser/fuser.h) on CPU, against the fake
 * libcuda (test/driver/fake_cuda.c, argv[1], through FUSER_CUDA_LIBRARY):
 * the first call compiles and launches, a second call with the same
 * signature (other pointers, other extents) hits without compiling or
 * loading, a different alignment / stride order / dtype compiles a new
 * entry whose artifact accepts those inputs (and the first entry's does
 * not), bad inputs and bad sources give error codes and messages, and the
 * seed fusions and a corpus script (argv[2], the corpus; skipped when
 * absent) compile and run through it on their own inputs. It also times a
 * cache hit (the host cost of the lookup) and prints it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/host_inputs.h"
#include "libfuser/fuser.h"
#include "unit.h"

#include "driver/fake_cuda_open.h" /* test/driver: the fake's state */

static fake_state *fake;
static fuser_runtime *rt;
static fuser_error err;

static const char add_script[] =
    "from nvfuser import FusionDefinition, DataType\n"
    "def nvfuser_fusion_id1(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T2 = fd.ops.add(T0, T1)\n"
    "    T3 = fd.ops.neg(T2)\n"
    "    fd.add_output(T3)\n"
    "with FusionDefinition() as fd:\n"
    "    nvfuser_fusion_id1(fd)\n";

static const char scale_script[] =
    "from nvfuser import FusionDefinition, DataType\n"
    "def nvfuser_fusion_id2(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])\n"
    "    S1 = fd.define_scalar(None, dtype=DataType.Double)\n"
    "    T2 = fd.ops.mul(T0, S1)\n"
    "    fd.add_output(T2)\n";

static const char bcast_script[] =
    "def nvfuser_fusion_id3(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T1 = fd.ops.neg(T0)\n"
    "    fd.add_output(T1)\n";

/* a cat whose second operand may be empty (the seed's (2, 16, 1024, 0) input) */
static const char cat_script[] =
    "def nvfuser_fusion_id4(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T2 = fd.ops.neg(T0)\n"
    "    T3 = fd.ops.cat([T2, T1], dim=-1)\n"
    "    fd.add_output(T3)\n"
    "with FusionDefinition() as fd:\n"
    "    nvfuser_fusion_id4(fd)\n"
    "inputs = [\n"
    "    torch.randn((64,), dtype=torch.float32, device='cuda:0').as_strided((4, 16), (16, 1)),\n"
    "    torch.randn((0,), dtype=torch.float32, device='cuda:0').as_strided((4, 0), (16, 1)),\n"
    "]\n";

/* A 2-D device tensor (the fake's device memory is host memory). */
typedef struct {
  DLTensor t;
  int64_t shape[2], strides[2];
} tensor2;

static char storage[1 << 16] __attribute__((aligned(256)));

static void make2(tensor2 *x, int code, int bits, int64_t rows, int64_t cols, int64_t s0, int64_t s1, size_t byte_offset) {
  memset(x, 0, sizeof *x);
  x->shape[0] = rows, x->shape[1] = cols, x->strides[0] = s0, x->strides[1] = s1;
  x->t.data = storage;
  x->t.byte_offset = byte_offset;
  x->t.device = (DLDevice){kDLCUDA, 0};
  x->t.ndim = 2;
  x->t.dtype = (DLDataType){(uint8_t)code, (uint8_t)bits, 1};
  x->t.shape = x->shape;
  x->t.strides = x->strides;
}

static int run(fuser_fusion *f, const DLTensor *a, const DLTensor *b) {
  fuser_arg args[2] = {fuser_arg_tensor(a), fuser_arg_tensor(b)};
  fuser_output out[1];
  int rc = fuser_fusion_execute(f, args, 2, out, 1, &err);
  if (rc == FUSER_OK) fuser_output_release(rt, &out[0]);
  else fprintf(stderr, "execute: %s\n", err.message);
  return rc;
}

static void test_cache(void) {
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, add_script, strlen(add_script), "add.py", NULL, &f, &err), FUSER_OK);
  if (!f) {
    fprintf(stderr, "create: %s\n", err.message);
    return;
  }
  CHECK_EQ_INT(fuser_fusion_num_inputs(f), 2);
  CHECK_EQ_INT(fuser_fusion_num_outputs(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 0);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), -1);
  CHECK(fuser_fusion_example_inputs(f) == NULL); /* the script has no inputs block */

  /* first call: compiles, loads one module, launches */
  tensor2 a, b;
  make2(&a, kDLFloat, 32, 8, 64, 64, 1, 0);
  make2(&b, kDLFloat, 32, 8, 64, 64, 1, 4096);
  int loads = fake->module_loads, launches = fake->nlaunches;
  CHECK_EQ_INT(run(f, &a.t, &b.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  CHECK(fake->module_loads > loads); /* one module per kernel variant set */
  CHECK(fake->nlaunches > launches);
  CHECK(fuser_fusion_entry_artifact(f, 0) != NULL);
  CHECK(fuser_fusion_entry_function(f, 0) != NULL);
  CHECK(fuser_fusion_entry_compile_ms(f, 0) > 0);
  CHECK(fuser_fusion_entry_artifact(f, 1) == NULL);

  /* same signature, other extents and other (equally aligned) pointers: a hit */
  make2(&a, kDLFloat, 32, 4, 32, 32, 1, 512);
  make2(&b, kDLFloat, 32, 4, 32, 32, 1, 8192);
  loads = fake->module_loads, launches = fake->nlaunches;
  CHECK_EQ_INT(run(f, &a.t, &b.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  CHECK_EQ_INT(fake->module_loads, loads);
  CHECK(fake->nlaunches > launches);
  CHECK_EQ_INT(fuser_fusion_hits(f), 1);
  CHECK_EQ_INT(fuser_fusion_compiles(f), 1);

  /* another alignment class (a 4-byte aligned pointer): a new entry */
  make2(&a, kDLFloat, 32, 4, 32, 32, 1, 4);
  CHECK_EQ_INT(run(f, &a.t, &b.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 2);
  CHECK_EQ_INT(run(f, &a.t, &b.t), FUSER_OK); /* and it is cached */
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);

  /* another stride order (a transposed, column-major input): a new entry,
   * compiled for that layout: its artifact accepts the input, the first
   * entry's (row-major) does not */
  make2(&a, kDLFloat, 32, 4, 32, 1, 4, 0);
  CHECK_EQ_INT(run(f, &a.t, &b.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 3);
  fuser_arg args[2] = {fuser_arg_tensor(&a.t), fuser_arg_tensor(&b.t)};
  CHECK_EQ_INT(fuser_artifact_check_inputs(fuser_fusion_entry_artifact(f, 2), args, 2, NULL, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_artifact_check_inputs(fuser_fusion_entry_artifact(f, 0), args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);

  /* another dtype (bf16 where the script says Float): a new entry, retyped;
   * add promotes bf16 to f32, so the output is f32 */
  make2(&a, kDLBfloat, 16, 4, 32, 32, 1, 0);
  make2(&b, kDLBfloat, 16, 4, 32, 32, 1, 1024);
  fuser_output out[1];
  args[0] = fuser_arg_tensor(&a.t), args[1] = fuser_arg_tensor(&b.t);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 4);
  CHECK_EQ_INT(out[0].tensor.dtype.code, kDLFloat);
  CHECK_EQ_INT(out[0].tensor.dtype.bits, 32);
  CHECK_EQ_INT(out[0].tensor.shape[1], 32);
  fuser_output_release(rt, &out[0]);

  /* bad inputs: an error code and a message, nothing cached */
  tensor2 c;
  make2(&c, kDLFloat, 32, 4, 32, 32, 1, 0);
  c.t.ndim = 1;
  args[0] = fuser_arg_tensor(&c.t), args[1] = fuser_arg_tensor(&b.t);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0: rank 1, the fusion defines rank 2"));
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), -1);
  make2(&c, kDLFloat, 32, 4, 32, -32, 1, 4096);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0: negative stride -32 of dim 0"));
  make2(&c, kDLUInt, 8, 4, 32, 32, 1, 0);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0: dtype (code 1, 8 bits, 1 lanes) is not one the compiler supports"));
  args[0] = fuser_arg_int(3);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0: expected a tensor, got a scalar"));
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 1, out, 1, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "1 arguments given, the fusion takes 2"));
  args[0] = fuser_arg_tensor(NULL);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0: NULL DLTensor"));
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 4);
  fuser_fusion_destroy(f);
}

/* Scalar values are parameters, not part of the key; an int for a double
 * scalar hits the same entry (the runtime converts it). */
/* FUSER_SPECIALIZE_SMALL: a call under FUSER_SMALL_CALL_BYTES gets an entry
 * per shape (its extents compiled as constants), a larger one an entry per
 * layout class. Compiles only: the large tensors' bytes are never read. */
static int compile2(fuser_fusion *f, const tensor2 *a, const tensor2 *b) {
  fuser_arg args[2] = {fuser_arg_tensor(&a->t), fuser_arg_tensor(&b->t)};
  return fuser_fusion_compile(f, args, 2, NULL, &err);
}

static void test_specialize_small(void) {
  fuser_fusion_options o = {.specialize_sizes = FUSER_SPECIALIZE_SMALL};
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, add_script, strlen(add_script), "add.py", &o, &f, &err), FUSER_OK);
  if (!f) return;
  tensor2 a, b;
  make2(&a, kDLFloat, 32, 8, 64, 64, 1, 0);
  make2(&b, kDLFloat, 32, 8, 64, 64, 1, 4096);
  CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  make2(&a, kDLFloat, 32, 4, 32, 32, 1, 0); /* another small shape, the same layout class: a new entry */
  make2(&b, kDLFloat, 32, 4, 32, 32, 1, 4096);
  CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 2);
  CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK); /* the same shape again: a hit */
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 2);
  /* 2 x 2048 x 1024 floats (16 MiB): one entry for every large shape */
  make2(&a, kDLFloat, 32, 2048, 1024, 1024, 1, 0);
  make2(&b, kDLFloat, 32, 2048, 1024, 1024, 1, 4096);
  CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 3);
  make2(&a, kDLFloat, 32, 1024, 2048, 2048, 1, 0);
  make2(&b, kDLFloat, 32, 1024, 2048, 2048, 1, 4096);
  CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 3);
  /* just under the threshold: sized again */
  make2(&a, kDLFloat, 32, 511, 1024, 1024, 1, 0); /* 2 x 511 x 1024 x 4 bytes < 4 MiB */
  make2(&b, kDLFloat, 32, 511, 1024, 1024, 1, 4096);
  CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 4);
  /* 30 more small shapes: sized entries up to FUSER_SMALL_SHAPES_MAX (3 so far),
   * then the layout class's entry (the large calls') serves them */
  for (int64_t r = 1; r <= 30; r++) {
    make2(&a, kDLFloat, 32, r, 16, 16, 1, 0);
    make2(&b, kDLFloat, 32, r, 16, 16, 1, 4096);
    CHECK_EQ_INT(compile2(f, &a, &b), FUSER_OK);
  }
  CHECK_EQ_INT(fuser_fusion_num_entries(f), FUSER_SMALL_SHAPES_MAX + 1);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);
  fuser_fusion_destroy(f);
}

static void test_scalars(void) {
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, scale_script, strlen(scale_script), "scale.py", NULL, &f, &err), FUSER_OK);
  if (!f) return;
  int64_t shape[1] = {256};
  DLTensor t = {.data = storage, .device = {kDLCUDA, 0}, .ndim = 1, .dtype = {kDLFloat, 32, 1}, .shape = shape};
  fuser_arg args[2] = {fuser_arg_tensor(&t), fuser_arg_double(2.0)};
  fuser_output out[1];
  for (int i = 0; i < 3; i++) {
    if (i == 1) args[1] = fuser_arg_double(-7.5);
    if (i == 2) args[1] = fuser_arg_int(3);
    CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_OK);
    if (err.code == FUSER_OK) fuser_output_release(rt, &out[0]);
    else fprintf(stderr, "scalars: %s\n", err.message);
    CHECK_EQ_INT(fuser_fusion_last_compiled(f), i == 0);
  }
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  args[1] = fuser_arg_tensor(&t);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1: expected a scalar, got a tensor"));
  fuser_fusion_destroy(f);
}

/* Empty extents are part of the key and pinned in the compile (nvFuser
 * concretizes them): an empty cat operand gets its own entry, whose
 * artifact declares that extent 0; a non-empty one another entry that keeps
 * it symbolic, whatever the script's example inputs said. */
static void test_empty_extents(void) {
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, cat_script, strlen(cat_script), "cat.py", NULL, &f, &err), FUSER_OK);
  if (!f) return;
  tensor2 a, empty, full;
  make2(&a, kDLFloat, 32, 4, 16, 16, 1, 0);
  make2(&empty, kDLFloat, 32, 4, 0, 16, 1, 0);
  make2(&full, kDLFloat, 32, 4, 8, 8, 1, 0);
  CHECK_EQ_INT(run(f, &a.t, &empty.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(run(f, &a.t, &full.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK_EQ_INT(run(f, &a.t, &empty.t), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 2);
  for (size_t e = 0; e < 2 && fuser_fusion_num_entries(f) == 2; e++) {
    const fuser_artifact *art = fuser_fusion_entry_artifact(f, e);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    fuser_artifact_describe(art, m);
    fclose(m);
    /* entry 0 was compiled for the empty operand, entry 1 for the full one */
    CHECK(unit_contains(text, e == 0 ? "input 1 arg1: tensor f32 rank 2 sizes [-1, 0]" : "input 1 arg1: tensor f32 rank 2 sizes [-1, -1]"));
    free(text);
  }
  fuser_fusion_destroy(f);
}

/* A static extent of the definition (a broadcast dim, extent 1) must match. */
static void test_static_extent(void) {
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, bcast_script, strlen(bcast_script), "bcast.py", NULL, &f, &err), FUSER_OK);
  if (!f) return;
  tensor2 a;
  make2(&a, kDLFloat, 32, 1, 64, 64, 1, 0);
  fuser_arg args[1] = {fuser_arg_tensor(&a.t)};
  CHECK_EQ_INT(fuser_fusion_compile(f, args, 1, NULL, &err), FUSER_OK);
  make2(&a, kDLFloat, 32, 5, 64, 64, 1, 0);
  CHECK_EQ_INT(fuser_fusion_compile(f, args, 1, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 0: size 5 of dim 0, the fusion defines it as 1"));
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  fuser_fusion_destroy(f);
}

/* Several threads calling with three signatures at once: each signature is
 * compiled exactly once (a racing miss finds the other's entry under the
 * lock), every call gets an entry. Calls are fuser_fusion_compile: the fake
 * driver's launch log is not thread-safe. */
typedef struct {
  fuser_fusion *f;
  int failures;
} thread_job;

static void *hammer(void *p) {
  thread_job *job = p;
  tensor2 a[3], b;
  make2(&a[0], kDLFloat, 32, 4, 32, 32, 1, 0);
  make2(&a[1], kDLFloat, 32, 4, 32, 1, 4, 0);
  make2(&a[2], kDLFloat, 32, 4, 32, 32, 1, 8);
  make2(&b, kDLFloat, 32, 4, 32, 32, 1, 0);
  fuser_error e = {0};
  for (int i = 0; i < 300; i++) {
    fuser_arg args[2] = {fuser_arg_tensor(&a[i % 3].t), fuser_arg_tensor(&b.t)};
    size_t entry = 99;
    if (fuser_fusion_compile(job->f, args, 2, &entry, &e) != FUSER_OK || entry > 2) job->failures++;
  }
  return NULL;
}

static void test_threads(void) {
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, add_script, strlen(add_script), "add.py", NULL, &f, &err), FUSER_OK);
  if (!f) return;
  enum { T = 4 };
  pthread_t th[T];
  thread_job jobs[T];
  for (int t = 0; t < T; t++) {
    jobs[t] = (thread_job){f, 0};
    pthread_create(&th[t], NULL, hammer, &jobs[t]);
  }
  for (int t = 0; t < T; t++) {
    pthread_join(th[t], NULL);
    CHECK_EQ_INT(jobs[t].failures, 0);
  }
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 3);
  CHECK_EQ_INT(fuser_fusion_compiles(f), 3);
  CHECK_EQ_INT(fuser_fusion_hits(f), T * 300 - 3);
  fuser_fusion_destroy(f);
}

static void test_bad_sources(void) {
  fuser_fusion *f = (fuser_fusion *)1;
  const char *bad = "def f(fd):\n    T0 = fd.define_tensor(shape=[-1], contiguity=[True, True], dtype=DataType.Float)\n";
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, bad, strlen(bad), "bad.py", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(f == NULL);
  CHECK(unit_contains(err.message, "bad.py:2:"));
  printf("bad source: %s\n", err.message);
  CHECK(unit_contains(err.message, "error: define_tensor contiguity has 2 entries but shape has rank 1"));
  const char *mlir = "module { func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> { return %a : tensor<?xf32> } }";
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_MLIR, mlir, strlen(mlir), "f.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "f.mlir: error: no fusion (func.func with fuser.fusion) in the module, expected one"));
  const char *syntax = "module { func.func @f( }";
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_MLIR, syntax, strlen(syntax), "s.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
  CHECK(unit_contains(err.message, "s.mlir:1:"));
  CHECK_EQ_INT(fuser_fusion_create(rt, 7, syntax, strlen(syntax), "s.mlir", NULL, &f, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "unknown source kind 7"));
  /* no runtime is fine (compile and CPU only: unit_libfuser_api.c); the source is still checked */
  CHECK_EQ_INT(fuser_fusion_create(NULL, FUSER_SOURCE_MLIR, syntax, strlen(syntax), "s.mlir", NULL, &f, &err), FUSER_ERR_COMPILE);
}

/* Reads a script, runs it through libfuser on its own inputs twice (compile,
 * then hit). Returns 1 if it ran, 0 if the file is absent. */
static int run_script(const char *path, fuser_fusion_options *opts) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  static char text[1 << 20];
  size_t len = fread(text, 1, sizeof text, fp);
  fclose(fp);
  fuser_fusion *f = NULL;
  CHECK_EQ_INT(fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, text, len, path, opts, &f, &err), FUSER_OK);
  if (!f) return fprintf(stderr, "%s: %s\n", path, err.message), 1;
  const char *recipes_text = fuser_fusion_example_inputs(f);
  CHECK(recipes_text != NULL);
  fuser_input_recipe recipes[16];
  int n = recipes_text ? fuser_recipes_parse(recipes_text, recipes, 16, &err) : -1;
  CHECK_EQ_INT(n, (int)fuser_fusion_num_inputs(f));
  fuser_arg args[16];
  DLTensor tensors[16];
  void *mem[16] = {0};
  for (int i = 0; i < n; i++) {
    fuser_input_recipe *r = &recipes[i];
    if (!r->tensor) {
      args[i] = r->dtype == FUSER_TYPE_F32 || r->dtype == FUSER_TYPE_F64 ? fuser_arg_double(r->value) : fuser_arg_int((int64_t)r->value);
      continue;
    }
    size_t bytes = (size_t)r->numel * fuser_type_size(r->dtype);
    mem[i] = aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
    tensors[i] = (DLTensor){.data = mem[i], .device = {kDLCUDA, 0}, .ndim = r->rank, .dtype = fuser_type_to_dlpack(r->dtype),
                            .shape = r->sizes, .strides = r->strides,
                            .byte_offset = (uint64_t)r->offset * fuser_type_size(r->dtype)};
    args[i] = fuser_arg_tensor(&tensors[i]);
  }
  size_t nout = fuser_fusion_num_outputs(f);
  fuser_output out[16];
  int launches = fake->nlaunches;
  CHECK_EQ_INT(fuser_fusion_execute(f, args, (size_t)n, out, nout, &err), FUSER_OK);
  if (err.code) fprintf(stderr, "%s: %s\n", path, err.message);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 1);
  CHECK(fake->nlaunches > launches);
  const fuser_artifact *art = fuser_fusion_entry_artifact(f, 0);
  printf("%s: %zu kernel(s), compiled in %.0f ms%s\n", path, art ? fuser_artifact_num_kernels(art) : 0,
         fuser_fusion_entry_compile_ms(f, 0), opts && opts->specialize_sizes ? " (sizes specialised)" : "");
  for (size_t k = 0; err.code == 0 && k < nout; k++) fuser_output_release(rt, &out[k]);
  CHECK_EQ_INT(fuser_fusion_execute(f, args, (size_t)n, out, nout, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_fusion_last_compiled(f), 0);
  for (size_t k = 0; err.code == 0 && k < nout; k++) fuser_output_release(rt, &out[k]);
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  fuser_fusion_destroy(f);
  for (int i = 0; i < n; i++) free(mem[i]);
  return 1;
}

static void test_corpus(const char *corpus) {
  static const char *const scripts[] = {"seed/seed_fusion_id0.py", "seed/seed_fusion_id1.py", "visible/gelu_tanh_small.py",
                                        "visible/rope_qkv_small.py"};
  int ran = 0;
  char path[4096];
  for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", corpus, scripts[i]);
    ran += run_script(path, NULL);
  }
  fuser_fusion_options sized = {.specialize_sizes = 1};
  snprintf(path, sizeof path, "%s/seed/seed_fusion_id1.py", corpus);
  ran += run_script(path, &sized);
  if (!ran) printf("corpus scripts skipped: no corpus at %s\n", corpus);
}

/* The host cost of a cache hit: the lookup alone (fuser_fusion_compile on
 * a cached signature), fuser_execute on the entry's function, and
 * fuser_fusion_execute (lookup + execute), against the fake driver. Each is
 * the best of 5 rounds (the machine is shared). */
static double ns_per_call(fuser_fusion *f, const fuser_arg *args, int what, int n) {
  fuser_output out[1];
  fuser_function *fn = fuser_fusion_entry_function(f, 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < n; i++) {
    if (what == 0) fuser_fusion_compile(f, args, 2, NULL, &err);
    else {
      if (what == 1) fuser_execute(fn, args, 2, out, 1, &err);
      else fuser_fusion_execute(f, args, 2, out, 1, &err);
      fuser_output_release(rt, &out[0]);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
}

static void bench_hit(void) {
  fuser_fusion *f = NULL;
  if (fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, add_script, strlen(add_script), "add.py", NULL, &f, &err) != FUSER_OK) return;
  tensor2 a, b;
  /* 64 x 64 (within `storage`): the cost of a hit does not depend on the
   * size, and the fake's output allocations stay small (under ASan a 4 MB
   * allocation per call made this take hours) */
  make2(&a, kDLFloat, 32, 64, 64, 64, 1, 0);
  make2(&b, kDLFloat, 32, 64, 64, 64, 1, 0);
  fuser_arg args[2] = {fuser_arg_tensor(&a.t), fuser_arg_tensor(&b.t)};
  CHECK_EQ_INT(fuser_fusion_compile(f, args, 2, NULL, &err), FUSER_OK);
  double best[3] = {1e30, 1e30, 1e30};
  for (int round = 0; round < 5; round++)
    for (int w = 0; w < 3; w++) {
      double t = ns_per_call(f, args, w, w == 0 ? 100000 : 20000);
      if (t < best[w]) best[w] = t;
    }
  CHECK_EQ_INT(fuser_fusion_num_entries(f), 1);
  CHECK_EQ_INT(fuser_fusion_compiles(f), 1);
  printf("host cost of a hit (2 tensor inputs, fake driver, best of 5): lookup %.0f ns; fuser_execute + release %.0f ns; "
         "fuser_fusion_execute + release %.0f ns\n", best[0], best[1], best[2]);
  fuser_fusion_destroy(f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: unit_libfuser FAKE_LIBCUDA [CORPUS_DIR]\n");
    return 2;
  }
  if (!(fake = fake_cuda_open(argv[1]))) return 2;
  if (fuser_runtime_create(0, NULL, NULL, &rt, &err) != FUSER_OK) {
    fprintf(stderr, "runtime: %s\n", err.message);
    return 1;
  }
  test_cache();
  test_specialize_small();
  test_scalars();
  test_static_extent();
  test_empty_extents();
  test_threads();
  test_bad_sources();
  if (argc > 2) test_corpus(argv[2]);
  bench_hit();
  fuser_runtime_destroy(rt);
  UNIT_MAIN_END();
}
