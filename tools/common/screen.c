/* A guard in front of MLIR's parser for input that crashes it (issue 17,
 * C8): a dense array of `index` elements, `array<index: 1>` or `array<index>`,
 * reaches `Type::getIntOrFloatBitWidth` on an IndexType inside
 * `Parser::parseDenseArrayAttr` (libMLIR 22 accepts index as "int or
 * float" there, then asks it for a bit width) and the process dies. The
 * same holds through a type alias (`!t = index` ... `array<!t: 1>`), so
 * aliases are followed. Strings and `//` comments are skipped; the error is
 * located at the element type, like the parser's own errors. No fuser IR
 * has index dense arrays (our arrays are i64), so nothing valid is refused.
 * (A fuser op in custom syntax, which the parser refuses silently, gets its
 * error after the parse: tools/common/pretty_form.c.) */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tools/common/mlir_reader.h"
#include "tools/common/tool_support.h"

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

/* Skips whitespace and `//` comments (the lexer allows both between tokens). */
static const char *skip_space(const char *p) {
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (p[0] != '/' || p[1] != '/') return p;
    while (*p && *p != '\n') p++;
  }
}

/* Is `p` (a type's first character) `index`, or an alias that resolves to
 * it? An alias is looked up textually: a line `!name = <type>`. */
static bool is_index_type(const char *text, const char *p, int depth) {
  if (strncmp(p, "index", 5) == 0 && !ident_char(p[5])) return true;
  if (*p != '!' || depth > 16) return false;
  size_t n = 1;
  while (ident_char(p[n])) n++;
  for (const char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *l = line;
    while (*l == ' ' || *l == '\t') l++;
    if (strncmp(l, p, n) != 0 || ident_char(l[n])) continue;
    const char *eq = l + n;
    while (*eq == ' ' || *eq == '\t') eq++;
    if (*eq == '=') return is_index_type(text, skip_space(eq + 1), depth + 1);
  }
  return false;
}

bool fuser_screen_mlir_text(const char *text, fuser_text_error *e) {
  int line = 1, col = 1;
  for (const char *p = text; *p; p++, col++) {
    char c = *p;
    if (c == '\n') {
      line++, col = 0;
    } else if (c == '/' && p[1] == '/') {
      while (p[1] && p[1] != '\n') p++, col++;
    } else if (c == '"') {
      while (p[1] && p[1] != '"' && p[1] != '\n') {
        if (p[1] == '\\' && p[2] && p[2] != '\n') p++, col++;
        p++, col++;
      }
      if (p[1] == '"') p++, col++;
    } else if (c == 'a' && strncmp(p, "array", 5) == 0 && (p == text || !ident_char(p[-1]))) {
      const char *q = skip_space(p + 5);
      if (*q != '<') continue;
      const char *t = skip_space(q + 1);
      if (is_index_type(text, t, 0)) {
        int l = line, k = col; /* the element type's position */
        for (const char *r = p; r < t; r++, k++)
          if (*r == '\n') l++, k = 0;
        *e = (fuser_text_error){l, k, "a dense array of 'index' elements is not supported (use i64)"};
        return false;
      }
    }
  }
  return true;
}

bool fuser_screen_mlir(const char *path, const char *text) {
  fuser_text_error e;
  if (fuser_screen_mlir_text(text, &e)) return true;
  fprintf(stderr, "%s:%d:%d: error: %s\n", path, e.line, e.col, e.message);
  return false;
}
