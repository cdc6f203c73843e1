/* libFuzzer target for the nvFuser script importer (frontend/).
 *
 * Every input is imported; a successful import must verify, export, and
 * import again to the same IR (the round-trip property the lit tests check
 * on the corpus). A crash, a sanitizer report or a broken round trip is a
 * finding. Built only with -DFUSER_FUZZ=ON and clang; docs/fuzzing.md has
 * the commands. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "support/mlir_print.h"
#include "frontend/nvfuser_export.h"
#include "frontend/nvfuser_import.h"
#include "mlir-c/Diagnostics.h"

static MlirLogicalResult swallow(MlirDiagnostic d, void *ud) {
  (void)d;
  (*(int *)ud)++;
  return mlirLogicalResultSuccess();
}

static char *print_module(MlirModule m) {
  strbuf b = {0};
  mlirOperationPrint(mlirModuleGetOperation(m), fuser_print_to_strbuf, &b);
  return b.data;
}

static MlirContext ctx;
static int diagnostics, runs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The context keeps every uniqued location and attribute: start a fresh
   * one now and then so memory stays bounded. */
  if (mlirContextIsNull(ctx) || ++runs % 4000 == 0) {
    if (!mlirContextIsNull(ctx)) mlirContextDestroy(ctx);
    ctx = fuser_context_create();
    if (mlirContextIsNull(ctx)) abort();
    mlirContextAttachDiagnosticHandler(ctx, swallow, &diagnostics, NULL);
  }
  int before = diagnostics;
  MlirModule m = fuser_import_nvfuser(ctx, (const char *)data, size, "fuzz.py");
  if (mlirModuleIsNull(m)) {
    if (diagnostics == before) { /* a failed import must say why */
      fprintf(stderr, "import failed without a diagnostic\n");
      abort();
    }
    return 0;
  }
  if (diagnostics != before) {
    fprintf(stderr, "import succeeded but emitted a diagnostic\n");
    abort();
  }
  char *script = fuser_export_nvfuser(mlirModuleGetOperation(m));
  if (!script) {
    fprintf(stderr, "export of an imported fusion failed\n");
    abort();
  }
  MlirModule again = fuser_import_nvfuser(ctx, script, strlen(script), "exported.py");
  if (mlirModuleIsNull(again)) {
    fprintf(stderr, "re-import of the exported script failed:\n%s\n", script);
    abort();
  }
  char *a = print_module(m), *b = print_module(again);
  if (strcmp(a, b) != 0) {
    fprintf(stderr, "round trip changed the IR:\n%s\n---\n%s\n", a, b);
    abort();
  }
  free(a);
  free(b);
  free(script);
  mlirModuleDestroy(again);
  mlirModuleDestroy(m);
  return 0;
}
