/* fuser-run --serve MANIFEST: many artifacts in one process, timed on
 * request. bench/gpu/ab_bench.py starts one such process per runtime (the
 * baseline's and this tree's) and alternates its requests between them, so
 * that an A/B comparison pays the driver start, the module loads and the
 * input generation once per process instead of once per measurement
 * (session 5: ~7 s per `fuser-run --artifact F --bench N`, most of it that
 * set-up), and both sides are measured in turn in the same machine state.
 *
 *   fuser-run --serve MANIFEST [--zero-inputs] [--no-fetch] [--seed N]
 *
 * MANIFEST: one artifact a line, `NAME PATH [--check] [--check-ulp N]`
 * (bench/gpu/check_bounds.sh's flags). At start each is loaded, its inputs
 * made (zeroed device memory with --zero-inputs), called once and its
 * outputs printed (and checked: "check:" lines) exactly as
 * `fuser-run --artifact PATH` prints them (--no-fetch: called once, no
 * output copied back or printed, for artifacts without --check: the large
 * outputs' checksums took seconds apiece); then "ready N" (N artifacts
 * started; one that fails says why and is left out). Requests, one a line
 * on stdin, each answered by one JSON line on stdout:
 *   bench NAME N   fuser-run --bench N's line (events, CUDA graph, host,
 *                  copy bandwidth)
 *   host NAME N    host time only: {"case", "host_us" (the median of N
 *                  calls one at a time, each after the GPU went idle, as
 *                  --bench's host_us; after N/10 + 5 warm-up calls),
 *                  "host_min_us", "host_batch_us" (the median over 10
 *                  batches of N/10 calls issued back to back, per call),
 *                  "host_batch_min_us", "calls", "batch"}
 * An unknown name or request gets {"error": ...}. End of input ends it. */
#include "tools/fuser-run/serve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fuser-run/artifact_run.h"

#define SERVE_MAX 128

typedef struct {
  char name[128];
  fuser_artifact *art;
  fuser_function *fn;
  fuser_run_session s;
  size_t nkernels, nout, out_bytes;
} served;

/* One manifest line: NAME PATH [--check] [--check-ulp N]. */
static bool start_one(const fuser_run_session *base, char *line, uint64_t seed, bool no_fetch, served *e) {
  char *save = NULL, *name = strtok_r(line, " \t\n", &save), *path = strtok_r(NULL, " \t\n", &save);
  if (!name || !path) return false;
  bool check = false;
  long long ulp = 0;
  for (char *t; (t = strtok_r(NULL, " \t\n", &save));) {
    if (strcmp(t, "--check") == 0) check = true;
    else if (strcmp(t, "--check-ulp") == 0 && (t = strtok_r(NULL, " \t\n", &save))) ulp = atoll(t);
    else {
      fprintf(stderr, "fuser-run: error: --serve: %s: unknown manifest option '%s'\n", name, t);
      return false;
    }
  }
  if (check && base->zero_inputs) {
    fprintf(stderr, "fuser-run: error: --serve: %s: --check with --zero-inputs (the reference is of the recipes' values)\n", name);
    return false;
  }
  snprintf(e->name, sizeof e->name, "%s", name);
  fuser_error err = {0};
  if (fuser_artifact_read_file(path, &e->art, &err) != FUSER_OK) {
    fprintf(stderr, "fuser-run: error: %s\n", err.message);
    return false;
  }
  /* every entry shares the first session's driver, runtime and stream */
  e->s = (fuser_run_session){.cu = base->cu, .rt = base->rt, .stream = base->stream, .zero_inputs = base->zero_inputs};
  if (!fuser_run_start_artifact(&e->s, e->art, e->name, seed, 0, &e->fn)) return false;
  e->nkernels = fuser_artifact_num_kernels(e->art);
  e->nout = fuser_artifact_num_outputs(e->art);
  if (no_fetch && !check) { /* one call, nothing copied back (host-time runs: the outputs of zeroed inputs say little) */
    if (!fuser_run_time_calls(&e->s, e->nout, 1, 0, NULL, NULL)) printf("%s: FAILED its first call\n", e->name);
    return true;
  }
  fuser_run_set_check_ulp(ulp);
  fuser_run_output_plan plan = {NULL, check ? fuser_run_check_recorded : NULL, e->art, false};
  bool ok = fuser_run_outputs(&e->s, e->nout, &plan, &e->out_bytes);
  if (!ok) printf("%s: FAILED its first call or check\n", e->name);
  return true; /* a failed check is reported, the entry still serves */
}

#define HOST_BATCHES 10

static void host_request(served *e, int n) {
  double *dev = calloc((size_t)n, sizeof *dev), *host = calloc((size_t)n, sizeof *host), batch[HOST_BATCHES];
  int k = n / HOST_BATCHES > 0 ? n / HOST_BATCHES : 1;
  if (!dev || !host || !fuser_run_time_calls(&e->s, e->nout, 5 + n / 10, n, dev, host) ||
      !fuser_run_time_batches(&e->s, e->nout, HOST_BATCHES, k, batch)) {
    printf("{\"case\": \"%s\", \"error\": \"the timed calls failed\"}\n", e->name);
  } else {
    double med = fuser_run_median(host, n), bmed = fuser_run_median(batch, HOST_BATCHES); /* sorted: [0] is the minimum */
    printf("{\"case\": \"%s\", \"host_us\": %.3f, \"host_min_us\": %.3f, \"host_batch_us\": %.3f, "
           "\"host_batch_min_us\": %.3f, \"calls\": %d, \"batch\": %d}\n",
           e->name, med, host[0], bmed, batch[0], n, k);
  }
  free(dev);
  free(host);
}

static void release(served *e) {
  if (e->fn) fuser_function_destroy(e->fn);
  if (e->art) fuser_artifact_release(e->art);
  e->s.rt = NULL, e->s.stream = NULL; /* the first session's: closed once, last */
  fuser_run_close(&e->s);
}

int fuser_run_serve_main(int argc, char **argv) {
  const char *manifest = NULL;
  uint64_t seed = 0;
  bool no_fetch = false;
  fuser_run_session base = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];
    if (strcmp(a, "-serve") == 0 && i + 1 < argc) manifest = argv[++i];
    else if (strcmp(a, "-zero-inputs") == 0) base.zero_inputs = true;
    else if (strcmp(a, "-no-fetch") == 0) no_fetch = true;
    else if (strcmp(a, "-seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else {
      fprintf(stderr, "fuser-run: error: unknown or incomplete option '%s' for --serve\n", argv[i]);
      return 2;
    }
  }
  FILE *f = manifest ? fopen(manifest, "r") : NULL;
  if (!f) {
    fprintf(stderr, "fuser-run: error: --serve needs a readable manifest (NAME PATH [--check] [--check-ulp N] a line)\n");
    return 2;
  }
  if (!fuser_run_open(&base)) {
    fclose(f);
    return 1;
  }
  static served entries[SERVE_MAX];
  int n = 0;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    if (line[strspn(line, " \t\n")] == 0 || line[0] == '#') continue;
    if (n == SERVE_MAX) {
      fprintf(stderr, "fuser-run: error: --serve: more than %d artifacts\n", SERVE_MAX);
      break;
    }
    memset(&entries[n], 0, sizeof entries[n]);
    if (start_one(&base, line, seed, no_fetch, &entries[n])) n++;
    else release(&entries[n]);
  }
  fclose(f);
  printf("ready %d\n", n);
  fflush(stdout);
  while (fgets(line, sizeof line, stdin)) {
    char what[16], name[128];
    int calls = 0;
    served *e = NULL;
    if (sscanf(line, "%15s %127s %d", what, name, &calls) == 3 && calls > 0)
      for (int i = 0; i < n && !e; i++)
        if (strcmp(entries[i].name, name) == 0) e = &entries[i];
    if (!e) printf("{\"error\": \"unknown artifact or request (bench|host NAME CALLS)\"}\n");
    else if (strcmp(what, "bench") == 0) {
      if (!fuser_run_bench(&e->s, e->name, e->nkernels, e->nout, e->out_bytes, calls))
        printf("{\"case\": \"%s\", \"error\": \"the benchmark failed\"}\n", e->name);
    } else if (strcmp(what, "host") == 0) host_request(e, calls);
    else printf("{\"error\": \"unknown request '%s' (bench|host NAME CALLS)\"}\n", what);
    fflush(stdout);
  }
  for (int i = 0; i < n; i++) release(&entries[i]);
  fuser_run_close(&base);
  return 0;
}
