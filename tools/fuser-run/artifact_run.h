/* artifact_run.h: `fuser-run --artifact F`, running a compiled fusion with
 * the runtime alone (no MLIR): how fusions run on the GPU machine; and the
 * GPU session both GPU modes share (the artifact mode here, the
 * compile-in-process mode in gpu_run.c): inputs made from recipes, outputs
 * fetched, printed, compared with a reference, saved, and the benchmark.
 * Everything here is MLIR-free (scripts/build-runtime.sh builds it). */
#ifndef FUSER_TOOLS_FUSER_RUN_ARTIFACT_RUN_H
#define FUSER_TOOLS_FUSER_RUN_ARTIFACT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "driver/cuda_loader.h"
#include "driver/fuser_runtime.h"
#include "driver/host_inputs.h"

/* Handles the argument vector of `fuser-run` when it names --artifact;
 * returns the process exit code. */
int fuser_run_artifact_main(int argc, char **argv);

#define FUSER_RUN_MAX_ARGS 64
#define FUSER_RUN_MAX_OUTPUTS 16

/* One call of the fusion under test: fuser_execute on a loaded function, or
 * fuser_fusion_execute on a libfuser fusion. */
typedef int (*fuser_run_call_fn)(void *ctx, const fuser_arg *args, size_t nargs, fuser_output *outs, size_t nout,
                                 fuser_error *err);

typedef struct {
  const fuser_cuda_api *cu;
  fuser_runtime *rt;
  CUstream stream;
  fuser_run_call_fn call;
  void *call_ctx;
  int nargs;
  fuser_input_recipe recipes[FUSER_RUN_MAX_ARGS];
  fuser_arg args[FUSER_RUN_MAX_ARGS];
  DLTensor tensors[FUSER_RUN_MAX_ARGS];
  int64_t shapes[FUSER_RUN_MAX_ARGS][FUSER_TENSOR_MAX_RANK], strides[FUSER_RUN_MAX_ARGS][FUSER_TENSOR_MAX_RANK];
  CUdeviceptr device[FUSER_RUN_MAX_ARGS];
  void *host[FUSER_RUN_MAX_ARGS];
  size_t input_bytes; /* bytes of the inputs' views, for bandwidth */
  /* --caching-allocator: outputs come from a free list of device blocks kept
   * across calls (as a framework's caching allocator), not cuMemAllocAsync */
  bool caching_allocator;
  /* --zero-inputs: tensor inputs are zeroed device memory of the recipes'
   * storage, no values made on the host (host time per call does not depend
   * on them; the large corpus inputs take seconds to generate) */
  bool zero_inputs;
  struct fuser_run_block_cache *cache;
  /* where errors go: NULL prints "fuser-run: error: <msg>"; fuser-run's GPU
   * mode locates each in the user's file (gpu_run.c) */
  void (*report)(void *ctx, const char *msg);
  void *report_ctx;
  const char *no_driver_hint; /* a note printed after "no CUDA driver" */
} fuser_run_session;

/* Opens the driver, creates the runtime on device 0 (with the caching
 * allocator when s->caching_allocator is set) and a non-blocking stream. Without a driver prints "fuser-run: error: no CUDA driver (...)"
 * and returns false. */
bool fuser_run_open(fuser_run_session *s);
/* Frees the inputs and destroys the runtime (functions must be gone). */
void fuser_run_close(fuser_run_session *s);

/* Makes every input on the host from recipe text (nargs_expected of them),
 * seeded like the CPU reference, copies it to the device, and fills
 * s->args (s->zero_inputs: zeroes the device storage instead). misalign
 * shifts every tensor input by that many elements. */
bool fuser_run_make_inputs(fuser_run_session *s, const char *recipes, size_t nargs_expected, uint64_t seed, int misalign);

/* What to do with each output. check (may be NULL) compares output k,
 * copied to the host, with a reference and prints the verdict. */
typedef struct {
  const char *save_dir; /* NULL: do not save */
  bool (*check)(void *ctx, int k, const DLTensor *host);
  void *check_ctx;
  /* call once more and compare every output's bytes with the first call's
   * (prints "repeat: output k has the same bits" or "DIFFERS") */
  bool repeat;
} fuser_run_output_plan;

/* Runs the call once, synchronises, fetches, prints, checks and saves every
 * output (and with save_dir the inputs); *out_bytes gets the outputs'
 * bytes. Returns false on any error or failed check (after all outputs). */
bool fuser_run_outputs(fuser_run_session *s, size_t nout, const fuser_run_output_plan *plan, size_t *out_bytes);

/* Compares `got` with `want` (host tensors of the same dtype and shape, any
 * strides) element by element in logical order and prints one line:
 * bit-identical, or how many elements differ and by how many ulp. */
bool fuser_run_compare(const DLTensor *got, const DLTensor *want);

/* Outputs that differ by at most `ulp` units in the last place still pass
 * the check (default 0: only bit-identical outputs pass). Reductions sum in
 * another order than the reference, so a bf16 result may round 1 ulp apart. */
void fuser_run_set_check_ulp(long long ulp);

/* Loads art into s's runtime (s must be open), makes its inputs from the
 * recipes, sets s->call to fuser_execute on *fn, checks the inputs and
 * prints "NAME: K kernels, variants: ...". */
bool fuser_run_start_artifact(fuser_run_session *s, fuser_artifact *art, const char *name, uint64_t seed, int misalign,
                              fuser_function **fn);

/* A fuser_run_output_plan check (ctx: the fuser_artifact): output k against
 * the CPU reference recorded at compile time (metadata "expected"). */
bool fuser_run_check_recorded(void *ctx, int k, const DLTensor *host);

/* After `warmup` untimed calls, n calls one at a time: dev[i] the call's
 * CUDA-event time (µs), host[i] the time fuser_execute took on the host
 * (µs); the outputs are released after each call. */
bool fuser_run_time_calls(fuser_run_session *s, size_t nout, int warmup, int n, double *dev, double *host);

/* Host µs per call of k calls issued back to back (outputs released after
 * each, no synchronisation between them: what a framework issuing fusions
 * in a row pays), `batches` times, the stream drained before each batch:
 * per_call[b]. */
bool fuser_run_time_batches(fuser_run_session *s, size_t nout, int batches, int k, double *per_call);

/* The median of v[0..n) (sorts v). */
double fuser_run_median(double *v, int n);

/* --bench: times n calls with CUDA events (after 5 warm-up calls; median),
 * per call inside a replayed CUDA graph, the host time of a call, and the
 * copy bandwidth measured in the same process; prints one JSON line. */
bool fuser_run_bench(fuser_run_session *s, const char *name, size_t nkernels, size_t nout, size_t out_bytes, int n);

#endif
