/* The custom-form check (pretty_form.h). A statement in custom form is
 *   %p = fuser.add %a, %a : tensor<4x8xf32>
 * where the generic form quotes the name:
 *   %p = "fuser.add"(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
 * Such a name can also follow other text on its line: after a function
 * declaration `func.func @f(%a: tensor<2xf32>)fuser.stride -> ...` the
 * parser reads `fuser.stride` as the next op. So every bare `fuser.<name>`
 * token naming a registered op counts, wherever it is; attribute names
 * (`fuser.fusion`, `{fuser.inputs = ...}`) are not op names or are followed
 * by '=', ',' or '}', and `#fuser.`, `!fuser.`, `@fuser.`, `%fuser.` are
 * other tokens. */
#include "tools/common/pretty_form.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

/* A bare `fuser.<op>` at p (p[-1] is the character before, or p is text)? */
static size_t op_name_at(MlirContext ctx, const char *text, const char *p) {
  if (strncmp(p, "fuser.", 6) != 0 || !isalpha((unsigned char)p[6])) return 0;
  if (p > text && (name_char(p[-1]) || strchr("#!@%^-", p[-1]))) return 0;
  size_t n = 6;
  while (name_char(p[n])) n++;
  const char *after = p + n;
  while (*after == ' ' || *after == '\t') after++;
  if (*after == '=' || *after == ',' || *after == '}') return 0; /* a dictionary entry */
  return mlirContextIsRegisteredOperation(ctx, (MlirStringRef){p, n}) ? n : 0;
}

bool fuser_report_pretty_form(MlirContext ctx, const char *text) {
  int line = 1, col = 1;
  for (const char *p = text; *p; p++, col++) {
    if (*p == '\n') {
      line++, col = 0;
    } else if (p[0] == '/' && p[1] == '/') {
      while (p[1] && p[1] != '\n') p++, col++;
    } else if (*p == '"') { /* a string literal, with backslash escapes */
      while (p[1] && p[1] != '"' && p[1] != '\n') {
        if (p[1] == '\\' && p[2] && p[2] != '\n') p++, col++;
        p++, col++;
      }
      if (p[1] == '"') p++, col++;
    } else {
      size_t n = op_name_at(ctx, text, p);
      if (!n) continue;
      char msg[256];
      snprintf(msg, sizeof msg, "fuser ops print and parse in generic form: \"%.*s\"(...) : (operand types) -> result types",
               (int)n, p);
      mlirEmitError(mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("-"), (unsigned)line, (unsigned)col), msg);
      return true;
    }
  }
  return false;
}
