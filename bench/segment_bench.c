/* segment_bench: how the fuser passes scale with fusion size.
 *
 * Builds fusions of N ops (N = 100, 1,000, 10,000): a long chain of
 * element-wise ops over a 2-D input with a row reduction every 50 ops whose
 * result is broadcast back, then
 * times parsing, the C verifier and the pipeline
 * fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order,
 * fuser-segment, and prints one line per size with the kernel count (a row
 * reduction, its broadcast back and the ops after it share a kernel, so the
 * cuts come from fuser-segment's kernel op budget, every 1,000 ops). nvFuser's segmenter took
 * 300 s on large graphs (#3510); these passes should grow about linearly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/strbuf.h"
#include "dialects/fuser.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A fusion of about n ops. */
static char *make_fusion(int n) {
  strbuf t = {0};
  const char *T = "tensor<64x128xf32>", *R = "tensor<64xf32>";
  sb_printf(&t, "func.func @big(%%arg0: %s, %%arg1: %s) -> %s attributes {fuser.fusion} {\n", T, T, T);
  sb_printf(&t, "  %%v0 = \"fuser.add\"(%%arg0, %%arg1) : (%s, %s) -> %s\n", T, T, T);
  for (int i = 1; i < n; i++) {
    if (i % 50 == 0) { /* row sum, broadcast back, combine */
      sb_printf(&t, "  %%r%d = \"fuser.sum\"(%%v%d) {dims = array<i64: 1>, keepdim = false} : (%s) -> %s\n", i, i - 1, T, R);
      sb_printf(&t, "  %%b%d = \"fuser.broadcast_in_dim\"(%%r%d) {broadcast_dims = array<i64: 0>} : (%s) -> %s\n", i, i, R, T);
      sb_printf(&t, "  %%v%d = \"fuser.sub\"(%%v%d, %%b%d) : (%s, %s) -> %s\n", i, i - 1, i, T, T, T);
      i += 2;
      sb_printf(&t, "  %%v%d = \"fuser.neg\"(%%v%d) : (%s) -> %s\n", i - 1, i - 3, T, T);
      sb_printf(&t, "  %%v%d = \"fuser.mul\"(%%v%d, %%v%d) : (%s, %s) -> %s\n", i, i - 1, i - 2, T, T, T);
    } else {
      const char *op = (i % 3 == 0) ? "fuser.tanh" : (i % 3 == 1) ? "fuser.neg" : "fuser.exp";
      sb_printf(&t, "  %%v%d = \"%s\"(%%v%d) : (%s) -> %s\n", i, op, i - 1, T, T);
    }
  }
  sb_printf(&t, "  return %%v%d : %s\n}\n", n - 1, T);
  return t.data;
}

int main(int argc, char **argv) {
  int sizes[] = {100, 1000, 10000};
  MlirContext ctx = fuser_context_create();
  mlirContextEnableMultithreading(ctx, false);
  printf("%8s %10s %10s %12s %10s\n", "ops", "parse_ms", "verify_ms", "passes_ms", "kernels");
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    char *src = make_fusion(sizes[s]);
    double t0 = now_ms();
    MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(src));
    double t1 = now_ms();
    if (mlirModuleIsNull(m)) {
      fprintf(stderr, "segment_bench: generated fusion failed to parse\n");
      return 1;
    }
    int errors = fuser_verify(mlirModuleGetOperation(m));
    double t2 = now_ms();
    MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
    char err[512];
    if (errors || !fuser_pipeline_parse(pm, "builtin.module(fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)", err, sizeof err)) {
      fprintf(stderr, "segment_bench: %s\n", errors ? "verifier failed" : err);
      return 1;
    }
    bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m)));
    double t3 = now_ms();
    int kernels = 0;
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(mlirModuleGetOperation(m), 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      kernels += !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.kernel")));
    printf("%8d %10.1f %10.1f %12.1f %10d%s\n", sizes[s], t1 - t0, t2 - t1, t3 - t2, kernels,
           ok ? "" : "  (pipeline failed)");
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(m);
    free(src);
  }
  mlirContextDestroy(ctx);
  return 0;
}
