/* fuser-ptx: plan-level IR (kernel functions) to PTX and the launch plan.
 *
 *   fuser-ptx [--chip=sm_90] [--launch-plan] [--time] [-o out] [input.mlir|-]
 *
 * Runs fuser-verify, then fuser_plan_to_ptx_pipeline (fuser-vectorize,
 * fuser-lower-kernels, fuser-kernels-to-gpu, the upstream NVVM pipeline and
 * gpu-module-to-binary{format=isa}) and prints, per kernel variant, a
 * header line `// entry <name> kernel <k> variant <v> width <W>` and its
 * PTX; with --launch-plan the text form of lowering/launch_plan.h instead.
 * (`fuser-translate --emit-ptx` is meant to do the same from a script.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dialects/fuser.h"
#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "tools/common/tool_support.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  const char *input = "-", *output = NULL, *chip = "sm_90";
  bool plan = false, timing = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--chip=", 7) == 0) chip = a + 7;
    else if (strcmp(a, "--launch-plan") == 0) plan = true;
    else if (strcmp(a, "--time") == 0) timing = true;
    else if (strcmp(a, "-o") == 0 && i + 1 < argc) output = argv[++i];
    else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fuser-ptx: error: unknown option '%s'\n", a);
      return 1;
    } else input = a;
  }
  double t0 = now_ms();
  char *text = fuser_read_file("fuser-ptx", input, NULL);
  if (!text) return 1;
  MlirContext ctx = fuser_context_create();
  if (mlirContextIsNull(ctx)) return 1;
  fuser_diag_state diag = {.path = strcmp(input, "-") == 0 ? "<stdin>" : input, .source = text};
  fuser_diag_attach(ctx, &diag);
  double t1 = now_ms();
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module)) return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  if (fuser_verify(op) != 0) return 1;
  char pipeline[2048], err[1024];
  fuser_plan_to_ptx_pipeline(chip, pipeline, sizeof pipeline);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  if (!fuser_pipeline_parse(pm, pipeline, err, sizeof err)) {
    fprintf(stderr, "fuser-ptx: error: %s\n", err);
    return 1;
  }
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  double t2 = now_ms();
  if (!ok) return 1;
  fuser_launch *ls;
  int n = fuser_launch_plan_read(op, &ls);
  FILE *out = stdout;
  if (output && strcmp(output, "-") != 0 && !(out = fopen(output, "w"))) {
    fprintf(stderr, "fuser-ptx: error: cannot write '%s'\n", output);
    return 1;
  }
  if (plan) fuser_launch_plan_write(out, ls, n);
  else
    for (int i = 0; i < n; i++) {
      fprintf(out, "// entry %s kernel %s variant %s width %d\n", ls[i].entry, ls[i].kernel, ls[i].variant,
              ls[i].vector_width);
      if (ls[i].ptx) fwrite(ls[i].ptx, 1, ls[i].ptx_len, out);
    }
  if (timing)
    fprintf(stderr, "fuser-ptx: %d kernel variants; context %.1f ms, IR to PTX %.1f ms\n", n, t1 - t0, t2 - t1);
  if (out != stdout) fclose(out);
  fuser_launch_plan_free(ls, n);
  mlirModuleDestroy(module);
  fuser_diag_free(&diag);
  mlirContextDestroy(ctx);
  free(text);
  return 0;
}
