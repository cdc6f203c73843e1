/* unit_plan_matmul: the plan model of matmul segments (lowering/plan_model.h,
 * fpm_matmul) and the reference's raw entry the CPU plan runs them through
 * (fuser_ref_matmul_run). A batched product against a shared column-major
 * matrix: the shared operand's batch stride is 0, its K stride 1; the raw
 * entry equals a naive f32 sum, with and without a bias. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/expr.h"
#include "lowering/lowering.h"
#include "lowering/plan_model_build.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "reference/reference.h"
#include "unit.h"

static const char *fusion =
    "func.func @mm(%a: tensor<?x?x?xf32> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>},\n"
    "              %b: tensor<?x?xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>})\n"
    "    -> tensor<?x?x?xf32> attributes {fuser.fusion} {\n"
    "  %0 = \"fuser.matmul\"(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?xf32>\n"
    "  return %0 : tensor<?x?x?xf32>\n"
    "}\n";

static bool run(MlirContext ctx, MlirOperation op, const char *text) {
  char err[512];
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, text, err, sizeof err) && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  return ok;
}

static void check_str(const char *what, const char *got, const char *want);

/* A program of the model, as the artifact dump prints it. */
static void check_program(const char *what, const struct fuser_expr *got, const char *want) {
  char text[512];
  check_str(what, got ? fuser_expr_print(got, text, sizeof text) : NULL, want);
}

static void check_str(const char *what, const char *got, const char *want) {
  bool same = got && strcmp(got, want) == 0;
  if (!same) fprintf(stderr, "%s: got '%s', want '%s'\n", what, got ? got : "(null)", want);
  CHECK(same);
}

static void plan_model(void) {
  MlirContext ctx = fuser_context_create();
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(fusion));
  MlirOperation op = mlirModuleGetOperation(m);
  CHECK(run(ctx, op, "builtin.module(fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)"));
  fuser_plan_model model = {0};
  char err[512] = "";
  bool built = fuser_plan_model_build(op, &model, err, sizeof err);
  char pipeline[2048];
  fuser_plan_to_ptx_pipeline("sm_90", pipeline, sizeof pipeline);
  bool added = built && run(ctx, op, pipeline) && fuser_plan_model_add_launches(&model, op, err, sizeof err);
  if (!added) fprintf(stderr, "%s\n", err);
  CHECK(added);
  CHECK(model.num_kernels == 1 && model.num_modules == 0);
  if (added && model.num_kernels == 1 && model.kernels[0].matmul) {
    const fpm_matmul *mm = model.kernels[0].matmul;
    CHECK(!mm->linear && !mm->has_bias && mm->batch == 1);
    check_str("dtype", mm->dtype, "f32");
    CHECK(mm->a.buffer == FPM_INPUT && mm->a.index == 0 && mm->b.buffer == FPM_INPUT && mm->b.index == 1);
    CHECK(mm->out.buffer == FPM_OUTPUT && mm->out.index == 0);
    check_program("m", mm->m, "size(0, 1)");
    check_program("n", mm->n, "size(1, 1)");
    check_program("k", mm->k, "size(0, 2)");
    check_program("a_k", mm->a_k, "1");
    check_program("b_k", mm->b_k, "1");     /* column-major [K, N] */
    check_program("b_n", mm->b_n, "size(1, 0)");
    check_program("b_batch", mm->b_batch[0], "0"); /* shared by every batch */
    check_program("out_n", mm->out_n, "1");
    /* K of a against K of b: the segment's own check; the plan's input
     * check (the dim graph unifies the two K dims) is the call's, made
     * once before any kernel */
    CHECK(mm->num_checks == 1);
    check_program("check", mm->checks[0], "size(0, 2) == size(1, 0)");
    CHECK(model.num_checks == 1);
    char cond[256] = "";
    if (model.num_checks == 1) check_str("input check", fuser_expr_print(model.checks[0].cond, cond, sizeof cond), "size(1, 0) == size(0, 2)");
  } else {
    CHECK(false);
  }
  fuser_plan_model_free(&model);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
}

static void raw_entry(void) {
  enum { B = 2, M = 3, N = 4, K = 5 };
  float a[B * M * K], w[N * K], bias[N], out[B * M * N];
  for (int i = 0; i < B * M * K; i++) a[i] = (float)((i * 7) % 11) - 5.0f;
  for (int i = 0; i < N * K; i++) w[i] = (float)((i * 3) % 7) * 0.5f - 1.0f;
  for (int i = 0; i < N; i++) bias[i] = 0.25f * (float)i;
  for (int with_bias = 0; with_bias < 2; with_bias++) {
    /* linear: out[b, m, n] = sum_k a[b, m, k] * w[n, k] (+ bias[n]) */
    fuser_ref_matmul_args x = {.dtype = FUSER_DTYPE_F32, .batch = 1, .batch_size = {B}, .a_batch = {M * K},
                               .b_batch = {0}, .out_batch = {M * N}, .m = M, .n = N, .k = K, .a_m = K, .a_k = 1,
                               .b_k = 1, .b_n = K, .out_m = N, .out_n = 1, .bias_n = 1, .a = a, .b = w,
                               .bias = with_bias ? bias : NULL, .out = out};
    CHECK(fuser_ref_matmul_run(&x));
    for (int b = 0; b < B; b++)
      for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
          float acc = 0;
          for (int k = 0; k < K; k++) acc += a[(b * M + i) * K + k] * w[j * K + k];
          if (with_bias) acc += bias[j];
          CHECK(out[(b * M + i) * N + j] == acc);
        }
  }
}

int main(void) {
  plan_model();
  raw_entry();
  UNIT_MAIN_END();
}
