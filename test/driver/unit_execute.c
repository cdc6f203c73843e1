/* unit_execute.c: the runtime's GPU path (runtime create, load, execute,
 * output release) on CPU, against test/driver/fake_cuda.c (given as argv[1],
 * opened through FUSER_CUDA_LIBRARY): which variant is launched with which
 * grid, block and parameter bytes; outputs, aliases, temps; the allocator
 * callbacks; the module cache; and every error path of load and execute
 * (nothing launched, nothing left allocated). The runtime's caching
 * allocator is off here (FUSER_DEVICE_CACHE=0) so that every allocation and
 * free shows as a driver call; unit_device_cache.c tests the cache. */
#include "example_artifact.h"
#include "fake_cuda_open.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fake_state *fake;
static fuser_runtime *rt;
static fuser_error err;
#define STREAM ((void *)(uintptr_t)0x5157)

static fuser_function *load(fuser_artifact *a) {
  fuser_function *fn = NULL;
  if (fuser_load(rt, a, &fn, &err) != FUSER_OK) fprintf(stderr, "load: %s\n", err.message);
  return fn;
}

/* The builder's artifact loaded (the function holds it), or NULL after a
 * failed CHECK. */
static fuser_function *finish_and_load(fuser_builder *b) {
  fuser_artifact *a;
  CHECK_EQ_INT(fuser_builder_finish(b, &a, &err), FUSER_OK);
  if (!a) return NULL;
  fuser_function *fn = load(a);
  fuser_artifact_release(a);
  return fn;
}

static float xs[128] __attribute__((aligned(256))), ys[132] __attribute__((aligned(256)));

static void test_add(void) {
  fuser_artifact *a = example_add_artifact(1, &err);
  int loads = fake->module_loads;
  fuser_function *fn = load(a);
  CHECK(fn != NULL);
  if (!fn) return;
  fuser_artifact_release(a); /* the function keeps its own reference */
  CHECK_EQ_INT(fake->module_loads, loads + 1);
  CHECK_EQ_INT(fuser_function_registers(fn, 0, 0), 42);
  CHECK_EQ_INT(fuser_function_registers(fn, 0, 2), -1);

  int64_t shape[2] = {8, 16}, shape_y[2] = {8, 16};
  DLTensor x = example_tensor(xs, 2, shape, NULL), y = example_tensor(ys, 2, shape_y, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(3)};
  fuser_output out[2];
  int launches = fake->nlaunches, allocs = fake->allocs, frees = fake->frees;

  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  CHECK_EQ_INT(fake->nlaunches, launches + 1);
  fake_launch *l = &fake->launches[launches];
  CHECK(strcmp(l->name, "add_vec4") == 0);
  CHECK_EQ_INT(l->grid[0], 1); /* ceildiv(128 / 4, 256) */
  CHECK_EQ_INT(l->grid[1], 1);
  CHECK_EQ_INT(l->block[0], 256);
  CHECK(l->stream == STREAM);
  CHECK(l->params[0] == (uint64_t)(uintptr_t)xs);
  CHECK(l->params[1] == (uint64_t)(uintptr_t)ys);
  CHECK(l->params[2] == (uint64_t)(uintptr_t)out[0].tensor.data);
  CHECK_EQ_INT(l->params[3], 128);
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  CHECK_EQ_INT(out[0].allocated_by, 2);
  CHECK_EQ_INT(out[0].bytes, 512);
  CHECK(out[0].tensor.shape == out[0].shape && out[0].shape[0] == 8 && out[0].shape[1] == 16);
  CHECK(out[0].strides[0] == 16 && out[0].strides[1] == 1);
  CHECK(out[0].tensor.device.device_type == kDLCUDA && out[0].tensor.dtype.code == kDLFloat &&
        out[0].tensor.dtype.bits == 32 && out[0].alias_of == -1);
  CHECK(out[1].alias_of == 0 && out[1].tensor.data == xs && out[1].tensor.byte_offset == 12);
  CHECK(out[1].shape[0] == 125 && out[1].strides[0] == 1 && out[1].allocation == NULL);
  fuser_output_release(rt, &out[0]);
  fuser_output_release(rt, &out[1]);
  CHECK_EQ_INT(fake->frees, frees + 1);
  CHECK(out[0].allocation == NULL && out[0].allocated_by == 0);

  /* misaligned y: the scalar fallback, pointer = data + byte_offset */
  y.byte_offset = 4;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  l = &fake->launches[fake->nlaunches - 1];
  CHECK(strcmp(l->name, "add_scalar") == 0);
  CHECK(l->params[1] == (uint64_t)(uintptr_t)ys + 4);
  CHECK_EQ_INT(l->grid[0], 1); /* ceildiv(128, 256) */
  fuser_output_release(rt, &out[0]);
  y.byte_offset = 0;

  /* another context current on this thread: execute makes its own current */
  fake->current_ctx = (void *)(uintptr_t)0xbad;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  CHECK(fake->current_ctx == fuser_runtime_context(rt));
  fuser_output_release(rt, &out[0]);

  /* refused inputs: nothing allocated, nothing launched */
  launches = fake->nlaunches, allocs = fake->allocs;
  y.device.device_id = 1;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input 1 (T1): on CUDA device 1, the runtime is on device 0"));
  y.device.device_id = 0;
  y.dtype.bits = 64;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_INPUT_MISMATCH);
  y.dtype.bits = 32;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 1, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "1 outputs given, the fusion has 2"));
  CHECK_EQ_INT(fuser_execute(fn, args, 3, NULL, 2, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK_EQ_INT(fake->nlaunches, launches);
  CHECK_EQ_INT(fake->allocs, allocs);

  /* empty tensors: no allocation, no launch (grid 0) */
  shape[0] = shape_y[0] = 0;
  args[2] = fuser_arg_int(0);
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  CHECK(out[0].tensor.data == NULL && out[0].bytes == 0 && out[0].allocated_by == 0);
  CHECK_EQ_INT(fake->nlaunches, launches);
  CHECK_EQ_INT(fake->allocs, allocs);
  /* an alias offset beyond an empty view is still arithmetic only */
  fuser_output_release(rt, &out[0]);
  shape[0] = shape_y[0] = 8;

  /* a runtime allocation failure: nothing launched */
  fake->fail_alloc_above = 100;
  args[2] = fuser_arg_int(3);
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_CUDA);
  CHECK(unit_contains(err.message, "cuMemAllocAsync of 512 bytes failed: CUDA_ERROR_FAKE (2): fake failure"));
  CHECK_EQ_INT(fake->nlaunches, launches);
  fake->fail_alloc_above = 0;
  CHECK_EQ_INT(fake->allocs, fake->frees);
  fuser_function_destroy(fn);
}

/* ---- caller allocator ------------------------------------------------- */

typedef struct counting_allocator {
  int allocs, frees, fail;
  void *last_stream;
} counting_allocator;

static int counting_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  counting_allocator *c = ctx;
  c->last_stream = stream;
  if (c->fail) return 1;
  c->allocs++;
  *ptr = aligned_alloc(256, (bytes + 255) / 256 * 256);
  return 0;
}
static void counting_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  ((counting_allocator *)ctx)->frees++;
  free(ptr);
}

static void test_caller_allocator(void) {
  counting_allocator c = {0};
  fuser_allocator alloc = {&c, counting_alloc, counting_free};
  fuser_runtime *rt2;
  CHECK_EQ_INT(fuser_runtime_create(0, STREAM, &alloc, &rt2, &err), FUSER_OK);
  fuser_artifact *a = example_add_artifact(1, &err);
  fuser_function *fn = NULL;
  CHECK_EQ_INT(fuser_load(rt2, a, &fn, &err), FUSER_OK);
  fuser_artifact_release(a);
  int64_t shape[2] = {8, 16};
  DLTensor x = example_tensor(xs, 2, shape, NULL), y = example_tensor(ys, 2, shape, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y), fuser_arg_int(3)};
  fuser_output out[2];
  int runtime_allocs = fake->allocs;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  CHECK_EQ_INT(c.allocs, 1);
  CHECK(c.last_stream == STREAM);
  CHECK_EQ_INT(out[0].allocated_by, 1);
  CHECK_EQ_INT(fake->allocs, runtime_allocs); /* the driver was not asked */
  fuser_output_release(rt2, &out[0]);
  CHECK_EQ_INT(c.frees, 1);
  /* a stream switch is seen by the next call */
  fuser_runtime_set_stream(rt2, (void *)(uintptr_t)0x7777);
  CHECK(fuser_runtime_stream(rt2) == (void *)(uintptr_t)0x7777);
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  CHECK(fake->launches[fake->nlaunches - 1].stream == (void *)(uintptr_t)0x7777);
  CHECK(c.last_stream == (void *)(uintptr_t)0x7777);
  fuser_output_release(rt2, &out[0]);
  /* the allocator failing: an error, no launch */
  int launches = fake->nlaunches;
  c.fail = 1;
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_ALLOCATOR);
  CHECK(unit_contains(err.message, "the allocator callback failed to allocate 512 bytes"));
  CHECK_EQ_INT(fake->nlaunches, launches);
  CHECK_EQ_INT(c.allocs, c.frees);
  fuser_function_destroy(fn);
  fuser_runtime_destroy(rt2);
}

/* ---- temps, i32/f32 parameters, offsets, 3-D launch ---------------------- */

static fuser_artifact *pipeline_artifact(const char *module_text, const char *entry, unsigned block_x,
                                         unsigned shared) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, module_text, strlen(module_text));
  int64_t sizes[1] = {-1}, contig[1] = {1};
  fuser_builder_add_tensor_input(b, "x", FUSER_TYPE_F32, 1, sizes, contig, NULL);
  fuser_builder_add_scalar_input(b, "alpha", FUSER_TYPE_F64);
  const char *osz[1] = {"size(0, 0) - 2"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, osz, NULL);
  fuser_builder_add_temp(b, "16", 1);
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "2");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I32, "size(0, 0) - 2");
  fuser_builder_param_scalar(b, k, FUSER_PARAM_F32, 1);
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_TEMP, 0, "4");
  const char *grid[3] = {"2", "3", "4"};
  const unsigned block[3] = {block_x, 2, 1};
  fuser_builder_add_variant_3d(b, k, m, entry, grid, block, shared, 0, NULL);
  fuser_artifact *a = NULL;
  if (fuser_builder_finish(b, &a, &err)) fprintf(stderr, "pipeline: %s\n", err.message);
  return a;
}

static void test_pipeline(void) {
  fuser_artifact *a = pipeline_artifact("entry scale 5", "scale", 32, 128);
  fuser_function *fn = load(a);
  fuser_artifact_release(a);
  if (!fn) return;
  int64_t shape[1] = {100};
  DLTensor x = example_tensor(xs, 1, shape, NULL);
  fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_double(0.5)};
  fuser_output out[1];
  int memsets = fake->memsets, frees = fake->frees;
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_OK);
  CHECK_EQ_INT(fake->memsets, memsets + 1);
  CHECK_EQ_INT(fake->last_memset_bytes, 16);
  CHECK_EQ_INT(fake->frees, frees + 1); /* the temp is freed (stream-ordered) right after the launch */
  fake_launch *l = &fake->launches[fake->nlaunches - 1];
  CHECK(l->grid[0] == 2 && l->grid[1] == 3 && l->grid[2] == 4);
  CHECK(l->block[0] == 32 && l->block[1] == 2 && l->block[2] == 1 && l->shared == 128);
  CHECK(l->params[0] == (uint64_t)(uintptr_t)xs + 8); /* element offset 2 of f32 */
  CHECK(l->params[1] == (uint64_t)(uintptr_t)out[0].tensor.data);
  int32_t n32;
  memcpy(&n32, &l->params[2], 4);
  CHECK_EQ_INT(n32, 98);
  float alpha;
  memcpy(&alpha, &l->params[3], 4);
  CHECK(alpha == 0.5f);
  CHECK_EQ_INT(l->params[4] % 256, 4); /* temp base (256-aligned) + 4 bytes */
  CHECK_EQ_INT(out[0].shape[0], 98);
  fuser_output_release(rt, &out[0]);

  /* an integer given for the floating scalar converts */
  args[1] = fuser_arg_int(3);
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_OK);
  memcpy(&alpha, &fake->launches[fake->nlaunches - 1].params[3], 4);
  CHECK(alpha == 3.0f);
  fuser_output_release(rt, &out[0]);

  /* values that cannot be passed: refused before anything is allocated */
  int allocs = fake->allocs, launches = fake->nlaunches;
  shape[0] = INT64_C(1) << 32;
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_ERR_EXPRESSION);
  CHECK(unit_contains(err.message, "kernel 0 (k) parameter 2: 4294967294 does not fit in i32"));
  shape[0] = 1;
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_ERR_EXPRESSION);
  CHECK(unit_contains(err.message, "output 0: size of dim 0 evaluates to -1"));
  CHECK_EQ_INT(fake->allocs, allocs);
  CHECK_EQ_INT(fake->nlaunches, launches);
  fuser_function_destroy(fn);
}

/* The slice (issue 14): end 800 of a `?` dim that is 8 at run time,
 * computed by a kernel into a new [4, 800] output. The check refuses the
 * call before the output is allocated or the kernel launched. */
static void test_slice_check(void) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_F32, 2, sizes, contig, NULL);
  const char *osz[2] = {"4", "800"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 2, osz, NULL);
  fuser_builder_add_check(b, "size(0, 1) >= 800", "s.py:6:10: slice ends at 800 in dim 1");
  int k = fuser_builder_add_kernel(b, "neg");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I64, "3200");
  fuser_builder_add_variant(b, k, m, "add_scalar", "25", 128, 0, NULL);
  fuser_function *fn = finish_and_load(b);
  if (!fn) return;
  int64_t shape[2] = {4, 8};
  DLTensor x = example_tensor(xs, 2, shape, NULL);
  fuser_arg args[1] = {fuser_arg_tensor(&x)};
  fuser_output out[1];
  int allocs = fake->allocs, launches = fake->nlaunches;
  CHECK_EQ_INT(fuser_execute(fn, args, 1, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input check failed: `size(0, 1) >= 800` (s.py:6:10: slice ends at 800 in dim 1)"));
  CHECK_EQ_INT(fake->allocs, allocs);
  CHECK_EQ_INT(fake->nlaunches, launches);
  fuser_function_destroy(fn);
}

/* ---- an index flag under stream capture ---------------------------------- */

/* A fusion with index ops reads its index flag back after the kernels (a
 * synchronisation and a copy to the host): not capturable. Under a capture
 * the call is refused before anything is queued, with a message that says
 * why (the capture stays usable); outside it the call runs and reads the flag. */
static void test_index_flag_capture(void) {
  fuser_builder *b = fuser_builder_create();
  const char *text = "entry gather 3";
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, text, strlen(text));
  int64_t sizes[1] = {-1}, contig[1] = {1};
  fuser_builder_add_tensor_input(b, "x", FUSER_TYPE_F32, 1, sizes, contig, NULL);
  const char *osz[1] = {"size(0, 0)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, osz, NULL);
  int t = fuser_builder_add_temp(b, "4", 1);
  fuser_builder_set_index_flag(b, t, "g.py:3:10: fuser.gather");
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_TEMP, t, "0");
  const char *grid[3] = {"1", "1", "1"};
  const unsigned block[3] = {32, 1, 1};
  fuser_builder_add_variant_3d(b, k, m, "gather", grid, block, 0, 0, NULL);
  fuser_artifact *a = NULL;
  if (fuser_builder_finish(b, &a, &err)) fprintf(stderr, "index flag: %s\n", err.message);
  fuser_function *fn = a ? load(a) : NULL;
  fuser_artifact_release(a);
  if (!fn) return;
  int64_t shape[1] = {16};
  DLTensor x = example_tensor(xs, 1, shape, NULL);
  fuser_arg args[1] = {fuser_arg_tensor(&x)};
  fuser_output out[1];
  int allocs = fake->allocs, launches = fake->nlaunches;
  fake->capturing_stream = STREAM;
  CHECK_EQ_INT(fuser_execute(fn, args, 1, out, 1, &err), FUSER_ERR_UNSUPPORTED);
  CHECK(unit_contains(err.message, "cannot be captured into a CUDA graph"));
  CHECK(unit_contains(err.message, "g.py:3:10: fuser.gather"));
  CHECK_EQ_INT(fake->allocs, allocs);
  CHECK_EQ_INT(fake->nlaunches, launches);
  fake->capturing_stream = NULL;
  CHECK_EQ_INT(fuser_execute(fn, args, 1, out, 1, &err), FUSER_OK);
  CHECK_EQ_INT(fake->nlaunches, launches + 1);
  fuser_output_release(rt, &out[0]);
  fuser_function_destroy(fn);
}

/* ---- load errors and the module cache ------------------------------------ */

static void test_load_errors(void) {
  fuser_function *fn = (fuser_function *)1;
  fuser_artifact *a = pipeline_artifact("FAIL_JIT entry scale 5", "scale", 32, 0);
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_ERR_CUDA);
  CHECK(fn == NULL);
  CHECK(unit_contains(err.message, "loading module 0 (ptx) failed: CUDA_ERROR_FAKE (218): fake failure; JIT log: fake JIT "
                              "log: line 1: syntax error"));
  fuser_artifact_release(a);

  a = pipeline_artifact("entry other 5", "absent", 32, 0);
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_ERR_CUDA);
  CHECK(unit_contains(err.message, "kernel 0 (k) variant 0: entry 'absent' not found in module 0"));
  fuser_artifact_release(a);

  a = pipeline_artifact("entry small 5 128", "small", 256, 0);
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_ERR_ARTIFACT_INVALID);
  CHECK(unit_contains(err.message, "kernel 0 (k) variant 0 (small): block of 512 threads, the compiled entry allows 128"));
  fuser_artifact_release(a);

  a = pipeline_artifact("entry scale 5", "scale", 32, 64 * 1024);
  CHECK_EQ_INT(fuser_load(rt, a, &fn, &err), FUSER_ERR_ARTIFACT_INVALID);
  CHECK(unit_contains(err.message, "65536 bytes of dynamic shared memory; above 48 KiB is not supported yet"));
  fuser_artifact_release(a);

  /* failed loads left no module behind */
  CHECK_EQ_INT(fake->module_loads - fake->module_unloads, 0);

  /* identical module bytes load once per context and unload with the last user */
  fuser_artifact *a1 = pipeline_artifact("entry scale 5", "scale", 32, 0);
  fuser_artifact *a2 = pipeline_artifact("entry scale 5", "scale", 64, 0);
  fuser_artifact *a3 = pipeline_artifact("entry scale 5 ", "scale", 32, 0);
  int loads = fake->module_loads, unloads = fake->module_unloads;
  fuser_function *f1 = load(a1), *f2 = load(a2), *f3 = load(a3);
  CHECK(f1 && f2 && f3);
  CHECK_EQ_INT(fake->module_loads, loads + 2); /* a3's bytes differ */
  fuser_function_destroy(f1);
  CHECK_EQ_INT(fake->module_unloads, unloads);
  fuser_function_destroy(f2);
  CHECK_EQ_INT(fake->module_unloads, unloads + 1);
  fuser_function_destroy(f3);
  CHECK_EQ_INT(fake->module_unloads, unloads + 2);
  fuser_artifact_release(a1);
  fuser_artifact_release(a2);
  fuser_artifact_release(a3);
}

static void test_launch_failure(void) {
  fuser_artifact *a = pipeline_artifact("entry fail_launch 5", "fail_launch", 32, 0);
  fuser_function *fn = load(a);
  fuser_artifact_release(a);
  if (!fn) return;
  int64_t shape[1] = {100};
  DLTensor x = example_tensor(xs, 1, shape, NULL);
  fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_double(0.5)};
  fuser_output out[1];
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_ERR_CUDA);
  CHECK(unit_contains(err.message, "cuLaunchKernel of kernel 0 (k, variant fail_launch) failed: CUDA_ERROR_FAKE (719)"));
  CHECK(out[0].allocation == NULL); /* the output went back */
  CHECK_EQ_INT(fake->allocs, fake->frees);
  fuser_function_destroy(fn);
}

/* Issue 17, C5/C6: an alias output (a view of an input made by pointer
 * arithmetic) must lie inside its input's span. A view whose extent, stride
 * or offset reaches past it (a slice end past a `?` extent, a corrupted
 * artifact) was returned and read out of bounds; now the call is refused
 * before any launch. A view inside still works, and so does an input
 * returned as an output (legal in nvFuser). */
static void test_alias_bounds(void) {
  fuser_builder *b = fuser_builder_create();
  fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1}, order[2] = {1, 0};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_F32, 2, sizes, contig, order);
  fuser_builder_add_scalar_input(b, "end", FUSER_TYPE_I64);
  fuser_builder_add_scalar_input(b, "offset", FUSER_TYPE_I64);
  const char *osz[2] = {"size(0, 0)", "scalar(1)"}, *ost[2] = {"stride(0, 0)", "1"};
  fuser_builder_add_alias_output(b, 0, 2, "scalar(2)", osz, ost);
  const char *isz[2] = {"size(0, 0)", "size(0, 1)"}, *ist[2] = {"stride(0, 0)", "stride(0, 1)"};
  fuser_builder_add_alias_output(b, 0, 2, "0", isz, ist);
  fuser_function *fn = finish_and_load(b);
  if (!fn) return;
  int64_t shape[2] = {4, 8};
  DLTensor x = example_tensor(xs, 2, shape, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&x), fuser_arg_int(8), fuser_arg_int(0)};
  fuser_output out[2];
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK); /* [4, 8] of [4, 8] */
  CHECK(out[0].alias_of == 0 && out[1].alias_of == 0 && out[1].tensor.data == xs);
  fuser_output_release(rt, &out[0]), fuser_output_release(rt, &out[1]);
  args[1] = fuser_arg_int(4), args[2] = fuser_arg_int(4); /* the right half */
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_OK);
  CHECK(out[0].tensor.byte_offset == 16);
  fuser_output_release(rt, &out[0]), fuser_output_release(rt, &out[1]);
  args[1] = fuser_arg_int(800), args[2] = fuser_arg_int(0); /* C5: a slice to 800 of an extent of 8 */
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "output 0 (alias of input 0): the view at offset 0 reaches elements outside the input's [0, 31]"));
  args[1] = fuser_arg_int(8), args[2] = fuser_arg_int(8388608); /* C6: a corrupted offset */
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "the view at offset 8388608 reaches elements outside"));
  args[1] = fuser_arg_int(5), args[2] = fuser_arg_int(4); /* one element past the end */
  CHECK_EQ_INT(fuser_execute(fn, args, 3, out, 2, &err), FUSER_ERR_INPUT_MISMATCH);
  fuser_function_destroy(fn);
}

/* The call's checks (fuser_builder_add_check) run before anything else,
 * also with no kernels: a reshape of T0's `?x?` into a 32-element view
 * refuses an 8 x 8 input (the checks rode on kernels' variants, so such a
 * plan returned the first 32 elements) without allocating or launching;
 * a memoised good call does not let a bad one through; a check equating two
 * inputs' extents names both. */
static void test_call_checks(void) {
  fuser_builder *b = fuser_builder_create();
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_F32, 2, sizes, contig, NULL);
  fuser_builder_add_tensor_input(b, "T1", FUSER_TYPE_F32, 2, sizes, contig, NULL);
  const char *vsz[1] = {"32"}, *vst[1] = {"1"};
  fuser_builder_add_alias_output(b, 0, 1, "0", vsz, vst);
  fuser_builder_add_check(b, "size(0, 0) * size(0, 1) == 32", "v.py:3:10: reshape keeps the element count");
  fuser_builder_add_check(b, "size(1, 0) == size(0, 0)", "the fusion maps dim 0 of input 1 onto dim 0 of input 0");
  fuser_function *fn = finish_and_load(b);
  if (!fn) return;
  int64_t good[2] = {4, 8}, bad[2] = {8, 8}, other[2] = {2, 16};
  DLTensor x = example_tensor(xs, 2, good, NULL), y = example_tensor(ys, 2, good, NULL);
  fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y)};
  fuser_output out[1];
  int allocs = fake->allocs, launches = fake->nlaunches;
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_OK);
  CHECK(out[0].alias_of == 0 && out[0].tensor.data == xs && out[0].tensor.shape[0] == 32);
  fuser_output_release(rt, &out[0]);
  x = example_tensor(xs, 2, bad, NULL), y = example_tensor(ys, 2, bad, NULL);
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "input check failed: `(size(0, 0) * size(0, 1)) == 32` (v.py:3:10: reshape keeps the element count)"));
  CHECK_EQ_INT(fuser_artifact_check_inputs(fuser_function_artifact(fn), args, 2, NULL, &err), FUSER_ERR_INPUT_MISMATCH);
  x = example_tensor(xs, 2, good, NULL), y = example_tensor(ys, 2, other, NULL);
  CHECK_EQ_INT(fuser_execute(fn, args, 2, out, 1, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(unit_contains(err.message, "do not fit together: dim 0 of input 0 has size 4, dim 0 of input 1 has size 2"));
  CHECK_EQ_INT(fake->allocs, allocs);
  CHECK_EQ_INT(fake->nlaunches, launches);
  fuser_function_destroy(fn);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: unit_driver_execute PATH_TO_FAKE_LIBCUDA\n");
    return 2;
  }
  if (!(fake = fake_cuda_runtime(argv[1], STREAM, &rt))) return 1;
  CHECK(fuser_runtime_stream(rt) == STREAM);
  CHECK(fake->current_ctx == fuser_runtime_context(rt));
  fuser_runtime *none;
  CHECK_EQ_INT(fuser_runtime_create(3, NULL, NULL, &none, &err), FUSER_ERR_INVALID_ARGUMENT);
  CHECK(unit_contains(err.message, "CUDA device 3 does not exist (1 devices)"));
  test_add();
  test_caller_allocator();
  test_pipeline();
  test_load_errors();
  test_launch_failure();
  test_alias_bounds();
  test_call_checks();
  test_slice_check();
  test_index_flag_capture();
  fuser_runtime_destroy(rt);
  UNIT_MAIN_END();
}
