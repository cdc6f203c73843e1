/* fuser-cpu-check: runs a fusion, compiled the whole way (plan passes,
 * vectorize, lowering), on the CPU JIT and compares its outputs with
 * expected ones.
 *
 *   fuser-cpu-check [--max-ulp=N] fusion.mlir|script.py case.bin
 *
 * case.bin (written by test/lowering/Inputs/torch_oracle.py) holds the inputs
 * (storage bytes with sizes, strides and storage offset, so views keep
 * their layout and alignment) and the expected outputs as float64:
 *   inputs <n>
 *   tensor <dtype> <rank> <sizes...> <strides...> <offset> <storage elements>\n<storage bytes>\n
 *   scalar <dtype> <value>
 *   outputs <m>
 *   tensor <dtype> <rank> <sizes...>\n<elements * 8 bytes of float64, row-major>\n
 * Prints per output the number of elements, the largest difference in
 * units in the last place of the output dtype and the kernels' variants;
 * exits 1 when a difference exceeds --max-ulp (default 0). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/checked_math.h"
#include "driver/host_inputs.h"
#include "lowering/cpu_jit.h"
#include "lowering/cpu_plan.h"
#include "lowering/lowering.h"
#include "lowering/plan_artifact.h"
#include "lowering/plan_model_build.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "tools/common/tool_support.h"
#include "tools/fuser-cpu-check/case_file.h"
#include "tools/fuser-run/load.h"

#define PLAN_PASSES FUSER_PLAN_PIPELINE
#define FPM_MAX_KERNELS_CHECKED 4096

static bool run_pipeline(MlirContext ctx, MlirOperation op, const char *text) {
  char err[1024];
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, text, err, sizeof err);
  if (!ok) fprintf(stderr, "fuser-cpu-check: error: %s\n", err);
  ok = ok && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  return ok;
}


/* The case's inputs against the fusion's signature, with the runtime's
 * own rule (driver/validate.c: dtype, rank, static extents, contiguity,
 * alignment, strides), through the artifact the plan model makes. The
 * host buffers stand in for device memory: the validator never reads them. */
static bool check_inputs(const fuser_plan_model *model, const fuser_case_list *in, char *err, size_t errlen) {
  /* matmul segments are matmul kernels there: their extent checks too */
  fuser_artifact *art = NULL;
  int status = fuser_plan_to_artifact(model, 0, NULL, NULL, NULL, &art, err, errlen);
  if (status != 0) return false;
  DLTensor *dl = calloc((size_t)in->n + 1, sizeof *dl);
  fuser_arg *args = calloc((size_t)in->n + 1, sizeof *args);
  static const int runtime_type[] = {[FUSER_DTYPE_BF16] = FUSER_TYPE_BF16, [FUSER_DTYPE_F16] = FUSER_TYPE_F16,
                                     [FUSER_DTYPE_F32] = FUSER_TYPE_F32,   [FUSER_DTYPE_F64] = FUSER_TYPE_F64,
                                     [FUSER_DTYPE_I1] = FUSER_TYPE_BOOL,   [FUSER_DTYPE_I32] = FUSER_TYPE_I32,
                                     [FUSER_DTYPE_I64] = FUSER_TYPE_I64};
  for (int i = 0; i < in->n; i++) {
    fuser_host_tensor *t = &in->t[i];
    if (t->rank < 0) {
      args[i] = fuser_dtype_is_float(t->dtype) ? fuser_arg_double(t->scalar.f) : fuser_arg_int(t->scalar.i);
      continue;
    }
    dl[i] = (DLTensor){.data = t->data, .device = {kDLCUDA, 0}, .ndim = t->rank,
                       .dtype = fuser_type_to_dlpack(runtime_type[t->dtype]), .shape = t->sizes, .strides = t->strides};
    args[i] = fuser_arg_tensor(&dl[i]);
  }
  fuser_error e;
  int variants[FPM_MAX_KERNELS_CHECKED];
  bool ok = fuser_artifact_num_kernels(art) <= FPM_MAX_KERNELS_CHECKED &&
            fuser_artifact_check_inputs(art, args, (size_t)in->n, variants, &e) == FUSER_OK;
  /* the runtime's message (up to FUSER_ERROR_MESSAGE_SIZE) cut to the caller's buffer, on purpose */
  if (!ok)
    snprintf(err, errlen, "%.*s", (int)(errlen - 1),
             fuser_artifact_num_kernels(art) > FPM_MAX_KERNELS_CHECKED ? "too many kernels" : e.message);
  fuser_artifact_release(art);
  free(dl);
  free(args);
  return ok;
}


static double to_double(const void *p, fuser_dtype dt) {
  uint32_t u;
  float f;
  switch (dt) {
  case FUSER_DTYPE_BF16: u = (uint32_t)(*(const uint16_t *)p) << 16; memcpy(&f, &u, 4); return f;
  case FUSER_DTYPE_F16: {
    uint16_t h = *(const uint16_t *)p;
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
  }
  case FUSER_DTYPE_F32: return *(const float *)p;
  case FUSER_DTYPE_F64: return *(const double *)p;
  case FUSER_DTYPE_I1: return *(const uint8_t *)p;
  case FUSER_DTYPE_I32: return *(const int32_t *)p;
  default: return (double)*(const int64_t *)p;
  }
}

/* Distance in units in the last place of dtype (floats; ints: |a - b|). */
static double ulps(double a, double b, fuser_dtype dt) {
  if (isnan(a) && isnan(b)) return 0;
  if (isnan(a) || isnan(b)) return INFINITY;
  if (a == b) return 0;
  if (!fuser_dtype_is_float(dt)) return fabs(a - b);
  int mant = dt == FUSER_DTYPE_BF16 ? 8 : dt == FUSER_DTYPE_F16 ? 11 : dt == FUSER_DTYPE_F32 ? 24 : 53;
  double m = fmax(fabs(a), fabs(b));
  int e;
  frexp(m, &e);
  double ulp = ldexp(1.0, e - mant);
  return fabs(a - b) / ulp;
}

int main(int argc, char **argv) {
  double max_ulp = 0;
  const char *fusion = NULL, *case_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--max-ulp=", 10) == 0) max_ulp = atof(argv[i] + 10);
    else if (!fusion) fusion = argv[i];
    else case_path = argv[i];
  }
  if (!fusion || !case_path) {
    fprintf(stderr, "usage: fuser-cpu-check [--max-ulp=N] fusion.mlir|script.py case.bin\n");
    return 2;
  }
  /* every failure goes to `done`, which frees what was made (an ASan run
   * of the error paths leaks nothing) */
  int status = 1;
  size_t len;
  char err[1024] = "";
  fuser_case_list in = {0}, expected = {0};
  MlirContext ctx = {NULL};
  fuser_diag_state diag = {.path = fusion};
  MlirModule a = {NULL}, b = {NULL};
  fuser_plan_model model = {0};
  fuser_cpu_module *jit = NULL;
  fuser_host_tensor *outs = NULL;
  const char **variants = NULL;
  bool ran = false;
  char *text = fuser_read_file("fuser-cpu-check", fusion, &len);
  if (!text) goto done;
  FILE *cf = fopen(case_path, "rb");
  if (!cf) {
    fprintf(stderr, "fuser-cpu-check: error: cannot read '%s'\n", case_path);
    goto done;
  }
  bool case_ok = fuser_case_read(cf, &in, &expected, err, sizeof err);
  fclose(cf);
  if (!case_ok) {
    fprintf(stderr, "fuser-cpu-check: error: %s: %s\n", case_path, err);
    goto done;
  }
  ctx = fuser_context_create();
  diag.source = text;
  fuser_diag_attach(ctx, &diag);
  /* the plan model (needs the launches of the PTX pipeline); a .py script
   * goes through the importer like in every other tool */
  a = fuser_run_load(ctx, fusion, text, len);
  if (mlirModuleIsNull(a)) goto done;
  char ptx_pipeline[2048];
  fuser_plan_to_ptx_pipeline("sm_90", ptx_pipeline, sizeof ptx_pipeline);
  if (!run_pipeline(ctx, mlirModuleGetOperation(a), PLAN_PASSES) ||
      !fuser_plan_model_build(mlirModuleGetOperation(a), &model, err, sizeof err) ||
      !run_pipeline(ctx, mlirModuleGetOperation(a), ptx_pipeline) ||
      !fuser_plan_model_add_launches(&model, mlirModuleGetOperation(a), err, sizeof err)) {
    /* a pass failure was reported as a located diagnostic; err holds the rest */
    if (err[0]) fprintf(stderr, "fuser-cpu-check: error: cannot build the plan: %s\n", err);
    goto done;
  }
  /* the same kernels for the CPU */
  b = fuser_run_load(ctx, fusion, text, len);
  if (mlirModuleIsNull(b) || !run_pipeline(ctx, mlirModuleGetOperation(b), PLAN_PASSES)) goto done;
  jit = fuser_cpu_compile(b, err, sizeof err);
  if (!jit) {
    fprintf(stderr, "fuser-cpu-check: error: %s\n", err);
    goto done;
  }
  if (in.n != model.num_inputs || expected.n != model.num_outputs) {
    fprintf(stderr, "fuser-cpu-check: error: the case has %d inputs and %d outputs, the fusion %d and %d\n", in.n,
            expected.n, model.num_inputs, model.num_outputs);
    goto done;
  }
  if (!check_inputs(&model, &in, err, sizeof err)) {
    fprintf(stderr, "fuser-cpu-check: error: %s: %s\n", case_path, err);
    goto done;
  }
  outs = calloc((size_t)model.num_outputs + 1, sizeof *outs);
  variants = calloc((size_t)model.num_kernels + 1, sizeof *variants);
  ran = fuser_cpu_plan_run(jit, &model, in.t, outs, variants, err, sizeof err);
  if (!ran) {
    fprintf(stderr, "fuser-cpu-check: error: %s\n", err);
    goto done;
  }
  printf("kernels:");
  for (int k = 0; k < model.num_kernels; k++) printf(" %s", variants[k]);
  printf("\n");
  status = 0;
  for (int o = 0; o < model.num_outputs; o++) {
    const fuser_host_tensor *got = &outs[o], *want = &expected.t[o];
    int64_t elems = 1;
    bool shape_ok = got->rank == want->rank;
    for (int d = 0; shape_ok && d < got->rank; d++) shape_ok = got->sizes[d] == want->sizes[d], elems *= got->sizes[d];
    if (!shape_ok) {
      printf("output %d: shape differs\n", o);
      status = 1;
      continue;
    }
    double worst = 0;
    int64_t over = 0, idx[FUSER_MAX_RANK] = {0};
    size_t esize = fuser_dtype_size(got->dtype);
    for (int64_t e = 0; e < elems; e++) {
      int64_t off = 0, rem = e;
      for (int d = got->rank - 1; d >= 0; d--) idx[d] = rem % got->sizes[d], rem /= got->sizes[d], off += idx[d] * got->strides[d];
      double g = to_double((const char *)got->data + off * (int64_t)esize, got->dtype);
      double w = ((const double *)want->data)[e];
      double u = ulps(g, w, got->dtype);
      worst = u > worst ? u : worst;
      over += u > max_ulp;
    }
    printf("output %d: %s %lld elements, max %g ulp, %lld over %g\n", o, fuser_dtype_mlir_name(got->dtype),
           (long long)elems, worst, (long long)over, max_ulp);
    status |= over != 0;
  }
  printf("%s\n", status ? "MISMATCH" : "MATCH");
done:
  if (outs && ran) fuser_cpu_plan_free_outputs(&model, outs);
  free(outs);
  free(variants);
  if (jit) fuser_cpu_destroy(jit);
  fuser_plan_model_free(&model);
  fuser_case_free(&in);
  fuser_case_free(&expected);
  if (!mlirModuleIsNull(a)) mlirModuleDestroy(a);
  if (!mlirModuleIsNull(b)) mlirModuleDestroy(b);
  if (!mlirContextIsNull(ctx)) {
    fuser_diag_free(&diag);
    mlirContextDestroy(ctx);
  }
  free(text);
  return status;
}
