/* fuser_parse_mlir (mlir_reader.h): the one way user .mlir becomes a
 * module. Screen, parse, and make sure a failure said something:
 *
 *   func.func @f(%a: tensor<2xf32>)fuser.stride -> tensor<2xf32> {...}
 *
 * makes libMLIR's parser fail without any diagnostic (the declaration ends
 * at ')', and the IRDL op `fuser.stride` has no custom parser); the reader
 * then gets "fuser ops print and parse in generic form" at 1:34. A silent
 * failure of any other kind gets a located error at 1:1 rather than none. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "tools/common/mlir_reader.h"
#include "tools/common/pretty_form.h"

bool fuser_is_bytecode(const char *data, size_t len) { return len >= 4 && memcmp(data, "ML\xefR", 4) == 0; }

/* Counts errors and passes them on (failure: the next handler sees them). */
static MlirLogicalResult count_errors(MlirDiagnostic d, void *ud) {
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) (*(int *)ud)++;
  return mlirLogicalResultFailure();
}

static void emit_at(MlirContext ctx, int line, int col, const char *msg) {
  mlirEmitError(mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("-"), (unsigned)line, (unsigned)col), msg);
}

/* The screen of text before the parser; false after emitting its error. */
static bool screen(MlirContext ctx, const char *text, size_t len) {
  const char *nul = memchr(text, 0, len);
  if (nul) { /* the parser would stop there silently */
    int line = 1, col = 1;
    for (const char *c = text; c < nul; c++) {
      if (*c == '\n') line++, col = 1;
      else col++;
    }
    emit_at(ctx, line, col, "unexpected NUL byte; expected text");
    return false;
  }
  fuser_text_error e;
  if (!fuser_screen_mlir_text(text, &e) || !fuser_nesting_ok(text, FUSER_MAX_NESTING, &e)) {
    emit_at(ctx, e.line, e.col, e.message);
    return false;
  }
  return true;
}

MlirModule fuser_parse_mlir(MlirContext ctx, const char *text, size_t len) {
  if (fuser_is_bytecode(text, len)) return mlirModuleCreateParse(ctx, mlirStringRefCreate(text, len));
  char *copy = malloc(len + 1); /* the screens read NUL-terminated text */
  if (!copy) {
    emit_at(ctx, 1, 1, "out of memory reading the input");
    return (MlirModule){NULL};
  }
  memcpy(copy, text, len);
  copy[len] = 0;
  MlirModule m = {NULL};
  if (screen(ctx, copy, len)) {
    int errors = 0;
    MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(ctx, count_errors, &errors, NULL);
    m = mlirModuleCreateParse(ctx, mlirStringRefCreate(copy, len));
    if (mlirModuleIsNull(m) && errors == 0 && !fuser_report_pretty_form(ctx, copy))
      emit_at(ctx, 1, 1, "the MLIR parser failed without a diagnostic");
    mlirContextDetachDiagnosticHandler(ctx, id);
  }
  free(copy);
  return m;
}
