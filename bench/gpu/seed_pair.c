/* seed_pair: the experiment of nvFuser issue #2613 on the GPU, with the
 * runtime alone. The same RoPE runs in its two fusion forms on the SAME
 * data: seed id1 reads the fused qkv projection [2, 1024, 576] and does the
 * reshape/permute/slice inside the fusion; seed id0 receives those views as
 * `as_strided` inputs, as lightning-thunder passes them when the meta ops
 * run outside the fusion. Here id0's four tensor inputs are views of id1's
 * qkv buffer (x1 = q[..., 0:16] at element offset 0, x2 = q[..., 16:32] at
 * offset 16, the empty q[..., 0:0], and q itself), with sizes (2, 16, 1024,
 * *) and strides (589824, 32, 576, 1), exactly the layout id0's script
 * declares. (id0's own script allocates a separate buffer per input, which
 * moves 1.7x the bytes: fuser-run --artifact times that case.)
 *
 *   seed_pair ID0.fart ID1.fart [N]
 *
 * It runs both once, requires their outputs to be bit-identical, then times
 * each per call inside a replayed CUDA graph (10 calls per replay, median of
 * N replays, the two interleaved so that clocks and caches treat them alike)
 * and prints one JSON line per form and the ratio. Build on the GPU machine:
 *   cc -std=c11 -O2 -I. bench/gpu/seed_pair.c build-runtime/libfuser_runtime.a -ldl -lpthread -lm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/cuda_loader.h"
#include "driver/fuser_runtime.h"
#include "driver/host_inputs.h"

#define CALLS_PER_REPLAY 10

typedef struct {
  const char *name;
  fuser_function *fn;
  fuser_arg args[6];
  size_t nargs;
  DLTensor t[6];
  int64_t shape[6][4], stride[6][4];
} form;

static const fuser_cuda_api *cu;

static void die(const char *what, const char *msg) {
  fprintf(stderr, "seed_pair: error: %s: %s\n", what, msg);
  exit(1);
}

static void ck(CUresult r, const char *what) {
  char buf[256];
  if (r != FUSER_CUDA_SUCCESS) die(what, fuser_cuda_describe(cu, r, buf, sizeof buf));
}

/* A bf16 DLTensor over device memory `base` at element `offset`. */
static void view(form *f, int i, CUdeviceptr base, int64_t offset, int rank, const int64_t *shape,
                 const int64_t *stride) {
  DLTensor *t = &f->t[i];
  memset(t, 0, sizeof *t);
  t->data = (void *)(uintptr_t)base;
  t->byte_offset = (uint64_t)offset * 2;
  t->device = (DLDevice){kDLCUDA, 0};
  t->ndim = rank;
  t->dtype = (DLDataType){kDLBfloat, 16, 1};
  memcpy(f->shape[i], shape, sizeof(int64_t) * (size_t)rank);
  memcpy(f->stride[i], stride, sizeof(int64_t) * (size_t)rank);
  t->shape = f->shape[i];
  t->strides = f->stride[i];
  f->args[i] = fuser_arg_tensor(t);
}

static fuser_function *load(fuser_runtime *rt, const char *path) {
  fuser_error err;
  fuser_artifact *a;
  fuser_function *fn;
  if (fuser_artifact_read_file(path, &a, &err) != FUSER_OK || fuser_load(rt, a, &fn, &err) != FUSER_OK)
    die(path, err.message);
  fuser_artifact_release(a);
  return fn;
}

static void call(form *f, fuser_output *out) {
  fuser_error err;
  if (fuser_execute(f->fn, f->args, f->nargs, out, 1, &err) != FUSER_OK) die(f->name, err.message);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: seed_pair ID0.fart ID1.fart [N]\n");
    return 2;
  }
  int n = argc > 3 ? atoi(argv[3]) : 50;
  if (n < 1) n = 1;
  int status;
  char msg[256];
  if (!(cu = fuser_cuda_get(&status, msg, sizeof msg))) die("CUDA", msg);
  fuser_runtime *rt;
  fuser_error err;
  CUstream st;
  if (fuser_runtime_create(0, NULL, NULL, &rt, &err) != FUSER_OK) die("runtime", err.message);
  ck(cu->cuStreamCreate(&st, FUSER_CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  fuser_runtime_set_stream(rt, st);

  /* id1's inputs from its own recipes (the script's inputs block) */
  form f1 = {.name = "seed_fusion_id1", .fn = load(rt, argv[2]), .nargs = 3};
  form f0 = {.name = "seed_fusion_id0 (views of id1's qkv)", .fn = load(rt, argv[1]), .nargs = 6};
  const fuser_artifact *a1 = fuser_function_artifact(f1.fn);
  size_t len;
  const char *text = fuser_artifact_metadata(a1, "inputs", &len);
  fuser_input_recipe r[3];
  if (!text || fuser_recipes_parse(text, r, 3, &err) != 3) die("id1's input recipes", text ? err.message : "absent");
  CUdeviceptr buf[3];
  for (int i = 0; i < 3; i++) {
    size_t bytes = (size_t)r[i].numel * 2;
    void *host = malloc(bytes);
    if (fuser_recipe_fill(&r[i], 0, i, host, &err) != FUSER_OK) die("inputs", err.message);
    ck(cu->cuMemAlloc(&buf[i], bytes), "cuMemAlloc");
    ck(cu->cuMemcpyHtoD(buf[i], host, bytes), "cuMemcpyHtoD");
    free(host);
    view(&f1, i, buf[i], r[i].offset, r[i].rank, r[i].sizes, r[i].strides);
  }
  /* the legacy stream's pageable copies may still be in flight, and `st` is
   * not ordered after them (tools/fuser-run/artifact_run.c says more) */
  ck(cu->cuCtxSynchronize(), "cuCtxSynchronize");
  /* id0: cos, sin, then x1, x2, the empty slice and q as views of qkv */
  view(&f0, 0, buf[0], r[0].offset, r[0].rank, r[0].sizes, r[0].strides);
  view(&f0, 1, buf[1], r[1].offset, r[1].rank, r[1].sizes, r[1].strides);
  const int64_t qs[4] = {589824, 32, 576, 1};
  view(&f0, 2, buf[2], 0, 4, (const int64_t[]){2, 16, 1024, 16}, qs);
  view(&f0, 3, buf[2], 16, 4, (const int64_t[]){2, 16, 1024, 16}, qs);
  view(&f0, 4, buf[2], 0, 4, (const int64_t[]){2, 16, 1024, 0}, qs);
  view(&f0, 5, buf[2], 0, 4, (const int64_t[]){2, 16, 1024, 32}, qs);

  /* one call each: the outputs must be bit-identical */
  fuser_output o0, o1;
  call(&f0, &o0);
  call(&f1, &o1);
  ck(cu->cuStreamSynchronize(st), "cuStreamSynchronize");
  size_t numel = 1;
  for (int d = 0; d < o1.tensor.ndim; d++) numel *= (size_t)o1.tensor.shape[d];
  if (o0.tensor.ndim != o1.tensor.ndim || o0.bytes != o1.bytes) die("outputs", "shapes differ");
  unsigned char *h0 = malloc(o0.bytes), *h1 = malloc(o1.bytes);
  ck(cu->cuMemcpyDtoH(h0, (CUdeviceptr)(uintptr_t)o0.tensor.data, o0.bytes), "cuMemcpyDtoH");
  ck(cu->cuMemcpyDtoH(h1, (CUdeviceptr)(uintptr_t)o1.tensor.data, o1.bytes), "cuMemcpyDtoH");
  int same = memcmp(h0, h1, o0.bytes) == 0;
  printf("seed_pair: %zu output elements, id0 on views of id1's qkv %s id1\n", numel,
         same ? "is bit-identical to" : "DIFFERS from");
  fuser_output_release(rt, &o0);
  fuser_output_release(rt, &o1);

  /* each form captured as a graph of CALLS_PER_REPLAY calls */
  form *forms[2] = {&f0, &f1};
  CUgraphExec ge[2];
  for (int k = 0; k < 2; k++) {
    CUgraph g;
    ck(cu->cuStreamBeginCapture(st, FUSER_CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
    for (int i = 0; i < CALLS_PER_REPLAY; i++) {
      fuser_output o;
      call(forms[k], &o);
      fuser_output_release(rt, &o);
    }
    ck(cu->cuStreamEndCapture(st, &g), "cuStreamEndCapture");
    ck(cu->cuGraphInstantiateWithFlags(&ge[k], g, 0), "cuGraphInstantiate");
    cu->cuGraphDestroy(g);
    ck(cu->cuGraphLaunch(ge[k], st), "cuGraphLaunch"); /* warm-up */
  }
  CUevent e0, e1;
  ck(cu->cuEventCreate(&e0, 0), "cuEventCreate");
  ck(cu->cuEventCreate(&e1, 0), "cuEventCreate");
  double *t[2] = {calloc((size_t)n, sizeof(double)), calloc((size_t)n, sizeof(double))};
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 2; k++) {
      int which = (i & 1) ? 1 - k : k; /* alternate which form goes first */
      float ms;
      ck(cu->cuEventRecord(e0, st), "cuEventRecord");
      ck(cu->cuGraphLaunch(ge[which], st), "cuGraphLaunch");
      ck(cu->cuEventRecord(e1, st), "cuEventRecord");
      ck(cu->cuEventSynchronize(e1), "cuEventSynchronize");
      ck(cu->cuEventElapsedTime(&ms, e0, e1), "cuEventElapsedTime");
      t[which][i] = ms * 1e3 / CALLS_PER_REPLAY;
    }
  double med[2];
  for (int k = 0; k < 2; k++) {
    qsort(t[k], (size_t)n, sizeof(double), cmp);
    med[k] = t[k][n / 2];
    printf("{\"case\": \"%s\", \"kernels\": %zu, \"graph_us\": %.3f, \"min_us\": %.3f, \"max_us\": %.3f}\n",
           forms[k]->name, fuser_artifact_num_kernels(fuser_function_artifact(forms[k]->fn)), med[k], t[k][0],
           t[k][n - 1]);
  }
  printf("seed_pair: id0/id1 kernel time ratio %.3f (same data; within 10%%: %s)\n", med[0] / med[1],
         med[0] / med[1] < 1.1 && med[1] / med[0] < 1.1 ? "yes" : "no");
  return same ? 0 : 1;
}
