/* fuser-run: runs fusions and reports their outputs.
 *
 *   fuser-run [--gpu] [--check] [--bench N] [--artifact-out F] [--seed N]
 *             [--save DIR] [--misalign K] [--specialize-sizes] fusion.mlir|script.py
 *   fuser-run --cpu [--seed N] [--f64] [--save DIR] [--first N] [--dynamic-extent N] fusion.mlir|script.py
 *   fuser-run --artifact F [...]     a compiled fusion, on the GPU (artifact_run.c)
 *
 * The fusion runs on inputs made from its fuser.inputs attribute (the
 * script's inputs block) with the seeded generator. --gpu (the default)
 * compiles it in this process through libfuser and runs it on the GPU
 * (gpu_run.c); --check compares every output with the CPU reference.
 * --cpu runs every fusion of the input on the reference evaluator
 * (reference/reference.h); a fusion without fuser.inputs (hand-written IR)
 * gets seeded randn inputs of its declared shapes, every `?` extent
 * --dynamic-extent (default 8). On a terminal, a long --cpu run shows its
 * progress (ops evaluated) on stderr. For each output it prints the dtype, shape, strides, a checksum
 * (sum in double and FNV-1a of the bytes) and the first values; --save
 * writes the outputs and the inputs as NumPy .npy files, so that anyone can
 * rerun the fusion elsewhere (PyTorch: scripts/compare_torch.py) on the same
 * data. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "reference/reference.h"
#include "tools/common/tool_support.h"
#include "tools/fuser-run/artifact_run.h"
#include "tools/fuser-run/serve.h"
#include "tools/fuser-run/gpu_run.h"
#include "tools/fuser-run/load.h"
#include "tools/fuser-run/save_case.h"

typedef enum { MODE_GPU, MODE_CPU } run_mode;

typedef struct {
  const char *input, *save_dir, *save_case, *artifact_out;
  int misalign, bench;
  run_mode mode;
  uint64_t seed;
  bool f64, check, specialize_sizes;
  int first;
  int64_t dynamic_extent;
  const char *cpu_only, *gpu_only; /* an option given that the other mode lacks */
} options;

static void usage(FILE *f) {
  fputs("usage: fuser-run [--gpu|--cpu] [options] <fusion.mlir|script.py>\n"
        "       fuser-run --artifact F [options]   (a compiled artifact, runtime alone)\n"
        "       fuser-run --serve MANIFEST [--zero-inputs] [--no-fetch] [--seed N]   (many artifacts, timed on request: serve.c)\n"
        "  --gpu          compile in-process (libfuser) and run on the GPU (the default)\n"
        "  --cpu          run on the CPU reference evaluator\n"
        "  --seed N       seed of the input generator (default 0)\n"
        "GPU mode:\n"
        "  --check        compare every output with the CPU reference evaluator\n"
        "  --check-ulp N  with --check: accept outputs within N ulp (default 0: bit-identical;\n"
        "                 reductions sum in another order than the reference)\n"
        "  --bench N      time N calls (CUDA events, CUDA graph, host time, copy bandwidth)\n"
        "  --artifact-out F  write the compiled artifact (run it with --artifact F)\n"
        "  --misalign K   shift every tensor input by K elements (scalar fallback)\n"
        "  --specialize-sizes  compile the extents as constants\n"
        "  --save DIR     write DIR/output_<i>.npy and DIR/input_<i>.npy\n"
        "  --zero-inputs  (--artifact) zeroed device inputs, none made on the host (host-time benchmarks)\n"
        "  --repeat       (--artifact) call twice, compare every output's bytes (determinism)\n"
        "  --times        (--artifact) print where the run's wall time went\n"
        "CPU mode:\n"
        "  --f64          float64 mode: every op in double, casts still round\n"
        "  --save-case F  write inputs and outputs as a fuser-cpu-check case file\n"
        "  --misalign K   (with --save-case) shift tensor inputs by K elements\n"
        "  --save DIR     write each output as DIR/out<i>.npy and each input as\n"
        "                 DIR/in<i>.npy (NumPy format 1.0; bf16 as float32)\n"
        "  --first N      print the first N values of each output (default 8)\n"
        "  --dynamic-extent N  for IR without fuser.inputs: the extent of every `?`\n"
        "                 dim of the generated inputs (default 8)\n",
        f);
}

static bool parse_uint(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || !*s || *end || s[0] == '-') return false;
  *out = v;
  return true;
}

static bool parse_args(int argc, char **argv, options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] == '-' && a[2]) a++; /* -x and --x alike */
    bool has_value = i + 1 < argc;
    if (strcmp(a, "-cpu") == 0) o->mode = MODE_CPU;
    else if (strcmp(a, "-gpu") == 0) o->mode = MODE_GPU;
    else if (strcmp(a, "-f64") == 0) o->f64 = true, o->cpu_only = argv[i];
    else if (strcmp(a, "-check") == 0) o->check = true, o->gpu_only = argv[i];
    else if (strcmp(a, "-check-ulp") == 0 && has_value) {
      uint64_t n;
      o->gpu_only = argv[i];
      if (!parse_uint(argv[++i], &n) || n > 1000000) {
        fprintf(stderr, "fuser-run: error: --check-ulp needs a non-negative integer, got '%s'\n", argv[i]);
        return false;
      }
      fuser_run_set_check_ulp((long long)n);
    } else if (strcmp(a, "-specialize-sizes") == 0) o->specialize_sizes = true, o->gpu_only = argv[i];
    else if (strcmp(a, "-artifact-out") == 0 && has_value) o->gpu_only = argv[i], o->artifact_out = argv[++i];
    else if (strcmp(a, "-bench") == 0 && has_value) {
      uint64_t n;
      o->gpu_only = argv[i];
      if (!parse_uint(argv[++i], &n) || n == 0 || n > 1000000) {
        fprintf(stderr, "fuser-run: error: --bench needs a count of calls, got '%s'\n", argv[i]);
        return false;
      }
      o->bench = (int)n;
    }
    else if (strcmp(a, "-seed") == 0 && has_value) {
      if (!parse_uint(argv[++i], &o->seed)) {
        fprintf(stderr, "fuser-run: error: --seed needs a non-negative integer, got '%s'\n", argv[i]);
        return false;
      }
    } else if (strcmp(a, "-first") == 0 && has_value) {
      uint64_t n;
      if (!parse_uint(argv[++i], &n) || n > 1000000) {
        fprintf(stderr, "fuser-run: error: --first needs a count, got '%s'\n", argv[i]);
        return false;
      }
      o->first = (int)n;
      o->cpu_only = argv[i - 1];
    } else if (strcmp(a, "-dynamic-extent") == 0 && has_value) {
      uint64_t n;
      if (!parse_uint(argv[++i], &n) || n > (UINT64_C(1) << 32)) {
        fprintf(stderr, "fuser-run: error: --dynamic-extent needs an extent, got '%s'\n", argv[i]);
        return false;
      }
      o->dynamic_extent = (int64_t)n;
      o->cpu_only = argv[i - 1];
    } else if (strcmp(a, "-save") == 0 && has_value) o->save_dir = argv[++i];
    else if (strcmp(a, "-save-case") == 0 && has_value) o->cpu_only = argv[i], o->save_case = argv[++i];
    else if (strcmp(a, "-misalign") == 0 && has_value) {
      uint64_t n;
      if (!parse_uint(argv[++i], &n) || n > 4096) {
        fprintf(stderr, "fuser-run: error: --misalign needs a count of elements, got '%s'\n", argv[i]);
        return false;
      }
      o->misalign = (int)n;
    }
    else if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
      usage(stdout);
      exit(0);
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fuser-run: error: unknown option or missing value: '%s'\n", argv[i]);
      usage(stderr);
      return false;
    } else if (o->input) {
      fprintf(stderr, "fuser-run: error: more than one input ('%s' and '%s')\n", o->input, argv[i]);
      return false;
    } else o->input = argv[i];
  }
  if (!o->input) {
    fprintf(stderr, "fuser-run: error: no input file\n");
    usage(stderr);
    return false;
  }
  if (o->mode == MODE_GPU && o->cpu_only) {
    fprintf(stderr, "fuser-run: error: %s is an option of --cpu\n", o->cpu_only);
    return false;
  }
  if (o->mode == MODE_CPU && o->gpu_only) {
    fprintf(stderr, "fuser-run: error: %s is an option of the GPU mode, not of --cpu\n", o->gpu_only);
    return false;
  }
  return true;
}

/* A located error when the failure is about an op, a plain one otherwise. */
static void report_error(const fuser_ref_error *err) {
  if (!mlirLocationIsNull(err->loc)) mlirEmitError(err->loc, err->message);
  else fprintf(stderr, "fuser-run: error: %s\n", err->message);
}

static void print_dims(const char *label, int n, const int64_t *v) {
  printf("%s[", label);
  for (int d = 0; d < n; d++) printf("%s%lld", d ? ", " : "", (long long)v[d]);
  printf("]");
}

/* Floats through a double; integers exactly, never through a double (an
 * i64 such as INT64_MAX does not survive one). */
static void print_value(double f, int64_t i, fuser_dtype dt) {
  if (fuser_dtype_is_float(dt)) printf(dt == FUSER_DTYPE_F64 ? "%.17g" : "%.9g", f);
  else printf("%lld", (long long)i);
}

static bool print_output(const options *o, int i, const fuser_ref_value *v, const char *npy_path) {
  const char *dname = fuser_dtype_mlir_name(v->dtype);
  if (!v->is_tensor) {
    printf("output #%d: %s scalar ", i, dname);
    print_value(v->f, v->i, v->dtype);
    printf("\n");
    return true;
  }
  const DLTensor *t = v->tensor;
  printf("output #%d: %s ", i, dname);
  print_dims("shape ", t->ndim, t->shape);
  print_dims(" strides ", t->ndim, t->strides);
  printf("\n  checksum: sum %.17g fnv1a %016llx\n", fuser_ref_checksum_sum(t),
         (unsigned long long)fuser_ref_checksum_fnv1a(t));
  int64_t n = fuser_ref_tensor_numel(t), shown = n < o->first ? n : o->first;
  printf("  first %lld of %lld:", (long long)shown, (long long)n);
  for (int64_t k = 0; k < shown; k++) {
    printf(" ");
    bool is_float = fuser_dtype_is_float(v->dtype);
    print_value(is_float ? fuser_ref_tensor_get(t, k) : 0, is_float ? 0 : fuser_ref_tensor_get_i64(t, k), v->dtype);
  }
  printf("\n");
  if (!npy_path) return true;
  fuser_ref_error err;
  if (fuser_ref_save_npy(t, npy_path, &err) != FUSER_REF_OK) {
    report_error(&err);
    return false;
  }
  printf("  saved %s%s\n", npy_path, v->dtype == FUSER_DTYPE_BF16 ? " (bf16 saved as float32, exactly)" : "");
  return true;
}

static bool func_name(MlirOperation func, char *buf, size_t cap) {
  MlirAttribute a = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef s = mlirAttributeIsNull(a) ? mlirStringRefCreate("?", 1) : mlirStringAttrGetValue(a);
  snprintf(buf, cap, "%.*s", (int)s.length, s.data);
  return true;
}

/* DIR/<stem><i>.npy, or DIR/<fusion>_<stem><i>.npy when the input holds
 * several fusions. */
static void npy_path(char *buf, size_t cap, const options *o, const char *fusion, int nfusions, const char *stem,
                     int i) {
  if (nfusions > 1) snprintf(buf, cap, "%s/%s_%s%d.npy", o->save_dir, fusion, stem, i);
  else snprintf(buf, cap, "%s/%s%d.npy", o->save_dir, stem, i);
}

static bool save_inputs(const options *o, const fuser_ref_inputs *in, const char *fusion, int nfusions) {
  char path[4096];
  for (int i = 0; i < in->count; i++) {
    if (!in->values[i].is_tensor) continue;
    npy_path(path, sizeof path, o, fusion, nfusions, "in", i);
    fuser_ref_error err;
    if (fuser_ref_save_npy(in->values[i].tensor, path, &err) != FUSER_REF_OK) {
      report_error(&err);
      return false;
    }
  }
  return true;
}

/* Progress of a long --cpu run, on a terminal only: after the first second,
 * "op K of N" at most four times a second, erased at the end. The delay is
 * FUSER_RUN_PROGRESS_AFTER seconds when set (0 shows every op; tests use it so
 * that the line does not depend on the machine's speed). */
typedef struct {
  double start, last, after;
  bool shown;
} progress_state;

static double progress_delay_s(void) {
  const char *s = getenv("FUSER_RUN_PROGRESS_AFTER");
  if (!s || !*s) return 1.0;
  char *end;
  double v = strtod(s, &end);
  return *end || !(v >= 0.0 && v <= 3600.0) ? 1.0 : v;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void show_progress(void *ctx, int done, int total) {
  progress_state *p = ctx;
  double t = now_s();
  if (done < total && (t - p->start < p->after || t - p->last < (p->after > 0.0 ? 0.25 : 0.0))) return;
  p->last = t;
  if (done < total) {
    fprintf(stderr, "\rfuser-run: op %d of %d, %.0f s", done, total, t - p->start);
    p->shown = true;
  } else if (p->shown) {
    fprintf(stderr, "\r\033[K");
  }
  fflush(stderr);
}

static bool run_cpu(const options *o, MlirOperation func, int nfusions) {
  char name[256], path[4096];
  func_name(func, name, sizeof name);
  printf("fusion @%s: cpu reference, %s, seed %llu\n", name, o->f64 ? "float64 mode" : "nvFuser precision",
         (unsigned long long)o->seed);
  MlirStringRef key = mlirStringRefCreateFromCString("fuser.inputs");
  if (mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, key))) {
    MlirAttribute made = fuser_ref_default_inputs(func, o->dynamic_extent);
    if (!mlirAttributeIsNull(made)) {
      mlirOperationSetDiscardableAttributeByName(func, key, made);
      printf("  no fuser.inputs: seeded inputs of the declared shapes, every ? extent %lld (--dynamic-extent)\n",
             (long long)o->dynamic_extent);
    }
  }
  fuser_ref_error err;
  fuser_ref_inputs inputs;
  if (fuser_ref_make_inputs(func, o->seed, &inputs, &err) != FUSER_REF_OK) {
    report_error(&err);
    return false;
  }
  progress_state progress = {.start = now_s(), .after = progress_delay_s()};
  fuser_ref_options ropt = {.f64 = o->f64};
  if (isatty(STDERR_FILENO)) ropt.progress = show_progress, ropt.progress_ctx = &progress;
  fuser_ref_outputs outs;
  bool ran = fuser_ref_run(func, inputs.values, inputs.count, &ropt, &outs, &err) == FUSER_REF_OK, ok = ran;
  if (!ran) report_error(&err);
  /* outputs written into inputs (fd.add_output(out, alias_input)) changed
   * them: what is saved is the inputs as made, so make them again */
  if (ok && (o->save_dir || o->save_case) && fuser_ref_writes_inputs(func)) {
    fuser_ref_inputs_free(&inputs);
    if (fuser_ref_make_inputs(func, o->seed, &inputs, &err) != FUSER_REF_OK) {
      report_error(&err);
      fuser_ref_outputs_free(&outs);
      return false;
    }
  }
  if (ok && o->save_dir) ok = save_inputs(o, &inputs, name, nfusions);
  if (ok && o->save_case) ok = fuser_run_save_case(o->save_case, &inputs, &outs, o->misalign);
  for (int i = 0; ok && i < outs.count; i++) {
    if (o->save_dir) npy_path(path, sizeof path, o, name, nfusions, "out", i);
    ok = print_output(o, i, &outs.values[i], o->save_dir && outs.values[i].is_tensor ? path : NULL);
  }
  if (ran) fuser_ref_outputs_free(&outs);
  fuser_ref_inputs_free(&inputs);
  return ok;
}

/* nvFuser runs a fusion without outputs and returns nothing; so do we, but
 * not silently: it is almost always a forgotten fd.add_output. */
static void warn_if_no_outputs(fuser_diag_state *diag, MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockIsNull(body) ? (MlirOperation){NULL} : mlirBlockGetTerminator(body);
  if (!mlirOperationIsNull(ret) && mlirOperationGetNumOperands(ret) == 0)
    fuser_diag_warning(diag, mlirOperationGetLocation(func), "the fusion has no outputs (no fd.add_output): it computes nothing");
}

static bool is_fusion(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == 9 && memcmp(n.data, "func.func", 9) == 0 &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.fusion")));
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) { /* compiled artifacts run with the runtime alone */
    if (strcmp(argv[i], "--artifact") == 0 || strcmp(argv[i], "-artifact") == 0) return fuser_run_artifact_main(argc, argv);
    if (strcmp(argv[i], "--serve") == 0 || strcmp(argv[i], "-serve") == 0) return fuser_run_serve_main(argc, argv);
  }
  options o = {.first = 8, .dynamic_extent = 8};
  if (!parse_args(argc, argv, &o)) return 1;
  if (o.save_dir) {
    struct stat st;
    if (stat(o.save_dir, &st) != 0 && mkdir(o.save_dir, 0777) != 0) {
      fprintf(stderr, "fuser-run: error: cannot create '%s': %s\n", o.save_dir, strerror(errno));
      return 1;
    }
  }
  size_t len;
  char *text = fuser_read_file("fuser-run", o.input, &len);
  if (!text) return 1;
  MlirContext ctx = fuser_context_create();
  if (mlirContextIsNull(ctx)) return 1;
  fuser_diag_state diag = {.path = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input, .source = text};
  fuser_diag_attach(ctx, &diag);
  MlirModule module = fuser_run_load(ctx, o.input, text, len);
  bool ok = !mlirModuleIsNull(module);
  if (ok) {
    MlirBlock body = mlirModuleGetBody(module);
    int nfusions = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      nfusions += is_fusion(op);
    if (nfusions == 0) {
      fprintf(stderr, "fuser-run: error: '%s' has no fusion (a func.func with the fuser.fusion attribute)\n", o.input);
      ok = false;
    } else if (nfusions > 1 && o.mode == MODE_GPU) {
      fprintf(stderr, "fuser-run: error: '%s' has %d fusions; the GPU mode runs one (use --cpu for several)\n", o.input, nfusions);
      ok = false;
    }
    fuser_run_gpu_options gpu = {o.seed, o.misalign, o.bench, o.check, o.specialize_sizes, o.save_dir, o.artifact_out};
    for (MlirOperation op = mlirBlockGetFirstOperation(body); ok && !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (is_fusion(op)) ok = (warn_if_no_outputs(&diag, op), true) && o.mode == MODE_CPU ? run_cpu(&o, op, nfusions) : fuser_run_gpu(&gpu, o.input, text, len, op);
    mlirModuleDestroy(module);
  }
  fuser_diag_free(&diag);
  mlirContextDestroy(ctx);
  free(text);
  return ok ? 0 : 1;
}
