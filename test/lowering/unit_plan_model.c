/* unit_plan_model: the launch plan of the lowering read by the plan model
 * (lowering/plan_model.h) for the seed fusion id1: one kernel, a vectorized
 * variant whose conditions are the alignment of each input view and a
 * mixed one without conditions, grids as expressions of the sizes, and the
 * call's one check (the reshape's element count). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/expr.h"
#include "lowering/lowering.h"
#include "lowering/plan_model_build.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "unit.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  s[fread(s, 1, (size_t)n, f)] = 0;
  fclose(f);
  return s;
}

static bool run(MlirContext ctx, MlirOperation op, const char *text) {
  char err[512];
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, text, err, sizeof err) && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: unit_plan_model <test/lowering/Inputs/seed_fusion_id1.mlir>\n");
    return 2;
  }
  char *text = slurp(argv[1]);
  CHECK(text != NULL);
  if (!text) UNIT_MAIN_END();
  MlirContext ctx = fuser_context_create();
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  MlirOperation op = mlirModuleGetOperation(m);
  CHECK(run(ctx, op, "builtin.module(fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)"));
  fuser_plan_model model = {0};
  char err[512] = "";
  bool built = fuser_plan_model_build(op, &model, err, sizeof err);
  if (!built) fprintf(stderr, "%s\n", err);
  CHECK(built);
  char pipeline[2048];
  fuser_plan_to_ptx_pipeline("sm_90", pipeline, sizeof pipeline);
  CHECK(run(ctx, op, pipeline));
  bool added = built && fuser_plan_model_add_launches(&model, op, err, sizeof err);
  if (!added) fprintf(stderr, "%s\n", err);
  CHECK(added);
  if (added) {
    CHECK_EQ_INT(model.num_kernels, 1);
    CHECK_EQ_INT(model.num_modules, 1);
    CHECK(model.module_sizes[0] > 0 && strstr(model.modules[0], ".entry nvfuser_fusion_id1_k0__vector") != NULL);
    const fpm_kernel *k = &model.kernels[0];
    CHECK_EQ_INT(k->num_variants, 2);
    CHECK_EQ_INT(k->num_params, 6); /* five views and the output */
    CHECK(strcmp(k->variants[0].entry, "nvfuser_fusion_id1_k0__vector") == 0);
    /* input alignment (outputs are allocated aligned); the run-time input
     * check (the reshape of the `?x?x?` qkv keeps its element count) is the
     * call's, made once before any kernel, not a variant's */
    CHECK_EQ_INT(model.num_checks, 1);
    char cond[256] = "";
    if (model.num_checks == 1) fuser_expr_print(model.checks[0].cond, cond, sizeof cond);
    CHECK(model.num_checks == 1 && strcmp(cond, "((size(2, 0) * size(2, 1)) * size(2, 2)) == 1179648") == 0);
    CHECK(model.num_checks == 1 && model.checks[0].message && strstr(model.checks[0].message, "reshape keeps the element count"));
    CHECK(k->variants[0].num_conditions >= 1);
    char text[1024];
    for (int c = 0; c < k->variants[0].num_conditions; c++)
      CHECK(strstr(fuser_expr_print(k->variants[0].conditions[c], text, sizeof text), "addr(") != NULL);
    CHECK(strcmp(k->variants[1].entry, "nvfuser_fusion_id1_k0__mixed") == 0);
    CHECK_EQ_INT(k->variants[1].num_conditions, 0);
    CHECK(k->variants[0].grid != NULL && strstr(fuser_expr_print(k->variants[0].grid, text, sizeof text), "ceildiv") != NULL);
    printf("vector grid: %s\n", text);
  }
  fuser_plan_model_free(&model);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  free(text);
  UNIT_MAIN_END();
}
