/* The custom-form check (pretty_form.h). A statement in custom form is
 *   %p = fuser.add %a, %a : tensor<4x8xf32>
 * where the generic form quotes the name:
 *   %p = "fuser.add"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
 * Attribute names such as fuser.fusion never start a statement, so they are
 * not mistaken for ops. */
#include "tools/common/pretty_form.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"

static const char *skip_blanks(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* The op name's start when the line is `[%results =] fuser.name...`, else NULL. */
static const char *custom_op_start(const char *line) {
  const char *p = skip_blanks(line);
  if (*p == '%') { /* results: %a, %b:2 = */
    while (*p && *p != '=' && *p != '\n' && *p != '"') p++;
    if (*p != '=') return NULL;
    p = skip_blanks(p + 1);
  }
  if (strncmp(p, "fuser.", 6) != 0 || !isalpha((unsigned char)p[6])) return NULL;
  return p;
}

void fuser_report_pretty_form(MlirContext ctx, fuser_diag_state *diag, const char *text) {
  (void)diag;
  int line = 1;
  for (const char *p = text; *p; line++) {
    const char *op = custom_op_start(p);
    if (op) {
      size_t n = 6;
      while (isalnum((unsigned char)op[n]) || op[n] == '_' || op[n] == '.') n++;
      char msg[256];
      snprintf(msg, sizeof msg, "fuser ops print and parse in generic form: \"%.*s\"(...) : (operand types) -> result types",
               (int)n, op);
      MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("-"), (unsigned)line,
                                                    (unsigned)(op - p + 1));
      mlirEmitError(loc, msg);
      return;
    }
    const char *eol = strchr(p, '\n');
    if (!eol) break;
    p = eol + 1;
  }
}
