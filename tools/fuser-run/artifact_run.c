/* fuser-run --artifact F: runs a compiled fusion on the GPU with the runtime
 * alone (driver/, no MLIR), as it runs on the GPU machine.
 *
 *   fuser-run --artifact F [--seed N] [--check [--check-ulp N]] [--save DIR] [--bench N]
 *             [--caching-allocator]
 *             [--misalign K] [--describe] [--name NAME] [--zero-inputs] [--repeat] [--times]
 *
 * Inputs are made on the host from the artifact's input recipes (metadata
 * "inputs", the script's inputs block) with the reference evaluator's
 * seeded generator, copied to the device, and passed as DLTensors with the
 * script's sizes, strides and storage offsets (--misalign K shifts every
 * tensor input by K elements, to exercise the scalar fallback). Each output
 * is copied back and printed with the same checksums `fuser-run --cpu`
 * prints. --check compares them with the CPU reference's results recorded
 * at compile time (metadata "expected": checksums; "expected.<k>": the
 * values, when small): bit-exact, or the count of differing elements and
 * the largest difference in units in the last place. --zero-inputs makes
 * every tensor input zeroed device memory instead (no host generation or
 * copy: for host-time benchmarks of large fusions; not with --check).
 * --repeat calls the fusion a second time on the same inputs and
 * compares every output's bytes with the first call's (determinism, in one
 * process). --times prints where the run's wall time went (driver and
 * context, load + inputs, outputs, bench, close). --bench N times the
 * call with CUDA events (warm-up, median of N), per call inside a replayed
 * CUDA graph, the host time of the execute call, and the device-to-device
 * copy bandwidth measured in the same process, and prints a JSON line.
 *
 * The GPU session (inputs, outputs, comparison, benchmark) is shared with
 * `fuser-run script.py` (gpu_run.c), which compiles in-process through
 * libfuser and calls the fusion through a different fuser_run_call_fn. */
#include "tools/fuser-run/artifact_run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "driver/checked_math.h"
#include "driver/cuda_loader.h"
#include "driver/fuser_runtime.h"
#include "driver/half.h"
#include "driver/host_inputs.h"
#include "driver/tensor_io.h"

typedef struct {
  const char *artifact, *save_dir, *name;
  uint64_t seed;
  int bench, misalign;
  int check, describe, caching_allocator, zero_inputs, repeat, times;
} options;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n ? v[n / 2] : 0;
}

/* Every error of a session goes through here: the session's reporter
 * (fuser-run's GPU mode locates it in the user's file) or plain stderr. */
static bool session_fail(fuser_run_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool session_fail(fuser_run_session *s, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (s->report) s->report(s->report_ctx, msg);
  else fprintf(stderr, "fuser-run: error: %s\n", msg);
  return false;
}

static bool cu_ok(fuser_run_session *s, CUresult r, const char *what) {
  if (r == FUSER_CUDA_SUCCESS) return true;
  char buf[256];
  session_fail(s, "%s: %s", what, fuser_cuda_describe(s->cu, r, buf, sizeof buf));
  return false;
}

static bool parse(int argc, char **argv, options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] == '-') a++;
    bool has = i + 1 < argc;
    if (strcmp(a, "-artifact") == 0 && has) o->artifact = argv[++i];
    else if (strcmp(a, "-seed") == 0 && has) o->seed = strtoull(argv[++i], NULL, 0);
    else if (strcmp(a, "-save") == 0 && has) o->save_dir = argv[++i];
    else if (strcmp(a, "-bench") == 0 && has) o->bench = atoi(argv[++i]);
    else if (strcmp(a, "-misalign") == 0 && has) o->misalign = atoi(argv[++i]);
    else if (strcmp(a, "-name") == 0 && has) o->name = argv[++i];
    else if (strcmp(a, "-check") == 0) o->check = 1;
    else if (strcmp(a, "-caching-allocator") == 0) o->caching_allocator = 1;
    else if (strcmp(a, "-check-ulp") == 0 && has) fuser_run_set_check_ulp(atoll(argv[++i]));
    else if (strcmp(a, "-describe") == 0) o->describe = 1;
    else if (strcmp(a, "-zero-inputs") == 0) o->zero_inputs = 1;
    else if (strcmp(a, "-repeat") == 0) o->repeat = 1;
    else if (strcmp(a, "-times") == 0) o->times = 1;
    else {
      fprintf(stderr, "fuser-run: error: unknown or incomplete option '%s' for --artifact\n", argv[i]);
      return false;
    }
  }
  if (o->zero_inputs && o->check) {
    fprintf(stderr, "fuser-run: error: --zero-inputs with --check: the recorded reference is of the recipes' values\n");
    return false;
  }
  return o->artifact != NULL;
}

/* ---- the GPU session (artifact_run.h) ------------------------------------ */

/* The caching allocator of --caching-allocator: freed blocks are kept and
 * handed out again for the same size. All work is on the session's one
 * stream, so a block freed after the work queued so far may serve the next
 * call's work at once (stream order), as PyTorch's caching allocator does
 * per stream. Blocks go back to the driver when the session closes. */
#define BLOCK_CACHE_MAX 256

struct fuser_run_block_cache {
  const fuser_cuda_api *cu;
  int n;
  struct { CUdeviceptr ptr; size_t bytes; bool used; } blocks[BLOCK_CACHE_MAX];
};

static int cache_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  struct fuser_run_block_cache *c = ctx;
  (void)stream;
  for (int i = 0; i < c->n; i++)
    if (!c->blocks[i].used && c->blocks[i].bytes == bytes) {
      c->blocks[i].used = true;
      *ptr = (void *)(uintptr_t)c->blocks[i].ptr;
      return 0;
    }
  CUdeviceptr p;
  if (c->n == BLOCK_CACHE_MAX || c->cu->cuMemAlloc(&p, bytes) != FUSER_CUDA_SUCCESS) return 1;
  c->blocks[c->n].ptr = p, c->blocks[c->n].bytes = bytes, c->blocks[c->n].used = true;
  c->n++;
  *ptr = (void *)(uintptr_t)p;
  return 0;
}

static void cache_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  struct fuser_run_block_cache *c = ctx;
  (void)bytes, (void)stream;
  for (int i = 0; i < c->n; i++)
    if (c->blocks[i].ptr == (CUdeviceptr)(uintptr_t)ptr) c->blocks[i].used = false;
}

bool fuser_run_open(fuser_run_session *s) {
  int status;
  char msg[256];
  fuser_error err = {0};
  s->cu = fuser_cuda_get(&status, msg, sizeof msg);
  if (!s->cu) { /* about the machine, not the user's file: not located */
    fprintf(stderr, "fuser-run: error: %s\n", msg);
    if (s->no_driver_hint) fprintf(stderr, "fuser-run: note: %s\n", s->no_driver_hint);
    return false;
  }
  fuser_allocator allocator = {0};
  if (s->caching_allocator) {
    s->cache = calloc(1, sizeof *s->cache);
    s->cache->cu = s->cu;
    allocator = (fuser_allocator){s->cache, cache_alloc, cache_free};
  }
  if (fuser_runtime_create(0, NULL, s->caching_allocator ? &allocator : NULL, &s->rt, &err) != FUSER_OK) {
    session_fail(s, "%s", err.message);
    return false;
  }
  if (!cu_ok(s, s->cu->cuStreamCreate(&s->stream, FUSER_CU_STREAM_NON_BLOCKING), "cuStreamCreate")) return false;
  fuser_runtime_set_stream(s->rt, s->stream);
  return true;
}

void fuser_run_close(fuser_run_session *s) {
  if (!s->cu) return;
  if (s->stream) s->cu->cuStreamSynchronize(s->stream);
  for (int i = 0; i < s->nargs; i++) {
    if (s->device[i]) s->cu->cuMemFree(s->device[i]);
    free(s->host[i]);
  }
  if (s->rt) fuser_runtime_destroy(s->rt);
  if (s->cache) {
    for (int i = 0; i < s->cache->n; i++) s->cu->cuMemFree(s->cache->blocks[i].ptr);
    free(s->cache);
  }
}

bool fuser_run_make_inputs(fuser_run_session *s, const char *text, size_t nargs_expected, uint64_t seed, int misalign) {
  fuser_error err = {0};
  s->nargs = fuser_recipes_parse(text, s->recipes, FUSER_RUN_MAX_ARGS, &err);
  if (s->nargs < 0 || (size_t)s->nargs != nargs_expected) {
    session_fail(s, "input recipes: %s", s->nargs < 0 ? err.message : "count differs from the signature");
    if (s->nargs < 0) s->nargs = 0;
    return false;
  }
  for (int i = 0; i < s->nargs; i++) {
    fuser_input_recipe *r = &s->recipes[i];
    if (!r->tensor) {
      bool is_float = r->dtype == FUSER_TYPE_F32 || r->dtype == FUSER_TYPE_F64;
      s->args[i] = is_float ? fuser_arg_double(r->value) : fuser_arg_int(r->is_int ? r->ivalue : (int64_t)r->value);
      continue;
    }
    size_t es = fuser_type_size(r->dtype);
    size_t shift = r->rank ? (size_t)misalign : 0, bytes;
    if (fuser_input_storage_bytes(r->numel, (int64_t)shift, es, &bytes, &err) != FUSER_OK) {
      session_fail(s, "input %d: %s", i, err.message);
      return false;
    }
    if (s->zero_inputs) {
      if (!cu_ok(s, s->cu->cuMemAlloc(&s->device[i], bytes ? bytes : 16), "cuMemAlloc") ||
          (bytes && !cu_ok(s, s->cu->cuMemsetD8Async(s->device[i], 0, bytes, s->stream), "cuMemsetD8Async")) ||
          !cu_ok(s, s->cu->cuStreamSynchronize(s->stream), "cuStreamSynchronize"))
        return false;
    } else {
      s->host[i] = calloc(bytes ? bytes : 1, 1);
      if (!s->host[i]) {
        session_fail(s, "input %d: out of host memory for %zu bytes", i, bytes);
        return false;
      }
      if (fuser_recipe_fill(r, seed, i, (char *)s->host[i] + shift * es, &err) != FUSER_OK) {
        session_fail(s, "input %d: %s", i, err.message);
        return false;
      }
      if (!cu_ok(s, s->cu->cuMemAlloc(&s->device[i], bytes ? bytes : 16), "cuMemAlloc") ||
          (bytes && !cu_ok(s, s->cu->cuMemcpyHtoD(s->device[i], s->host[i], bytes), "cuMemcpyHtoD")))
        return false;
    }
    DLTensor *t = &s->tensors[i];
    memset(t, 0, sizeof *t);
    t->data = (void *)(uintptr_t)s->device[i];
    t->device = (DLDevice){kDLCUDA, 0};
    t->ndim = r->rank;
    t->dtype = fuser_type_to_dlpack(r->dtype);
    for (int d = 0; d < r->rank; d++) s->shapes[i][d] = r->sizes[d], s->strides[i][d] = r->strides[d];
    t->shape = s->shapes[i];
    t->strides = s->strides[i];
    t->byte_offset = ((uint64_t)r->offset + shift) * es;
    s->args[i] = fuser_arg_tensor(t);
    s->input_bytes += (size_t)fuser_tensor_numel(t) * es;
  }
  /* cuMemcpyHtoD from pageable memory runs on the legacy stream and may
   * return before its DMA lands; the kernels run on s->stream, a
   * non-blocking stream that is not ordered after the legacy one. Without
   * this a first call could read inputs still in flight (session 9 on the
   * H200: half of slice1_small's output wrong while another process was
   * uploading; test/driver/inputs-before-launch.test). */
  return cu_ok(s, s->cu->cuCtxSynchronize(), "cuCtxSynchronize");
}

/* The output copied to the host (its span of memory, strides kept). */
static void *fetch_output(fuser_run_session *s, size_t k, const fuser_output *out, DLTensor *host, size_t *span_out) {
  const DLTensor *t = &out->tensor;
  int dt = fuser_type_from_dlpack(t->dtype);
  size_t es = fuser_type_size(dt);
  int64_t lo, hi, elems;
  bool empty;
  size_t span = 0;
  /* the runtime proved the view inside its buffer (validate.c); a span that
   * does not fit is still refused here rather than copied */
  if (!fuser_view_span(0, t->shape, t->strides, t->ndim, &lo, &hi, &empty) || lo < 0 ||
      (!empty && (!fuser_add_i64(hi, 1, &elems) || !fuser_bytes_of(elems, es, &span)))) {
    session_fail(s, "output %zu: its view of %d dims does not fit in memory", k, t->ndim);
    return NULL;
  }
  if (empty) span = 0;
  void *buf = malloc(span ? span : 1);
  if (!buf) {
    session_fail(s, "output %zu: out of host memory for %zu bytes", k, span);
    return NULL;
  }
  if (span && !cu_ok(s, s->cu->cuMemcpyDtoH(buf, (CUdeviceptr)(uintptr_t)t->data + t->byte_offset, span), "cuMemcpyDtoH")) {
    free(buf);
    return NULL;
  }
  *host = *t;
  *span_out = span;
  host->data = buf;
  host->byte_offset = 0;
  host->device = (DLDevice){kDLCPU, 0};
  return buf;
}

static long long ulp_distance(double a, double b, int dt) {
  if (isnan(a) && isnan(b)) return 0;
  if (dt == FUSER_TYPE_BF16 || dt == FUSER_TYPE_F16) {
    uint16_t x = dt == FUSER_TYPE_BF16 ? fuser_f64_to_bf16(a) : fuser_f64_to_f16(a);
    uint16_t y = dt == FUSER_TYPE_BF16 ? fuser_f64_to_bf16(b) : fuser_f64_to_f16(b);
    int ix = x & 0x8000 ? -(x & 0x7fff) : x, iy = y & 0x8000 ? -(y & 0x7fff) : y;
    return llabs((long long)ix - iy);
  }
  if (dt == FUSER_TYPE_F32) {
    float fa = (float)a, fb = (float)b;
    int32_t ia, ib;
    memcpy(&ia, &fa, 4);
    memcpy(&ib, &fb, 4);
    if (ia < 0) ia = (int32_t)0x80000000 - ia;
    if (ib < 0) ib = (int32_t)0x80000000 - ib;
    return llabs((long long)ia - ib);
  }
  return a == b ? 0 : 1;
}

/* --check-ulp N: how far an output may be from the reference and still pass */
static long long check_ulp;

void fuser_run_set_check_ulp(long long ulp) { check_ulp = ulp; }

bool fuser_run_compare(const DLTensor *got, const DLTensor *want) {
  int dt = fuser_type_from_dlpack(got->dtype);
  bool same_shape = got->ndim == want->ndim && dt == fuser_type_from_dlpack(want->dtype);
  for (int d = 0; same_shape && d < got->ndim; d++) same_shape = got->shape[d] == want->shape[d];
  if (!same_shape) {
    printf("  check: DIFFERS: dtype or shape differs from the CPU reference's\n");
    return false;
  }
  uint64_t fnv = fuser_tensor_fnv1a(got);
  if (fnv == fuser_tensor_fnv1a(want)) {
    printf("  check: bit-identical to the CPU reference (fnv1a %016llx)\n", (unsigned long long)fnv);
    return true;
  }
  int64_t n = fuser_tensor_numel(got), differ = 0;
  long long worst = 0;
  double worst_abs = 0;
  double *a = malloc(sizeof *a * (size_t)(n ? n : 1)), *b = malloc(sizeof *b * (size_t)(n ? n : 1));
  fuser_tensor_to_f64(got, a);
  fuser_tensor_to_f64(want, b);
  for (int64_t i = 0; i < n; i++) {
    if (memcmp(&a[i], &b[i], sizeof a[i]) == 0) continue;
    differ++;
    long long u = ulp_distance(a[i], b[i], dt);
    if (u > worst) worst = u;
    if (fabs(a[i] - b[i]) > worst_abs) worst_abs = fabs(a[i] - b[i]);
  }
  free(a);
  free(b);
  bool pass = differ == 0 || worst <= check_ulp;
  printf("  check: %lld of %lld elements differ from the CPU reference, at most %lld ulp (abs %.3g)%s\n", (long long)differ,
         (long long)n, worst, worst_abs, differ == 0 ? "" : pass ? ": within --check-ulp" : ": FAILED");
  return pass;
}

static void print_output(int k, const DLTensor *h) {
  int dt = fuser_type_from_dlpack(h->dtype);
  printf("output %d: %s [", k, fuser_type_name(dt));
  for (int d = 0; d < h->ndim; d++) printf("%s%lld", d ? ", " : "", (long long)h->shape[d]);
  printf("] strides [");
  for (int d = 0; d < h->ndim; d++) printf("%s%lld", d ? ", " : "", (long long)h->strides[d]);
  double sum;
  uint64_t fnv;
  fuser_tensor_checksums(h, &sum, &fnv);
  printf("]\n  checksum: sum %.17g fnv1a %016llx\n  first:", sum, (unsigned long long)fnv);
  bool is_int = dt == FUSER_TYPE_I64 || dt == FUSER_TYPE_I32 || dt == FUSER_TYPE_BOOL;
  for (int64_t i = 0; i < 8 && i < fuser_tensor_numel(h); i++)
    if (is_int) printf(" %lld", (long long)fuser_tensor_element_i64(h, i));
    else printf(" %.6g", fuser_tensor_element(h, i));
  printf("\n");
}

static bool save_npy(fuser_run_session *s, const DLTensor *t, const char *dir, const char *stem, int k) {
  char path[1024];
  fuser_error err = {0};
  snprintf(path, sizeof path, "%s/%s_%d.npy", dir, stem, k);
  if (fuser_tensor_save_npy(t, path, &err) == FUSER_OK) return true;
  session_fail(s, "%s", err.message);
  return false;
}

/* --repeat: the call once more on the same inputs, each output's bytes
 * compared with the first call's (kept[k], span[k] bytes): a reduction must
 * give the same bits on every run (issue 13). One process, one set of
 * inputs: a second fuser-run would make the inputs again (seconds for the
 * large ones). */
static bool repeat_same_bits(fuser_run_session *s, size_t nout, void **kept, const size_t *span) {
  fuser_output outs[FUSER_RUN_MAX_OUTPUTS];
  fuser_error err = {0};
  if (s->call(s->call_ctx, s->args, (size_t)s->nargs, outs, nout, &err) != FUSER_OK) return session_fail(s, "%s", err.message);
  bool same = cu_ok(s, s->cu->cuStreamSynchronize(s->stream), "cuStreamSynchronize");
  for (size_t k = 0; k < nout; k++) {
    DLTensor host;
    size_t bytes = 0;
    void *buf = same ? fetch_output(s, k, &outs[k], &host, &bytes) : NULL;
    if (!buf) same = false;
    else if (bytes != span[k] || memcmp(buf, kept[k], bytes) != 0) {
      size_t differ = 0;
      for (size_t b = 0; b < bytes && b < span[k]; b++) differ += ((const char *)buf)[b] != ((const char *)kept[k])[b];
      printf("  repeat: output %zu DIFFERS in a second call (%zu of %zu bytes)\n", k, differ, span[k]);
      same = false;
    } else printf("  repeat: output %zu has the same bits in a second call\n", k);
    free(buf);
    fuser_output_release(s->rt, &outs[k]);
  }
  return same;
}

bool fuser_run_outputs(fuser_run_session *s, size_t nout, const fuser_run_output_plan *plan, size_t *out_bytes) {
  fuser_output outs[FUSER_RUN_MAX_OUTPUTS];
  void *kept[FUSER_RUN_MAX_OUTPUTS] = {0};
  size_t span[FUSER_RUN_MAX_OUTPUTS] = {0};
  fuser_error err = {0};
  if (nout > FUSER_RUN_MAX_OUTPUTS) {
    session_fail(s, "more than %d outputs", FUSER_RUN_MAX_OUTPUTS);
    return false;
  }
  if (s->call(s->call_ctx, s->args, (size_t)s->nargs, outs, nout, &err) != FUSER_OK) {
    session_fail(s, "%s", err.message);
    return false;
  }
  if (!cu_ok(s, s->cu->cuStreamSynchronize(s->stream), "cuStreamSynchronize")) return false;
  bool all_ok = true;
  size_t k = 0;
  *out_bytes = 0;
  if (plan->save_dir) mkdir(plan->save_dir, 0755);
  for (; k < nout; k++) {
    DLTensor host;
    void *buf = fetch_output(s, k, &outs[k], &host, &span[k]);
    if (!buf) break;
    *out_bytes += (size_t)fuser_tensor_numel(&host) * fuser_type_size(fuser_type_from_dlpack(host.dtype));
    print_output((int)k, &host);
    if (plan->check) all_ok &= plan->check(plan->check_ctx, (int)k, &host);
    if (plan->save_dir) all_ok &= save_npy(s, &host, plan->save_dir, "output", (int)k);
    if (plan->repeat) kept[k] = buf;
    else free(buf);
    fuser_output_release(s->rt, &outs[k]);
  }
  for (size_t j = k; j < nout; j++) fuser_output_release(s->rt, &outs[j]);
  if (k == nout && plan->repeat) all_ok &= repeat_same_bits(s, nout, kept, span);
  for (size_t j = 0; j < nout; j++) free(kept[j]);
  if (k < nout) return false;
  for (int i = 0; plan->save_dir && i < s->nargs; i++) {
    if (!s->recipes[i].tensor) continue;
    DLTensor h = s->tensors[i];
    h.data = s->host[i];
    h.device = (DLDevice){kDLCPU, 0};
    all_ok &= save_npy(s, &h, plan->save_dir, "input", i);
  }
  return all_ok;
}

/* One call + release of the outputs. */
static bool call_once(fuser_run_session *s, fuser_output *outs, size_t nout) {
  fuser_error err = {0};
  if (s->call(s->call_ctx, s->args, (size_t)s->nargs, outs, nout, &err) != FUSER_OK) {
    session_fail(s, "%s", err.message);
    return false;
  }
  for (size_t k = 0; k < nout; k++) fuser_output_release(s->rt, &outs[k]);
  return true;
}

static double copy_bandwidth(fuser_run_session *s, CUstream st) {
  size_t bytes = (size_t)1 << 30;
  CUdeviceptr a, b;
  if (s->cu->cuMemAlloc(&a, bytes) || s->cu->cuMemAlloc(&b, bytes)) return 0;
  CUevent e0, e1;
  s->cu->cuEventCreate(&e0, 0);
  s->cu->cuEventCreate(&e1, 0);
  double t[10];
  for (int i = 0; i < 12; i++) {
    s->cu->cuEventRecord(e0, st);
    s->cu->cuMemcpyDtoDAsync(b, a, bytes, st);
    s->cu->cuEventRecord(e1, st);
    s->cu->cuEventSynchronize(e1);
    float ms;
    s->cu->cuEventElapsedTime(&ms, e0, e1);
    if (i >= 2) t[i - 2] = ms * 1e3;
  }
  s->cu->cuMemFree(a);
  s->cu->cuMemFree(b);
  s->cu->cuEventDestroy(e0);
  s->cu->cuEventDestroy(e1);
  return 2.0 * bytes / median(t, 10) / 1e3; /* GB/s: read + write */
}

bool fuser_run_time_calls(fuser_run_session *s, size_t nout, int warmup, int n, double *dev, double *host) {
  const fuser_cuda_api *cu = s->cu;
  CUstream st = s->stream;
  fuser_output outs[FUSER_RUN_MAX_OUTPUTS];
  if (nout > FUSER_RUN_MAX_OUTPUTS) return false;
  for (int i = 0; i < warmup; i++)
    if (!call_once(s, outs, nout)) return false;
  cu->cuStreamSynchronize(st);
  CUevent e0, e1;
  cu->cuEventCreate(&e0, 0);
  cu->cuEventCreate(&e1, 0);
  fuser_error err = {0}; /* outside the timed region */
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    cu->cuEventRecord(e0, st);
    double h0 = now_us();
    if (s->call(s->call_ctx, s->args, (size_t)s->nargs, outs, nout, &err) != FUSER_OK) {
      ok = session_fail(s, "%s", err.message);
      break;
    }
    host[i] = now_us() - h0;
    cu->cuEventRecord(e1, st);
    for (size_t k = 0; k < nout; k++) fuser_output_release(s->rt, &outs[k]);
    cu->cuEventSynchronize(e1);
    float ms;
    cu->cuEventElapsedTime(&ms, e0, e1);
    dev[i] = ms * 1e3;
  }
  cu->cuEventDestroy(e0);
  cu->cuEventDestroy(e1);
  return ok;
}

bool fuser_run_time_batches(fuser_run_session *s, size_t nout, int batches, int k, double *per_call) {
  fuser_output outs[FUSER_RUN_MAX_OUTPUTS];
  fuser_error err = {0};
  if (nout > FUSER_RUN_MAX_OUTPUTS) return false;
  for (int b = 0; b < batches; b++) {
    if (!cu_ok(s, s->cu->cuStreamSynchronize(s->stream), "cuStreamSynchronize")) return false;
    double t0 = now_us();
    for (int i = 0; i < k; i++) {
      if (s->call(s->call_ctx, s->args, (size_t)s->nargs, outs, nout, &err) != FUSER_OK) return session_fail(s, "%s", err.message);
      for (size_t j = 0; j < nout; j++) fuser_output_release(s->rt, &outs[j]);
    }
    per_call[b] = (now_us() - t0) / k;
  }
  return cu_ok(s, s->cu->cuStreamSynchronize(s->stream), "cuStreamSynchronize");
}

double fuser_run_median(double *v, int n) { return median(v, n); }

bool fuser_run_bench(fuser_run_session *s, const char *name, size_t nkernels, size_t nout, size_t out_bytes, int n) {
  const fuser_cuda_api *cu = s->cu;
  CUstream st = s->stream;
  fuser_output outs[FUSER_RUN_MAX_OUTPUTS];
  if (nout > FUSER_RUN_MAX_OUTPUTS) return false;
  double *dev = calloc(n, sizeof *dev), *host = calloc(n, sizeof *host);
  if (!fuser_run_time_calls(s, nout, 5, n, dev, host)) {
    free(dev);
    free(host);
    return false;
  }
  CUevent e0, e1;
  cu->cuEventCreate(&e0, 0);
  cu->cuEventCreate(&e1, 0);
  /* per call inside a replayed CUDA graph: no launch gaps */
  int inner = 10;
  double graph_us = -1;
  CUgraph g;
  CUgraphExec ge;
  if (cu->cuStreamBeginCapture(st, FUSER_CU_STREAM_CAPTURE_MODE_RELAXED) == FUSER_CUDA_SUCCESS) {
    bool ok = true;
    for (int i = 0; i < inner && ok; i++) ok = call_once(s, outs, nout);
    if (cu->cuStreamEndCapture(st, &g) == FUSER_CUDA_SUCCESS && ok && cu->cuGraphInstantiateWithFlags(&ge, g, 0) == FUSER_CUDA_SUCCESS) {
      double *gt = calloc(n, sizeof *gt);
      cu->cuGraphLaunch(ge, st);
      cu->cuStreamSynchronize(st);
      for (int i = 0; i < n; i++) {
        cu->cuEventRecord(e0, st);
        cu->cuGraphLaunch(ge, st);
        cu->cuEventRecord(e1, st);
        cu->cuEventSynchronize(e1);
        float ms;
        cu->cuEventElapsedTime(&ms, e0, e1);
        gt[i] = ms * 1e3 / inner;
      }
      graph_us = median(gt, n);
      free(gt);
      cu->cuGraphExecDestroy(ge);
      cu->cuGraphDestroy(g);
    }
  }
  double copy = copy_bandwidth(s, st);
  double us = median(dev, n), hus = median(host, n);
  double bytes = (double)(s->input_bytes + out_bytes);
  double best = graph_us > 0 && graph_us < us ? graph_us : us;
  printf("{\"case\": \"%s\", \"kernels\": %zu, \"us\": %.3f, \"graph_us\": %.3f, \"host_us\": %.3f, \"MB\": %.4f, "
         "\"GBps\": %.1f, \"copy_GBps\": %.1f, \"pct_copy\": %.1f, \"allocator\": \"%s\"}\n",
         name, nkernels, us, graph_us, hus, bytes / 1e6, bytes / best / 1e3, copy,
         copy > 0 ? 100.0 * (bytes / best / 1e3) / copy : 0, s->caching_allocator ? "caching" : "runtime");
  free(dev);
  free(host);
  cu->cuEventDestroy(e0);
  cu->cuEventDestroy(e1);
  return true;
}

/* ---- fuser-run --artifact F -------------------------------------------- */

static int execute_function(void *fn, const fuser_arg *args, size_t nargs, fuser_output *outs, size_t nout, fuser_error *err) {
  return fuser_execute(fn, args, nargs, outs, nout, err);
}

/* Compares output k with the reference recorded at compile time: metadata
 * "expected" (checksums) and "expected.<k>" (the values, row-major, when
 * small). */
bool fuser_run_check_recorded(void *ctx, int k, const DLTensor *host) {
  const fuser_artifact *art = ctx;
  char key[32];
  size_t len;
  snprintf(key, sizeof key, "expected.%d", k);
  const void *want = fuser_artifact_metadata(art, key, &len);
  const char *sums = fuser_artifact_metadata(art, "expected", &len);
  unsigned long long fnv = 0;
  if (sums) {
    char pat[32];
    snprintf(pat, sizeof pat, "output %d fnv ", k);
    const char *p = strstr(sums, pat);
    if (p) fnv = strtoull(p + strlen(pat), NULL, 16);
  }
  uint64_t got = fuser_tensor_fnv1a(host);
  if (sums && got == fnv) {
    printf("  check: bit-identical to the CPU reference (fnv1a %016llx)\n", (unsigned long long)got);
    return true;
  }
  if (!want) {
    printf("  check: %s (fnv1a %016llx, reference %016llx; no reference values recorded)\n", sums ? "DIFFERS" : "no reference",
           (unsigned long long)got, fnv);
    return !sums;
  }
  DLTensor ref = *host; /* the recorded values: same dtype and shape, compact row-major */
  ref.data = (void *)want;
  ref.byte_offset = 0;
  ref.strides = NULL;
  return fuser_run_compare(host, &ref);
}

bool fuser_run_start_artifact(fuser_run_session *s, fuser_artifact *art, const char *name, uint64_t seed, int misalign,
                              fuser_function **fn) {
  fuser_error err = {0};
  if (fuser_load(s->rt, art, fn, &err) != FUSER_OK) return session_fail(s, "%s", err.message);
  s->call = execute_function;
  s->call_ctx = *fn;
  size_t len;
  const char *recipes = fuser_artifact_metadata(art, "inputs", &len);
  if (!recipes) return session_fail(s, "the artifact has no input recipes (metadata \"inputs\")");
  if (!fuser_run_make_inputs(s, recipes, fuser_artifact_num_inputs(art), seed, misalign)) return false;
  int variants[64] = {0};
  if (fuser_artifact_check_inputs(art, s->args, (size_t)s->nargs, variants, &err) != FUSER_OK)
    return session_fail(s, "%s", err.message);
  size_t nk = fuser_artifact_num_kernels(art);
  printf("%s: %zu kernel%s, variants:", name, nk, nk == 1 ? "" : "s");
  for (size_t k = 0; k < nk && k < 64; k++) printf(" %d", variants[k]);
  printf(" (0 = first, the vectorized one)\n");
  return true;
}

int fuser_run_artifact_main(int argc, char **argv) {
  options o = {0};
  if (!parse(argc, argv, &o)) return 2;
  fuser_run_session s = {0};
  fuser_error err = {0};
  fuser_artifact *art;
  double t0 = now_us(), t_open = 0, t_start = 0, t_outputs = 0, t_bench = 0;
  if (fuser_artifact_read_file(o.artifact, &art, &err) != FUSER_OK) {
    fprintf(stderr, "fuser-run: error: %s\n", err.message);
    return 1;
  }
  if (o.describe) fuser_artifact_describe(art, stdout);
  int rc = 1;
  fuser_function *fn = NULL;
  s.caching_allocator = o.caching_allocator;
  s.zero_inputs = o.zero_inputs;
  if (!fuser_run_open(&s)) goto done;
  t_open = now_us();
  if (!fuser_run_start_artifact(&s, art, o.name ? o.name : o.artifact, o.seed, o.misalign, &fn)) goto done;
  t_start = now_us();
  size_t nk = fuser_artifact_num_kernels(art), nout = fuser_artifact_num_outputs(art), out_bytes = 0;
  fuser_run_output_plan plan = {o.save_dir, o.check ? fuser_run_check_recorded : NULL, art, o.repeat};
  bool all_ok = fuser_run_outputs(&s, nout, &plan, &out_bytes);
  t_outputs = now_us();
  if (o.bench > 0 && !fuser_run_bench(&s, o.name ? o.name : o.artifact, nk, nout, out_bytes, o.bench)) goto done;
  t_bench = now_us();
  rc = all_ok ? 0 : 1;
done:
  if (s.stream) s.cu->cuStreamSynchronize(s.stream);
  if (fn) fuser_function_destroy(fn);
  fuser_artifact_release(art);
  fuser_run_close(&s);
  /* --times: where a run's wall time goes (bench/gpu's harnesses are paced by it) */
  if (o.times && t_bench > 0)
    printf("times: open %.0f ms, load + inputs %.0f ms, outputs %.0f ms, bench %.0f ms, close %.0f ms\n", (t_open - t0) / 1e3,
           (t_start - t_open) / 1e3, (t_outputs - t_start) / 1e3, (t_bench - t_outputs) / 1e3, (now_us() - t_bench) / 1e3);
  return rc;
}
