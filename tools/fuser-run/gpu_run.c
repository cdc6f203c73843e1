/* fuser-run --gpu (the default mode): the fusion compiled in this process
 * through libfuser for the script's own inputs, run on the GPU with the
 * session of artifact_run.h (the same inputs, output printing, comparison
 * and benchmark as `fuser-run --artifact F`).
 *
 *   1. runtime on device 0 (no driver: "no CUDA driver" and exit 1)
 *   2. fuser_fusion_create from the text; the inputs from its recipes
 *   3. fuser_fusion_compile for those inputs: the entry, its kernels and
 *      the variant each kernel takes; --artifact-out writes its artifact
 *   4. one fuser_fusion_execute (a cache hit now); outputs printed, --check
 *      compares each with the CPU reference evaluator's on the same inputs
 *   5. --bench N times fuser_fusion_execute (lookup included). */
#include "tools/fuser-run/gpu_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfuser/fuser.h"
#include "lowering/compile.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "reference/reference.h"
#include "tools/fuser-run/artifact_run.h"

static int execute_fusion(void *f, const fuser_arg *args, size_t nargs, fuser_output *outs, size_t nout, fuser_error *err) {
  return fuser_fusion_execute(f, args, nargs, outs, nout, err);
}

static bool check_reference(void *ctx, int k, const DLTensor *host) {
  const fuser_ref_outputs *ref = ctx;
  if (k >= ref->count || !ref->values[k].is_tensor) {
    printf("  check: no tensor output %d in the CPU reference\n", k);
    return false;
  }
  return fuser_run_compare(host, ref->values[k].tensor);
}

static bool is_python(const char *path) {
  size_t n = strlen(path);
  return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

static void fusion_name(MlirOperation func, char *buf, size_t cap) {
  MlirAttribute a = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef s = mlirAttributeIsNull(a) ? mlirStringRefCreate("?", 1) : mlirStringAttrGetValue(a);
  snprintf(buf, cap, "%.*s", (int)s.length, s.data);
}

/* The CPU reference's outputs on the script's inputs (seeded alike). */
static bool run_reference(MlirOperation func, uint64_t seed, fuser_ref_outputs *out) {
  fuser_ref_inputs in;
  fuser_ref_error err;
  if (fuser_ref_make_inputs(func, seed, &in, &err) != FUSER_REF_OK) {
    if (!mlirLocationIsNull(err.loc)) mlirEmitError(err.loc, err.message);
    else fprintf(stderr, "fuser-run: error: --check: %s\n", err.message);
    return false;
  }
  fuser_ref_options opts = {0};
  bool ok = fuser_ref_run(func, in.values, in.count, &opts, out, &err) == FUSER_REF_OK;
  if (!ok && !mlirLocationIsNull(err.loc)) mlirEmitError(err.loc, err.message);
  else if (!ok) fprintf(stderr, "fuser-run: error: --check: the CPU reference failed: %s\n", err.message);
  fuser_ref_inputs_free(&in);
  return ok;
}

/* Every error of the GPU mode is located in the user's file: a message
 * about "input N" at the definition of argument N (its define_tensor
 * line), one about "output N" at the op that makes output N, any other at
 * the fusion. */
static MlirLocation locate(MlirOperation func, const char *msg) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  int n;
  if (sscanf(msg, "input %d", &n) == 1 && n >= 0 && n < mlirBlockGetNumArguments(body))
    return mlirValueGetLocation(mlirBlockGetArgument(body, n));
  if (sscanf(msg, "output %d", &n) == 1 && n >= 0) {
    MlirOperation ret = mlirBlockGetTerminator(body);
    if (!mlirOperationIsNull(ret) && n < mlirOperationGetNumOperands(ret)) {
      MlirValue v = mlirOperationGetOperand(ret, n);
      if (mlirValueIsAOpResult(v)) return mlirOperationGetLocation(mlirOpResultGetOwner(v));
      return mlirValueGetLocation(v);
    }
  }
  return mlirOperationGetLocation(func);
}

static void report_at(void *ctx, const char *msg) {
  MlirOperation func = {ctx};
  /* libfuser's compile messages are located already ("path:l:c: error: ...") */
  if (strstr(msg, ": error: ")) fprintf(stderr, "%s\n", msg);
  else mlirEmitError(locate(func, msg), msg);
}

static MlirOperation current_func;

static void report(const fuser_error *err) { report_at(current_func.ptr, err->message); }

/* Compiles the entry for the session's inputs and describes it. */
static bool compile_entry(fuser_fusion *f, fuser_run_session *s, const fuser_run_gpu_options *o, const char *name,
                          size_t *nkernels) {
  fuser_error err = {0};
  size_t entry;
  if (fuser_fusion_compile(f, s->args, (size_t)s->nargs, &entry, &err) != FUSER_OK) return report(&err), false;
  const fuser_artifact *art = fuser_fusion_entry_artifact(f, entry);
  int variants[64] = {0};
  *nkernels = fuser_artifact_num_kernels(art);
  if (*nkernels > 64 || fuser_artifact_check_inputs(art, s->args, (size_t)s->nargs, variants, &err) != FUSER_OK)
    return report(&err), false;
  printf("fusion @%s: compiled for the script's inputs in %.0f ms%s: %zu kernel%s, variants:", name,
         fuser_fusion_entry_compile_ms(f, entry), o->specialize_sizes ? " (sizes specialised)" : "", *nkernels,
         *nkernels == 1 ? "" : "s");
  for (size_t k = 0; k < *nkernels; k++) printf(" %d", variants[k]);
  printf(*nkernels ? " (0 = first, the vectorized one)\n" : " none (every output aliases an input)\n");
  if (o->artifact_out) {
    if (fuser_artifact_write_file(art, o->artifact_out, &err) != FUSER_OK) return report(&err), false;
    printf("  artifact written to %s\n", o->artifact_out);
  }
  return true;
}

bool fuser_run_gpu(const fuser_run_gpu_options *o, const char *path, const char *text, size_t len, MlirOperation func) {
  char name[256];
  fusion_name(func, name, sizeof name);
  fuser_run_session s = {0};
  fuser_fusion *f = NULL;
  fuser_ref_outputs ref = {0};
  bool have_ref = false, ok = false;
  fuser_error err = {0};
  current_func = func;
  s.report = report_at;
  s.report_ctx = func.ptr;
  char hint[1200];
  snprintf(hint, sizeof hint, "without a GPU, run the fusion on the CPU reference evaluator: fuser-run --cpu %s", path);
  s.no_driver_hint = hint;
  if (!fuser_run_open(&s)) goto done;
  fuser_fusion_options fo = {.specialize_sizes = o->specialize_sizes};
  if (fuser_fusion_create(s.rt, is_python(path) ? FUSER_SOURCE_NVFUSER : FUSER_SOURCE_MLIR, text, len, path, &fo, &f, &err) !=
      FUSER_OK) {
    report(&err);
    goto done;
  }
  const char *recipes = fuser_fusion_example_inputs(f);
  if (!recipes) { /* why: the compiler's reading of fuser.inputs says */
    char why[256] = "no input recipes";
    free(fuser_input_recipes(func, why, sizeof why));
    report_at(func.ptr, why);
    goto done;
  }
  size_t nkernels;
  if (!fuser_run_make_inputs(&s, recipes, fuser_fusion_num_inputs(f), o->seed, o->misalign) ||
      !compile_entry(f, &s, o, name, &nkernels))
    goto done;
  if (o->check && !(have_ref = run_reference(func, o->seed, &ref))) goto done;
  s.call = execute_fusion;
  s.call_ctx = f;
  size_t nout = fuser_fusion_num_outputs(f), out_bytes = 0;
  fuser_run_output_plan plan = {o->save_dir, o->check ? check_reference : NULL, &ref, false};
  bool outputs_ok = fuser_run_outputs(&s, nout, &plan, &out_bytes);
  printf("libfuser: %zu cache entr%s, the run %s\n", fuser_fusion_num_entries(f), fuser_fusion_num_entries(f) == 1 ? "y" : "ies",
         fuser_fusion_last_compiled(f) == 0 ? "hit the cache (no compile)" : "compiled");
  if (o->bench > 0 && !fuser_run_bench(&s, name, nkernels, nout, out_bytes, o->bench)) goto done;
  ok = outputs_ok;
done:
  if (have_ref) fuser_ref_outputs_free(&ref);
  if (s.stream) s.cu->cuStreamSynchronize(s.stream);
  fuser_fusion_destroy(f);
  fuser_run_close(&s);
  return ok;
}
