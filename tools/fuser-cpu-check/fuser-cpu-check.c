/* fuser-cpu-check: runs a fusion, compiled the whole way (plan passes,
 * vectorize, lowering), on the CPU JIT and compares its outputs with
 * expected ones.
 *
 *   fuser-cpu-check [--max-ulp=N] fusion.mlir case.bin
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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/cpu_jit.h"
#include "lowering/cpu_plan.h"
#include "lowering/lowering.h"
#include "lowering/plan_model_build.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "tools/common/tool_support.h"

#define PLAN_PASSES FUSER_PLAN_PIPELINE

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

static fuser_dtype dtype_named(const char *name) {
  for (int d = 0; d < FUSER_DTYPE_COUNT; d++)
    if (strcmp(fuser_dtype_mlir_name((fuser_dtype)d), name) == 0) return (fuser_dtype)d;
  return FUSER_DTYPE_INVALID;
}

typedef struct {
  int n;
  fuser_host_tensor *t;
  void **storage;
} tensor_list;

static bool read_case(FILE *f, tensor_list *in, tensor_list *out, char *err, size_t errlen) {
  char word[32], dt[16];
  for (int pass = 0; pass < 2; pass++) {
    tensor_list *l = pass ? out : in;
    if (fscanf(f, "%31s %d", word, &l->n) != 2 || strcmp(word, pass ? "outputs" : "inputs") != 0) {
      snprintf(err, errlen, "expected '%s <n>'", pass ? "outputs" : "inputs");
      return false;
    }
    l->t = calloc((size_t)l->n + 1, sizeof *l->t);
    l->storage = calloc((size_t)l->n + 1, sizeof *l->storage);
    for (int i = 0; i < l->n; i++) {
      fuser_host_tensor *t = &l->t[i];
      if (fscanf(f, "%31s %15s", word, dt) != 2) return snprintf(err, errlen, "truncated case"), false;
      t->dtype = dtype_named(dt);
      if (t->dtype == FUSER_DTYPE_INVALID) return snprintf(err, errlen, "unknown dtype '%s'", dt), false;
      if (strcmp(word, "scalar") == 0) {
        double v;
        if (fscanf(f, "%lf", &v) != 1) return snprintf(err, errlen, "bad scalar"), false;
        t->rank = -1;
        t->scalar.i = (int64_t)v;
        if (fuser_dtype_is_float(t->dtype)) t->scalar.f = v;
        continue;
      }
      if (fscanf(f, "%d", &t->rank) != 1 || t->rank < 0 || t->rank > FUSER_MAX_RANK)
        return snprintf(err, errlen, "bad rank"), false;
      int64_t elems = 1, offset = 0, storage = 0;
      for (int d = 0; d < t->rank; d++) {
        if (fscanf(f, "%lld", (long long *)&t->sizes[d]) != 1) return snprintf(err, errlen, "bad sizes"), false;
        elems *= t->sizes[d];
      }
      if (!pass) {
        for (int d = 0; d < t->rank; d++)
          if (fscanf(f, "%lld", (long long *)&t->strides[d]) != 1) return snprintf(err, errlen, "bad strides"), false;
        if (fscanf(f, "%lld %lld", (long long *)&offset, (long long *)&storage) != 2)
          return snprintf(err, errlen, "bad offset"), false;
      } else {
        storage = elems;
      }
      fgetc(f); /* the newline before the bytes */
      size_t esize = pass ? 8 : fuser_dtype_size(t->dtype);
      /* 16 spare bytes, and the storage placed 64-byte aligned like an allocator's */
      char *buf = aligned_alloc(64, ((size_t)storage * esize + 16 + 63) / 64 * 64);
      if (fread(buf, esize, (size_t)storage, f) != (size_t)storage) return snprintf(err, errlen, "truncated data"), false;
      l->storage[i] = buf;
      t->data = buf + offset * (int64_t)esize;
    }
  }
  return true;
}

static void free_list(tensor_list *l) {
  for (int i = 0; l->storage && i < l->n; i++) free(l->storage[i]);
  free(l->storage);
  free(l->t);
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
    fprintf(stderr, "usage: fuser-cpu-check [--max-ulp=N] fusion.mlir case.bin\n");
    return 2;
  }
  char *text = fuser_read_file("fuser-cpu-check", fusion, NULL);
  if (!text) return 1;
  FILE *cf = fopen(case_path, "rb");
  if (!cf) {
    fprintf(stderr, "fuser-cpu-check: error: cannot read '%s'\n", case_path);
    return 1;
  }
  char err[1024];
  tensor_list in = {0}, expected = {0};
  if (!read_case(cf, &in, &expected, err, sizeof err)) {
    fprintf(stderr, "fuser-cpu-check: error: %s: %s\n", case_path, err);
    return 1;
  }
  fclose(cf);
  MlirContext ctx = fuser_context_create();
  fuser_diag_state diag = {.path = fusion, .source = text};
  fuser_diag_attach(ctx, &diag);
  /* the plan model (needs the launches of the PTX pipeline) */
  MlirModule a = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(a)) return 1;
  fuser_plan_model model = {0};
  char ptx_pipeline[2048];
  fuser_plan_to_ptx_pipeline("sm_90", ptx_pipeline, sizeof ptx_pipeline);
  if (!run_pipeline(ctx, mlirModuleGetOperation(a), PLAN_PASSES) ||
      !fuser_plan_model_build(mlirModuleGetOperation(a), &model, err, sizeof err) ||
      !run_pipeline(ctx, mlirModuleGetOperation(a), ptx_pipeline) ||
      !fuser_plan_model_add_launches(&model, mlirModuleGetOperation(a), err, sizeof err)) {
    fprintf(stderr, "fuser-cpu-check: error: cannot build the plan: %s\n", err);
    return 1;
  }
  /* the same kernels for the CPU */
  MlirModule b = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (!run_pipeline(ctx, mlirModuleGetOperation(b), PLAN_PASSES)) return 1;
  fuser_cpu_module *jit = fuser_cpu_compile(b, err, sizeof err);
  if (!jit) {
    fprintf(stderr, "fuser-cpu-check: error: %s\n", err);
    return 1;
  }
  if (in.n != model.num_inputs || expected.n != model.num_outputs) {
    fprintf(stderr, "fuser-cpu-check: error: the case has %d inputs and %d outputs, the fusion %d and %d\n", in.n,
            expected.n, model.num_inputs, model.num_outputs);
    return 1;
  }
  fuser_host_tensor *outs = calloc((size_t)model.num_outputs + 1, sizeof *outs);
  const char **variants = calloc((size_t)model.num_kernels + 1, sizeof *variants);
  if (!fuser_cpu_plan_run(jit, &model, in.t, outs, variants, err, sizeof err)) {
    fprintf(stderr, "fuser-cpu-check: error: %s\n", err);
    return 1;
  }
  printf("kernels:");
  for (int k = 0; k < model.num_kernels; k++) printf(" %s", variants[k]);
  printf("\n");
  int status = 0;
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
  fuser_cpu_plan_free_outputs(&model, outs);
  free(outs);
  free(variants);
  fuser_cpu_destroy(jit);
  fuser_plan_model_free(&model);
  free_list(&in);
  free_list(&expected);
  mlirModuleDestroy(a);
  mlirModuleDestroy(b);
  fuser_diag_free(&diag);
  mlirContextDestroy(ctx);
  free(text);
  printf("%s\n", status ? "MISMATCH" : "MATCH");
  return status;
}
