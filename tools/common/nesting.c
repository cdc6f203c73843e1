/* A guard against input nested so deeply that MLIR's recursive parser (and
 * later IR walks) would overflow the stack: brackets ( [ { < are counted
 * before parsing, outside string literals and `//` comments, and input
 * nested deeper than the limit is refused with a located error. Real
 * fusions nest a handful of levels; MLIR crashed at 5000-20000. */
#include <stdio.h>

#include "tools/common/mlir_reader.h"
#include "tools/common/tool_support.h"

bool fuser_nesting_ok(const char *text, int limit, fuser_text_error *e) {
  int depth = 0, line = 1, col = 1;
  char prev = 0; /* previous character outside strings and comments */
  for (const char *p = text; *p; p++, col++) {
    char c = *p;
    if (c == '\n') {
      line++, col = 0;
    } else if (c == '/' && p[1] == '/') { /* comment: skip to the end of the line */
      while (p[1] && p[1] != '\n') p++;
    } else if (c == '"') { /* string literal, with backslash escapes */
      while (p[1] && p[1] != '"' && p[1] != '\n') {
        if (p[1] == '\\' && p[2] && p[2] != '\n') p++, col++;
        p++, col++;
      }
      if (p[1] == '"') p++, col++;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit) {
        *e = (fuser_text_error){.line = line, .col = col};
        snprintf(e->message, sizeof e->message, "brackets nested deeper than %d levels", limit);
        return false;
      }
    } else if (c == ')' || c == ']' || c == '}' || (c == '>' && prev != '-')) {
      if (depth > 0) depth--; /* a stray '>' (a comparison) only lowers the count */
    }
    if (c != ' ' && c != '\t') prev = c;
  }
  return true;
}

bool fuser_check_nesting(const char *path, const char *text, int limit) {
  fuser_text_error e;
  if (fuser_nesting_ok(text, limit, &e)) return true;
  fprintf(stderr, "%s:%d:%d: error: %s\n", path, e.line, e.col, e.message);
  return false;
}
