/* gpu_selftest.c: the runtime on a real GPU, without MLIR.
 *
 *   gpu_selftest PTX_FILE [--quick] [--n N] [--artifact PATH]
 *
 * Builds an artifact around the hand-written PTX of add_kernels.cu (out = a
 * + b, a float4 variant and a scalar fallback, plus an alias output), writes
 * it to a file and reads it back, loads it, and then:
 *   - checks results for aligned inputs (vec4 variant) and a misaligned input
 *     (scalar fallback), the alias output, and an input-mismatch error;
 *   - (unless --quick) times the kernel with CUDA events (warm-up, median of
 *     N), per call inside a captured and replayed CUDA graph, the
 *     device-to-device copy bandwidth, and the host overhead of fuser_execute
 *     (wall time from the call to its return) with the runtime's allocator
 *     and with a caller allocator.
 * Exits non-zero on any failure. --quick is for compute-sanitizer. */
#include "driver/artifact_builder.h"
#include "driver/cuda_loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const fuser_cuda_api *cu;
static int failures;

#define CU(call)                                                                  \
  do {                                                                            \
    CUresult r_ = (call);                                                         \
    if (r_) {                                                                     \
      char t_[200];                                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
              fuser_cuda_describe(cu, r_, t_, sizeof t_));                        \
      exit(2);                                                                    \
    }                                                                             \
  } while (0)

/* For runtime calls that pass the caller's `err`. */
#define OK(call)                                                                  \
  do {                                                                            \
    if ((call) != FUSER_OK) {                                                     \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
              err.message);                                                       \
      exit(2);                                                                    \
    }                                                                             \
  } while (0)

static void expect(int cond, const char *what) {
  printf("%s: %s\n", cond ? "PASS" : "FAIL", what);
  if (!cond) failures++;
}

static char *read_text(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) exit(2);
  buf[n] = 0;
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* out0 = in0 + in1 (f32, rank 1); out1 = view of in0 from element scalar(2). */
static fuser_artifact *build_artifact(const char *ptx, size_t size, fuser_error *err) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, ptx, size);
  int64_t sizes[1] = {-1}, contig[1] = {1};
  fuser_builder_add_tensor_input(b, "a", FUSER_TYPE_F32, 1, sizes, contig, NULL);
  fuser_builder_add_tensor_input(b, "b", FUSER_TYPE_F32, 1, sizes, contig, NULL);
  fuser_builder_add_scalar_input(b, "offset", FUSER_TYPE_I64);
  const char *osz[1] = {"size(0, 0)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, osz, NULL);
  const char *vsz[1] = {"size(0, 0) - scalar(2)"}, *vst[1] = {"stride(0, 0)"};
  fuser_builder_add_alias_output(b, 0, 1, "scalar(2)", vsz, vst);
  int k = fuser_builder_add_kernel(b, "add");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I64, "size(0, 0)");
  const char *vec[3] = {"addr(0) % 16 == 0", "addr(1) % 16 == 0", "size(0, 0) % 4 == 0"};
  fuser_builder_add_variant(b, k, m, "add_vec4", "ceildiv(size(0, 0) / 4, 256)", 256, 3, vec);
  fuser_builder_add_variant(b, k, m, "add_scalar", "ceildiv(size(0, 0), 256)", 256, 0, NULL);
  fuser_artifact *a = NULL;
  fuser_builder_finish(b, &a, err);
  return a;
}

/* y = alpha * x; count = #(y > 0) through a zero-initialised temp counter:
 * three kernels, i32 and f32 parameters, a 2-D grid, metadata. */
static fuser_artifact *build_pipeline(const char *ptx, size_t size, fuser_error *err) {
  fuser_builder *b = fuser_builder_create();
  int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, ptx, size);
  int64_t sizes[1] = {-1}, contig[1] = {1};
  fuser_builder_add_tensor_input(b, "x", FUSER_TYPE_F32, 1, sizes, contig, NULL);
  fuser_builder_add_scalar_input(b, "alpha", FUSER_TYPE_F64);
  const char *ysz[1] = {"size(0, 0)"}, *csz[1] = {"1"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, ysz, NULL);
  fuser_builder_add_output(b, FUSER_TYPE_I32, 1, csz, NULL);
  fuser_builder_add_temp(b, "4", 1);
  int k = fuser_builder_add_kernel(b, "scale");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I32, "size(0, 0)");
  fuser_builder_param_scalar(b, k, FUSER_PARAM_F32, 1);
  fuser_builder_add_variant(b, k, m, "scale", "ceildiv(size(0, 0), 256)", 256, 0, NULL);
  k = fuser_builder_add_kernel(b, "count_positive");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_TEMP, 0, "0");
  fuser_builder_param_value(b, k, FUSER_PARAM_I32, "size(0, 0)");
  const char *grid[3] = {"ceildiv(ceildiv(size(0, 0), 256), 4)", "4", "1"};
  const unsigned block[3] = {256, 1, 1};
  fuser_builder_add_variant_3d(b, k, m, "count_positive", grid, block, 0, 0, NULL);
  k = fuser_builder_add_kernel(b, "store_count");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_TEMP, 0, "0");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 1, "0");
  fuser_builder_add_variant(b, k, m, "store_count", "1", 32, 0, NULL);
  fuser_builder_set_metadata(b, "fusion", "selftest_pipeline", 17);
  fuser_artifact *a = NULL;
  fuser_builder_finish(b, &a, err);
  return a;
}

/* Runs the pipeline twice (alpha 2 then -0.5: the second count is right
 * only if the temp counter was cleared again) and checks y and the count. */
static int cmp_double(const void *x, const void *y);
static double now_us(void);

static void check_pipeline(fuser_runtime *rt, fuser_artifact *art, CUdeviceptr dx, const float *hx, int64_t n,
                           CUstream stream, int quick) {
  fuser_error err;
  fuser_function *fn;
  expect(fuser_load(rt, art, &fn, &err) == FUSER_OK, "pipeline artifact loads (module shared with the add artifact)");
  if (err.code) {
    printf("  %s\n", err.message);
    return;
  }
  size_t msize;
  const char *name = fuser_artifact_metadata(art, "fusion", &msize);
  expect(name && !strcmp(name, "selftest_pipeline"), "metadata survives the file round trip");
  int64_t shape[1] = {n};
  DLTensor tx;
  memset(&tx, 0, sizeof tx);
  tx.data = (void *)(uintptr_t)dx;
  tx.device.device_type = kDLCUDA;
  tx.ndim = 1;
  tx.dtype.code = kDLFloat;
  tx.dtype.bits = 32;
  tx.dtype.lanes = 1;
  tx.shape = shape;
  const double alphas[2] = {2.0, -0.5};
  float *hy = malloc((size_t)n * sizeof *hy);
  for (int t = 0; t < 2; t++) {
    fuser_arg args[2] = {fuser_arg_tensor(&tx), fuser_arg_double(alphas[t])};
    fuser_output out[2];
    if (fuser_execute(fn, args, 2, out, 2, &err) != FUSER_OK) {
      expect(0, err.message);
      break;
    }
    CU(cu->cuStreamSynchronize(stream));
    int count = -1;
    CU(cu->cuMemcpyDtoH(hy, (CUdeviceptr)(uintptr_t)out[0].tensor.data, (size_t)n * sizeof *hy));
    CU(cu->cuMemcpyDtoH(&count, (CUdeviceptr)(uintptr_t)out[1].tensor.data, sizeof count));
    float alpha = (float)alphas[t];
    int64_t bad = 0, want = 0;
    for (int64_t i = 0; i < n; i++) {
      float y = alpha * hx[i];
      if (hy[i] != y) bad++;
      if (y > 0.0f) want++;
    }
    char what[160];
    snprintf(what, sizeof what, "pipeline alpha %.1f: y = alpha * x (%lld wrong), count %d (expected %lld)", alphas[t],
             (long long)bad, count, (long long)want);
    expect(bad == 0 && count == want, what);
    fuser_output_release(rt, &out[0]);
    fuser_output_release(rt, &out[1]);
  }
  free(hy);
  if (!quick) {
    /* host time of a 3-kernel call with a zero-initialised temp, small n */
    enum { H = 5000 };
    static double host[H];
    int64_t small = 1 << 16;
    shape[0] = small;
    fuser_arg args[2] = {fuser_arg_tensor(&tx), fuser_arg_double(1.0)};
    fuser_output out[2];
    for (int i = 0; i < H; i++) {
      double t0 = now_us();
      int rc = fuser_execute(fn, args, 2, out, 2, &err);
      host[i] = now_us() - t0;
      if (rc) {
        expect(0, err.message);
        break;
      }
      fuser_output_release(rt, &out[0]);
      fuser_output_release(rt, &out[1]);
      if (i % 256 == 255) CU(cu->cuStreamSynchronize(stream));
    }
    CU(cu->cuStreamSynchronize(stream));
    qsort(host, H, sizeof host[0], cmp_double);
    printf("host overhead, pipeline (3 kernels, 2 outputs + 1 zeroed temp, runtime allocator): median %.2f us, "
           "p90 %.2f us over %d calls\n",
           host[H / 2], host[H * 9 / 10], H);
  }
  fuser_function_destroy(fn);
}

static DLTensor f32_tensor(CUdeviceptr data, uint64_t byte_offset, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = (void *)(uintptr_t)data;
  t.byte_offset = byte_offset;
  t.device.device_type = kDLCUDA;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static double percentile(double *v, int n, double p) { /* v sorted */
  int i = (int)(p * (n - 1));
  return v[i];
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* A caller allocator that hands out one preallocated buffer (what a
 * framework's caching allocator does on a hit): used for graph capture and
 * for the host-overhead measurement without driver allocation. */
typedef struct pool {
  CUdeviceptr base;
  size_t size;
  int allocs, frees;
} pool;
static int pool_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  pool *p = ctx;
  if (bytes > p->size) return 1;
  p->allocs++;
  *ptr = (void *)(uintptr_t)p->base;
  return 0;
}
static void pool_free(void *ctx, void *ptr, size_t bytes, void *stream) { ((pool *)ctx)->frees++; }

/* Copies n floats back and checks out[i] == a[i] + b[i] with b read from
 * element b_shift of the host b array. */
static int check_sum(CUdeviceptr out, const float *ha, const float *hb, int64_t n, int64_t b_shift) {
  float *h = malloc((size_t)n * sizeof *h);
  CU(cu->cuMemcpyDtoH(h, out, (size_t)n * sizeof *h));
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (h[i] != ha[i] + hb[i + b_shift]) bad++;
  free(h);
  if (bad) printf("  %lld of %lld elements wrong\n", (long long)bad, (long long)n);
  return bad == 0;
}

int main(int argc, char **argv) {
  const char *ptx_path = NULL, *artifact_path = "selftest.fart";
  int quick = 0;
  int64_t n = (int64_t)1 << 27; /* 128 Mi floats = 512 MiB per tensor */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--artifact") && i + 1 < argc) artifact_path = argv[++i];
    else ptx_path = argv[i];
  }
  if (!ptx_path) {
    fprintf(stderr, "usage: gpu_selftest PTX_FILE [--quick] [--n N] [--artifact PATH]\n");
    return 2;
  }
  if (quick) n = 1 << 20;
  fuser_error err;
  size_t ptx_size;
  char *ptx = read_text(ptx_path, &ptx_size);

  /* artifact: build, write, read back */
  fuser_artifact *built = build_artifact(ptx, ptx_size, &err);
  if (!built) {
    fprintf(stderr, "builder: %s\n", err.message);
    return 1;
  }
  expect(fuser_artifact_write_file(built, artifact_path, &err) == FUSER_OK, "artifact written");
  fuser_artifact *art = NULL;
  expect(fuser_artifact_read_file(artifact_path, &art, &err) == FUSER_OK, "artifact read back");
  if (!art) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  fuser_artifact_release(built);
  fuser_artifact_describe(art, stdout);
  fuser_artifact *pipe_built = build_pipeline(ptx, ptx_size, &err), *pipe = NULL;
  if (!pipe_built) {
    fprintf(stderr, "pipeline builder: %s\n", err.message);
    return 1;
  }
  OK(fuser_artifact_write_file(pipe_built, "pipeline.fart", &err));
  OK(fuser_artifact_read_file("pipeline.fart", &pipe, &err));
  fuser_artifact_release(pipe_built);
  expect(1, "pipeline artifact built, written, read back");
  fuser_artifact_describe(pipe, stdout);

  /* runtime on device 0 with its own stream */
  int status;
  char msg[400];
  cu = fuser_cuda_get(&status, msg, sizeof msg);
  if (!cu) {
    fprintf(stderr, "%s\n", msg);
    return 1;
  }
  fuser_runtime *rt;
  if (fuser_runtime_create(0, NULL, NULL, &rt, &err)) {
    fprintf(stderr, "runtime: %s\n", err.message);
    return 1;
  }
  CUstream stream;
  CU(cu->cuStreamCreate(&stream, FUSER_CU_STREAM_NON_BLOCKING));
  fuser_runtime_set_stream(rt, stream);
  double t0 = now_us();
  fuser_function *fn;
  if (fuser_load(rt, art, &fn, &err)) {
    fprintf(stderr, "load: %s\n", err.message);
    return 1;
  }
  printf("load (PTX JIT + resolve): %.0f us; registers: add_vec4 %d, add_scalar %d\n", now_us() - t0,
         fuser_function_registers(fn, 0, 0), fuser_function_registers(fn, 0, 1));
  fuser_function *fn2;
  t0 = now_us();
  OK(fuser_load(rt, art, &fn2, &err));
  printf("second load of the same artifact (module cache hit): %.0f us\n", now_us() - t0);
  fuser_function_destroy(fn2);

  /* inputs: n + 4 floats each so that a shifted view stays in bounds */
  size_t bytes = (size_t)(n + 4) * sizeof(float);
  float *ha = malloc(bytes), *hb = malloc(bytes);
  for (int64_t i = 0; i < n + 4; i++) {
    ha[i] = (float)(i % 1000) * 0.5f;
    hb[i] = 1.0f - (float)(i % 777) * 0.25f;
  }
  CUdeviceptr da, db;
  CU(cu->cuMemAlloc(&da, bytes));
  CU(cu->cuMemAlloc(&db, bytes));
  CU(cu->cuMemcpyHtoD(da, ha, bytes));
  CU(cu->cuMemcpyHtoD(db, hb, bytes));
  /* pageable copies on the legacy stream may still be in flight; `stream`
   * (non-blocking) is not ordered after them */
  CU(cu->cuCtxSynchronize());
  int64_t shape_a[1] = {n}, shape_b[1] = {n};
  DLTensor ta = f32_tensor(da, 0, shape_a), tb = f32_tensor(db, 0, shape_b);
  fuser_arg args[3] = {fuser_arg_tensor(&ta), fuser_arg_tensor(&tb), fuser_arg_int(3)};
  fuser_output out[2];
  int variants[1] = {-1};

  /* aligned: vec4 */
  fuser_artifact_check_inputs(art, args, 3, variants, &err);
  expect(variants[0] == 0, "aligned inputs select add_vec4");
  expect(fuser_execute(fn, args, 3, out, 2, &err) == FUSER_OK, "execute (aligned)");
  CU(cu->cuStreamSynchronize(stream));
  expect(check_sum((CUdeviceptr)(uintptr_t)out[0].tensor.data, ha, hb, n, 0), "aligned result equals a + b");
  expect(out[0].allocated_by == 2 && out[0].bytes == (size_t)n * 4 && out[0].tensor.strides[0] == 1,
         "output allocated by the runtime, dense");
  expect(out[1].alias_of == 0 && out[1].tensor.data == ta.data && out[1].tensor.byte_offset == 12 &&
             out[1].tensor.shape[0] == n - 3 && out[1].allocation == NULL,
         "alias output shares input 0 at element 3");
  fuser_output_release(rt, &out[0]);
  fuser_output_release(rt, &out[1]);

  /* misaligned b (4-byte offset): scalar fallback, still right */
  tb.byte_offset = 4;
  fuser_artifact_check_inputs(art, args, 3, variants, &err);
  expect(variants[0] == 1, "misaligned input selects add_scalar");
  expect(fuser_execute(fn, args, 3, out, 2, &err) == FUSER_OK, "execute (misaligned)");
  CU(cu->cuStreamSynchronize(stream));
  expect(check_sum((CUdeviceptr)(uintptr_t)out[0].tensor.data, ha, hb, n, 1), "misaligned result equals a + b[1:]");
  fuser_output_release(rt, &out[0]);
  tb.byte_offset = 0;

  /* a wrong input is refused before any launch */
  tb.dtype.bits = 16;
  int rc = fuser_execute(fn, args, 3, out, 2, &err);
  expect(rc == FUSER_ERR_INPUT_MISMATCH && strstr(err.message, "input 1 (b): dtype float16, expected f32"),
         "wrong dtype refused with a message");
  printf("  message: %s\n", err.message);
  tb.dtype.bits = 32;
  CU(cu->cuStreamSynchronize(stream));

  /* several kernels, a temp, i32/f32 parameters, 2-D grid */
  check_pipeline(rt, pipe, da, ha, n, stream, quick);
  fuser_artifact_release(pipe);

  if (!quick) {
    enum { WARM = 5, ITERS = 50 };
    CUevent e0, e1;
    CU(cu->cuEventCreate(&e0, 0));
    CU(cu->cuEventCreate(&e1, 0));
    double times[ITERS];
    float ms;

    /* copy bandwidth: cuMemcpyDtoDAsync of one tensor */
    CUdeviceptr dc;
    CU(cu->cuMemAlloc(&dc, bytes));
    for (int i = 0; i < WARM + ITERS; i++) {
      CU(cu->cuEventRecord(e0, stream));
      CU(cu->cuMemcpyDtoDAsync(dc, da, (size_t)n * 4, stream));
      CU(cu->cuEventRecord(e1, stream));
      CU(cu->cuEventSynchronize(e1));
      CU(cu->cuEventElapsedTime(&ms, e0, e1));
      if (i >= WARM) times[i - WARM] = ms * 1e3;
    }
    double copy_us = median(times, ITERS);
    double copy_gbs = 2.0 * n * 4 / (copy_us * 1e-6) / 1e9;
    printf("copy: %lld bytes D2D, median %.1f us, %.0f GB/s (read + write)\n", (long long)n * 4, copy_us, copy_gbs);

    /* A second runtime on the same stream with a caller allocator that
     * hands out one preallocated buffer (a caching allocator's hit): used
     * for kernel timing (no allocation inside the timed window), graph
     * capture, and host overhead without driver allocation. */
    pool p = {0, (size_t)n * 4, 0, 0};
    CU(cu->cuMemAlloc(&p.base, p.size));
    fuser_allocator alloc = {&p, pool_alloc, pool_free};
    fuser_runtime *rt2;
    OK(fuser_runtime_create(0, stream, &alloc, &rt2, &err));
    fuser_function *gfn;
    OK(fuser_load(rt2, art, &gfn, &err));

    /* kernel through fuser_execute, events around each call */
    for (int vi = 0; vi < 2; vi++) {
      tb.byte_offset = vi ? 4 : 0;
      for (int i = 0; i < WARM + ITERS; i++) {
        CU(cu->cuEventRecord(e0, stream));
        OK(fuser_execute(gfn, args, 3, out, 2, &err));
        CU(cu->cuEventRecord(e1, stream));
        fuser_output_release(rt2, &out[0]);
        CU(cu->cuEventSynchronize(e1));
        CU(cu->cuEventElapsedTime(&ms, e0, e1));
        if (i >= WARM) times[i - WARM] = ms * 1e3;
      }
      double us = median(times, ITERS);
      double gbs = 3.0 * n * 4 / (us * 1e-6) / 1e9;
      printf("kernel %s: n=%lld, median %.1f us over %d calls, %.0f GB/s, %.1f%% of copy bandwidth\n",
             vi ? "add_scalar (misaligned b)" : "add_vec4", (long long)n, us, ITERS, gbs, 100.0 * gbs / copy_gbs);
    }
    tb.byte_offset = 0;

    /* graph: capture G calls (caller allocator), replay, time per call */
    enum { G = 20 };
    CUgraph graph;
    CUgraphExec exec;
    CU(cu->cuStreamBeginCapture(stream, FUSER_CU_STREAM_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < G; i++) {
      rc = fuser_execute(gfn, args, 3, out, 2, &err);
      if (rc) fprintf(stderr, "execute under capture: %s\n", err.message);
      fuser_output_release(rt2, &out[0]);
    }
    CU(cu->cuStreamEndCapture(stream, &graph));
    CU(cu->cuGraphInstantiateWithFlags(&exec, graph, 0));
    for (int i = 0; i < WARM + ITERS; i++) {
      CU(cu->cuEventRecord(e0, stream));
      CU(cu->cuGraphLaunch(exec, stream));
      CU(cu->cuEventRecord(e1, stream));
      CU(cu->cuEventSynchronize(e1));
      CU(cu->cuEventElapsedTime(&ms, e0, e1));
      if (i >= WARM) times[i - WARM] = ms * 1e3 / G;
    }
    double graph_us = median(times, ITERS);
    double graph_gbs = 3.0 * n * 4 / (graph_us * 1e-6) / 1e9;
    printf("kernel add_vec4 in a CUDA graph: %d calls per replay, median %.1f us per call, %.0f GB/s, %.1f%% of copy\n",
           G, graph_us, graph_gbs, 100.0 * graph_gbs / copy_gbs);
    expect(check_sum(p.base, ha, hb, n, 0), "graph replay result equals a + b");

    /* host overhead: wall time of fuser_execute for a small problem (so the
     * GPU keeps up and the launch queue never blocks), per call */
    enum { H = 20000 };
    static double host[H];
    int64_t small = 1 << 16;
    int64_t shape_s[1] = {small};
    DLTensor sa = f32_tensor(da, 0, shape_s), sb = f32_tensor(db, 0, shape_s);
    fuser_arg sargs[3] = {fuser_arg_tensor(&sa), fuser_arg_tensor(&sb), fuser_arg_int(0)};
    const char *modes[2] = {"runtime allocator (cuMemAllocAsync)", "caller allocator (pool)"};
    for (int mode = 0; mode < 2; mode++) {
      fuser_function *f = mode ? gfn : fn;
      fuser_runtime *r = mode ? rt2 : rt;
      double release_total = 0;
      for (int i = 0; i < H; i++) {
        double s = now_us();
        rc = fuser_execute(f, sargs, 3, out, 2, &err);
        double e = now_us();
        host[i] = e - s;
        fuser_output_release(r, &out[0]);
        release_total += now_us() - e;
        if (rc) {
          fprintf(stderr, "execute: %s\n", err.message);
          return 1;
        }
        if (i % 512 == 511) CU(cu->cuStreamSynchronize(stream));
      }
      CU(cu->cuStreamSynchronize(stream));
      double med = median(host, H);
      printf("host overhead, %s: fuser_execute median %.2f us, p10 %.2f, p90 %.2f, p99 %.2f over %d calls; "
             "fuser_output_release mean %.2f us\n",
             modes[mode], med, percentile(host, H, 0.10), percentile(host, H, 0.90), percentile(host, H, 0.99), H,
             release_total / H);
      expect(med <= 5.0, mode ? "host overhead <= 5 us (caller allocator)" : "host overhead <= 5 us (runtime allocator)");
    }
    /* the floor: a bare cuLaunchKernel of the same kernel */
    {
      CUfunction raw = NULL;
      CUmodule mod;
      CU(cu->cuModuleLoadDataEx(&mod, ptx, 0, NULL, NULL));
      CU(cu->cuModuleGetFunction(&raw, mod, "add_vec4"));
      CUdeviceptr o = p.base;
      long long nn = small;
      void *params[4] = {&da, &db, &o, &nn};
      for (int i = 0; i < H; i++) {
        double s = now_us();
        CU(cu->cuLaunchKernel(raw, (unsigned)(small / 4 / 256), 1, 1, 256, 1, 1, 0, stream, params, NULL));
        host[i] = now_us() - s;
        if (i % 512 == 511) CU(cu->cuStreamSynchronize(stream));
      }
      CU(cu->cuStreamSynchronize(stream));
      printf("host time of a bare cuLaunchKernel (floor): median %.2f us\n", median(host, H));
      cu->cuModuleUnload(mod);
    }
    fuser_function_destroy(gfn);
    fuser_runtime_destroy(rt2);
    cu->cuGraphExecDestroy(exec);
    cu->cuGraphDestroy(graph);
    cu->cuMemFree(p.base);
    cu->cuMemFree(dc);
  }

  fuser_function_destroy(fn);
  fuser_artifact_release(art);
  cu->cuMemFree(da);
  cu->cuMemFree(db);
  cu->cuStreamDestroy(stream);
  fuser_runtime_destroy(rt);
  free(ha);
  free(hb);
  free(ptx);
  printf("%s: %d failures\n", failures ? "SELFTEST FAILED" : "SELFTEST PASSED", failures);
  return failures ? 1 : 0;
}
