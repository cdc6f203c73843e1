/* fuser-ptx: plan-level IR (kernel functions) to PTX and the launch plan.
 *
 *   fuser-ptx [--chip=sm_90] [--unroll=N (default: per kernel)] [--block-size=128] [--launch-plan] [--binary=<name>] [--time] [-o out] [input.mlir|-]
 *
 * Runs fuser-verify; when the input holds fusions not yet segmented
 * (fuser.fusion without fuser.plan), the plan passes (fuser-remove-empty,
 * fuser-alias-meta-ops, fuser-allocation-order, fuser-segment); then
 * fuser_plan_to_ptx_pipeline (fuser-vectorize, fuser-lower-kernels,
 * fuser-kernels-to-gpu, the upstream NVVM pipeline and
 * gpu-module-to-binary{format=isa}). Prints `// entry <name> binary <b>
 * kernel <k> variant <v> width <W>` for every kernel variant, then each PTX
 * binary once after `// binary <b>`; --binary=<b> prints only that binary's
 * PTX (for ptxas); --binaries-to=<prefix> writes each binary to
 * <prefix><binary>.ptx and prints the paths, one a line; --launch-plan
 * prints the text form of lowering/launch_plan.h.
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

static bool run_pipeline(MlirContext ctx, MlirOperation op, const char *text) {
  char err[1024];
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, text, err, sizeof err);
  if (!ok) fprintf(stderr, "fuser-ptx: error: %s\n", err);
  ok = ok && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  return ok;
}

int main(int argc, char **argv) {
  const char *input = "-", *output = NULL, *chip = "sm_90";
  const char *only_binary = NULL, *prefix = NULL;
  bool plan = false, timing = false;
  int unroll = 0, block_size = 128; /* unroll 0: chosen per kernel */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--chip=", 7) == 0) chip = a + 7;
    else if (strcmp(a, "--launch-plan") == 0) plan = true;
    else if (strncmp(a, "--unroll=", 9) == 0) unroll = atoi(a + 9);
    else if (strncmp(a, "--block-size=", 13) == 0) block_size = atoi(a + 13);
    else if (strcmp(a, "--time") == 0) timing = true;
    else if (strncmp(a, "--binary=", 9) == 0) only_binary = a + 9;
    else if (strncmp(a, "--binaries-to=", 14) == 0) prefix = a + 14;
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
  char pipeline[2048];
  fuser_plan_to_ptx_pipeline_with(chip, unroll, block_size, pipeline, sizeof pipeline);
  /* stage 1, the plan (when not planned yet); stage 2, the PTX */
  bool ok = !fuser_module_needs_plan(op) || run_pipeline(ctx, op, FUSER_PLAN_PIPELINE);
  ok = ok && run_pipeline(ctx, op, pipeline);
  double t2 = now_ms();
  if (!ok) return 1;
  fuser_launch *ls;
  int n = fuser_launch_plan_read(op, &ls);
  FILE *out = stdout;
  if (output && strcmp(output, "-") != 0 && !(out = fopen(output, "w"))) {
    fprintf(stderr, "fuser-ptx: error: cannot write '%s'\n", output);
    return 1;
  }
  int status = 0;
  if (plan) fuser_launch_plan_write(out, ls, n);
  else if (prefix) {
    for (int i = 0; i < n && !status; i++) {
      bool first = true;
      for (int j = 0; j < i; j++) first &= strcmp(ls[j].binary, ls[i].binary) != 0;
      if (!first || !ls[i].ptx) continue;
      char path[1024];
      snprintf(path, sizeof path, "%s%s.ptx", prefix, ls[i].binary);
      FILE *f = fopen(path, "w");
      if (!f) {
        fprintf(stderr, "fuser-ptx: error: cannot write '%s'\n", path);
        status = 1;
        break;
      }
      fwrite(ls[i].ptx, 1, ls[i].ptx_len, f);
      fclose(f);
      fprintf(out, "%s\n", path);
    }
  } else if (only_binary) {
    int found = -1;
    for (int i = 0; i < n && found < 0; i++)
      if (strcmp(ls[i].binary, only_binary) == 0 && ls[i].ptx) found = i;
    if (found < 0) {
      fprintf(stderr, "fuser-ptx: error: no binary named '%s'\n", only_binary);
      status = 1;
    } else fwrite(ls[found].ptx, 1, ls[found].ptx_len, out);
  } else {
    for (int i = 0; i < n; i++)
      fprintf(out, "// entry %s binary %s kernel %s variant %s width %d\n", ls[i].entry, ls[i].binary, ls[i].kernel,
              ls[i].variant, ls[i].vector_width);
    for (int i = 0; i < n; i++) {
      bool first = true;
      for (int j = 0; j < i; j++) first &= strcmp(ls[j].binary, ls[i].binary) != 0;
      if (!first || !ls[i].ptx) continue;
      fprintf(out, "// binary %s\n", ls[i].binary);
      fwrite(ls[i].ptx, 1, ls[i].ptx_len, out);
    }
  }
  if (timing)
    fprintf(stderr, "fuser-ptx: %d kernel variants; context %.1f ms, IR to PTX %.1f ms\n", n, t1 - t0, t2 - t1);
  if (out != stdout) fclose(out);
  fuser_launch_plan_free(ls, n);
  mlirModuleDestroy(module);
  fuser_diag_free(&diag);
  mlirContextDestroy(ctx);
  free(text);
  return status;
}
