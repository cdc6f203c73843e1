/* libFuzzer target for .mlir input through what every tool does with it:
 * fuser_parse_mlir (tools/common/mlir_reader.h: the screen in front of
 * libMLIR's parser, the parser, the located error after a silent failure),
 * the fuser verifier and the plan pipeline (FUSER_PLAN_PIPELINE, the passes
 * every compile runs first).
 *
 * A refusal at any step must come with a diagnostic. Text
 * that parses and verifies must print and parse back to the same text, and
 * so must the module after a successful pipeline run, which must also
 * verify. The kernel lowering is left out (its walker belongs to issue 12). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "fuzz_common.h"
#include "lowering/lowering.h"
#include "support/mlir_print.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "tools/common/mlir_reader.h"

static MlirLogicalResult count(MlirDiagnostic d, void *ud) {
  (void)d;
  (*(int *)ud)++;
  return mlirLogicalResultSuccess();
}

static MlirContext ctx;
static int diagnostics, runs;

/* How many inputs share one context. A context keeps every uniqued location
 * and attribute, so it is recreated now and then to bound memory;
 * FUSER_FUZZ_CONTEXT_RUNS lowers the period, so that a short run (the leak
 * check of scripts/fuzz-smoke.sh) recreates it many times. */
static int context_period(void) {
  static int period;
  if (!period) {
    const char *env = getenv("FUSER_FUZZ_CONTEXT_RUNS");
    period = env && atoi(env) > 0 ? atoi(env) : 2000;
  }
  return period;
}

/* A fresh context without threads. With multithreading on (the default),
 * each context owns an LLVM thread pool whose workers and MLIR's per-thread
 * uniquer caches live in thread-local storage; recreating the context every
 * N inputs left some of that storage unfreed, and LeakSanitizer reported it
 * after 50 minutes (2,624 bytes, no fuser frame). Off, there is no pool and
 * no per-thread cache, and the passes run the same code on one thread. */
static MlirContext fresh_context(void) {
  MlirContext c = fuser_context_create();
  FUZZ_REQUIRE(!mlirContextIsNull(c), "no context");
  mlirContextEnableMultithreading(c, false);
  mlirContextAttachDiagnosticHandler(c, count, &diagnostics, NULL);
  return c;
}

static char *print_generic(MlirOperation op) {
  strbuf b = {0};
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(op, flags, fuser_print_to_strbuf, &b);
  mlirOpPrintingFlagsDestroy(flags);
  return b.data ? b.data : calloc(1, 1);
}

/* print -> parse -> print gives the same text */
static void round_trip(MlirModule m, const char *when) {
  char *a = print_generic(mlirModuleGetOperation(m));
  int before = diagnostics;
  MlirModule again = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(a));
  FUZZ_REQUIRE(!mlirModuleIsNull(again), "%s: the printed module does not parse (%d diagnostics):\n%s", when,
               diagnostics - before, a);
  char *b = print_generic(mlirModuleGetOperation(again));
  FUZZ_REQUIRE(strcmp(a, b) == 0, "%s: print, parse, print changed the text:\n%s\n---\n%s", when, a, b);
  free(a);
  free(b);
  mlirModuleDestroy(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* bytecode goes to libMLIR's bytecode reader unscreened: not ours to fuzz */
  if (fuser_is_bytecode((const char *)data, size)) return 0;
  if (mlirContextIsNull(ctx) || ++runs % context_period() == 0) {
    if (!mlirContextIsNull(ctx)) mlirContextDestroy(ctx);
    ctx = fresh_context();
  }
  int before = diagnostics;
  MlirModule m = fuser_parse_mlir(ctx, (const char *)data, size);
  if (mlirModuleIsNull(m)) {
    FUZZ_REQUIRE(diagnostics > before, "fuser_parse_mlir failed without a diagnostic");
    return 0;
  }
  MlirOperation op = mlirModuleGetOperation(m);
  if (fuser_verify(op) != 0) {
    FUZZ_REQUIRE(diagnostics > before, "the verifier refused without a diagnostic");
    mlirModuleDestroy(m);
    return 0;
  }
  round_trip(m, "after parsing");
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  char err[1024] = "";
  FUZZ_REQUIRE(fuser_pipeline_parse(pm, FUSER_PLAN_PIPELINE, err, sizeof err), "the plan pipeline does not parse: %s", err);
  before = diagnostics;
  bool ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  mlirPassManagerDestroy(pm);
  if (!ok) {
    FUZZ_REQUIRE(diagnostics > before, "the plan pipeline failed without a diagnostic");
  } else {
    FUZZ_REQUIRE(mlirOperationVerify(op), "the plan pipeline's result does not verify");
    round_trip(m, "after the plan pipeline");
  }
  mlirModuleDestroy(m);
  return 0;
}
