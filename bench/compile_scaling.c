/* compile_scaling: how the kernel compile grows with a pointwise chain.
 *
 * Builds a fusion of N element-wise ops (x = x + b, x = x * b, ... over two
 * `?` x `?` f32 inputs: one long dependent chain) for N = 1,000, 10,000 and
 * 100,000 (or the sizes given), parses it and times, in CPU seconds of this
 * process (the machine may be shared):
 *   plan     FUSER_PLAN_PIPELINE (segmentation; fuser-segment's kernel op
 *            budget, max-kernel-ops=1000, cuts the chain every 1,000 ops)
 *   lower    fuser-vectorize, fuser-schedule, fuser-lower-kernels (the access
 *            analysis and the kernel generator, both iterative)
 *   gpu      fuser-kernels-to-gpu
 *   ptx      the upstream NVVM pipeline to PTX (LLVM), for N <= --ptx-up-to
 *            (default: every size)
 * and prints one line per size with the kernel count and the time per op.
 * Every column grows linearly: before the budget, one 10,000-op kernel body
 * took LLVM's NVPTX code generation 26 s (its DAG combiner over one basic
 * block is superlinear) and 100,000 did not finish; before the walks were
 * iterative, a 5,000-op chain overflowed the stack.
 *
 * usage: compile_scaling [--ptx-up-to=N] [N...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/strbuf.h"
#include "dialects/fuser.h"
#include "lowering/lowering.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"

static double cpu_s(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* The chain of n ops as a fusion function. */
static char *make_chain(int n) {
  strbuf t = {0};
  const char *T = "tensor<?x?xf32>";
  sb_printf(&t, "func.func @chain(%%arg0: %s {fuser.stride_order = array<i64: 1, 0>}, %%arg1: %s {fuser.stride_order = array<i64: 1, 0>}) -> %s attributes {fuser.fusion} {\n", T, T, T);
  sb_printf(&t, "  %%v0 = \"fuser.add\"(%%arg0, %%arg1) : (%s, %s) -> %s\n", T, T, T);
  for (int i = 1; i < n; i++)
    sb_printf(&t, "  %%v%d = \"fuser.%s\"(%%v%d, %%arg1) : (%s, %s) -> %s\n", i, i % 2 ? "mul" : "add", i - 1, T, T, T);
  sb_printf(&t, "  func.return %%v%d : %s\n}\n", n - 1, T);
  return t.data;
}

static bool run(MlirContext ctx, MlirOperation op, const char *pipeline, double *seconds) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  char err[512] = "";
  fuser_lowering_register_passes();
  bool ok = fuser_pipeline_parse(pm, pipeline, err, sizeof err);
  double t0 = cpu_s();
  ok = ok && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  *seconds = cpu_s() - t0;
  if (!ok) fprintf(stderr, "compile_scaling: %s failed %s\n", pipeline, err);
  mlirPassManagerDestroy(pm);
  return ok;
}

/* Kernel functions the plan made (fuser.kernel), or gpu.func kernels once lowered. */
static int count_kernels(MlirOperation module) {
  int n = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n += !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.kernel")));
  return n;
}

int main(int argc, char **argv) {
  int sizes[16], nsizes = 0, ptx_up_to = 1 << 30;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--ptx-up-to=", 12) == 0) ptx_up_to = atoi(argv[i] + 12);
    else if (nsizes < 16 && atoi(argv[i]) > 0) sizes[nsizes++] = atoi(argv[i]);
    else {
      fprintf(stderr, "usage: compile_scaling [--ptx-up-to=N] [N...]\n");
      return 2;
    }
  }
  if (!nsizes) sizes[0] = 1000, sizes[1] = 10000, sizes[2] = 100000, nsizes = 3;
  MlirContext ctx = fuser_context_create();
  char gpu_to_ptx[2048], ptx_pipeline[2200];
  fuser_gpu_to_ptx_pipeline("sm_90", gpu_to_ptx, sizeof gpu_to_ptx);
  snprintf(ptx_pipeline, sizeof ptx_pipeline, "builtin.module(%s)", gpu_to_ptx);
  printf("%8s %8s %9s %9s %9s %9s %9s %9s %12s\n", "ops", "kernels", "parse_s", "plan_s", "lower_s", "gpu_s", "ptx_s",
         "total_s", "total_us/op");
  int status = 0;
  for (int s = 0; s < nsizes; s++) {
    int n = sizes[s];
    char *src = make_chain(n);
    double t0 = cpu_s();
    MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(src));
    double parse = cpu_s() - t0, plan = 0, lower = 0, gpu = 0, ptx = -1;
    free(src);
    if (mlirModuleIsNull(m)) {
      fprintf(stderr, "compile_scaling: the %d-op chain does not parse\n", n);
      return 1;
    }
    MlirOperation op = mlirModuleGetOperation(m);
    bool ok = run(ctx, op, FUSER_PLAN_PIPELINE, &plan);
    int kernels = count_kernels(op);
    ok = ok && run(ctx, op, "builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels)", &lower) &&
              run(ctx, op, "builtin.module(fuser-kernels-to-gpu)", &gpu) &&
              (n > ptx_up_to || run(ctx, op, ptx_pipeline, &ptx));
    if (!ok) status = 1;
    char ptx_s[32] = "-";
    if (ptx >= 0) snprintf(ptx_s, sizeof ptx_s, "%.2f", ptx);
    double total = parse + plan + lower + gpu + (ptx > 0 ? ptx : 0);
    printf("%8d %8d %9.2f %9.2f %9.2f %9.2f %9s %9.2f %12.1f%s\n", n, kernels, parse, plan, lower, gpu, ptx_s,
           total, total * 1e6 / n, ok ? "" : "  FAILED");
    fflush(stdout);
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
  return status;
}
