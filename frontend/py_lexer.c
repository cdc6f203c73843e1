/* The tokenizer for the Python subset of frontend/py_ast.h: Python's rules
 * for logical lines (newlines inside brackets are whitespace), comments,
 * and INDENT/DEDENT from leading whitespace; numbers, names, strings and
 * punctuation. Bounded by `len`, so the text need not be NUL-terminated. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/py_ast.h"

#define MAX_INDENT_LEVELS 64

struct py_lexer {
  const char *text;
  size_t len, pos;
  int line, col;
  int bracket_depth;
  bool at_line_start;  /* no token yet on this logical line */
  bool line_has_tokens;
  int indents[MAX_INDENT_LEVELS];
  int n_indents;
  int pending_dedents;
  bool pending_indent;
  bool eof_newline_done;
};

py_lexer *py_lexer_create(const char *text, size_t len) {
  py_lexer *lx = calloc(1, sizeof *lx);
  lx->text = text;
  lx->len = len;
  lx->line = lx->col = 1;
  lx->at_line_start = true;
  lx->n_indents = 1; /* indents[0] = 0 */
  return lx;
}

void py_lexer_destroy(py_lexer *lx) { free(lx); }

static bool lex_error(py_error *err, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err->line = line;
  err->col = col;
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return false;
}

static int peek(const py_lexer *lx, size_t ahead) {
  return lx->pos + ahead < lx->len ? (unsigned char)lx->text[lx->pos + ahead] : -1;
}

static void advance(py_lexer *lx) {
  if (lx->pos >= lx->len) return;
  if (lx->text[lx->pos] == '\n') lx->line++, lx->col = 1;
  else lx->col++;
  lx->pos++;
}

static bool is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident(int c) { return is_ident_start(c) || is_digit(c); }

static void skip_comment(py_lexer *lx) {
  while (peek(lx, 0) != -1 && peek(lx, 0) != '\n') advance(lx);
}

/* At the start of a logical line: measure the indentation of the next line
 * that holds a token, skipping blank and comment-only lines. Returns false
 * on an inconsistent dedent. */
static bool measure_indent(py_lexer *lx, py_error *err) {
  for (;;) {
    int width = 0;
    while (peek(lx, 0) == ' ' || peek(lx, 0) == '\t' || peek(lx, 0) == '\r' || peek(lx, 0) == '\f') {
      if (peek(lx, 0) == '\t') width = (width / 8 + 1) * 8;
      else if (peek(lx, 0) == ' ') width++;
      advance(lx);
    }
    int c = peek(lx, 0);
    if (c == '#') skip_comment(lx), c = peek(lx, 0);
    if (c == '\n') {
      advance(lx);
      continue;
    }
    if (c == -1) return true; /* end of file: the caller emits the dedents */
    int top = lx->indents[lx->n_indents - 1];
    if (width > top) {
      if (lx->n_indents == MAX_INDENT_LEVELS)
        return lex_error(err, lx->line, lx->col, "unsupported Python: more than %d nested blocks", MAX_INDENT_LEVELS - 1);
      lx->indents[lx->n_indents++] = width;
      lx->pending_indent = true;
    } else {
      while (width < lx->indents[lx->n_indents - 1]) {
        lx->n_indents--;
        lx->pending_dedents++;
      }
      if (width != lx->indents[lx->n_indents - 1])
        return lex_error(err, lx->line, lx->col, "unindent does not match any outer indentation level");
    }
    return true;
  }
}

static void make(py_token *tok, py_token_kind kind, int line, int col, const char *start, size_t len) {
  memset(tok, 0, sizeof *tok);
  tok->kind = kind;
  tok->line = line;
  tok->col = col;
  tok->text.data = start;
  tok->text.len = len;
}

/* Digits with Python's single underscores between them (`1_000`); false
 * when an underscore does not stand between two digits. */
static void lex_digits(py_lexer *lx) {
  while (is_digit(peek(lx, 0)) || (peek(lx, 0) == '_' && is_digit(peek(lx, 1)) && lx->pos > 0 &&
                                   is_digit((unsigned char)lx->text[lx->pos - 1])))
    advance(lx);
}

static bool lex_number(py_lexer *lx, py_token *tok, py_error *err) {
  int line = lx->line, col = lx->col;
  size_t start = lx->pos;
  bool is_float = false;
  lex_digits(lx);
  if (peek(lx, 0) == '.') {
    is_float = true;
    advance(lx);
    lex_digits(lx);
  }
  if (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') {
    int sign = peek(lx, 1) == '+' || peek(lx, 1) == '-';
    if (is_digit(peek(lx, 1 + sign))) {
      is_float = true;
      advance(lx);
      if (sign) advance(lx);
      lex_digits(lx);
    }
  }
  size_t n = lx->pos - start;
  const char *s = lx->text + start;
  if (is_ident(peek(lx, 0)) || peek(lx, 0) == '.')
    return lex_error(err, line, col, "invalid number literal '%.*s%c'", (int)(n > 40 ? 40 : n), s, peek(lx, 0));
  char buf[64];
  size_t m = 0; /* the literal without its underscores */
  for (size_t i = 0; i < n; i++)
    if (s[i] != '_') {
      if (m + 1 >= sizeof buf) return lex_error(err, line, col, "number literal '%.20s...' is too long", s);
      buf[m++] = s[i];
    }
  buf[m] = 0;
  make(tok, is_float ? PY_T_FLOAT : PY_T_INT, line, col, s, n);
  errno = 0;
  if (is_float) {
    tok->fval = strtod(buf, NULL);
    if (errno == ERANGE && isinf(tok->fval))
      return lex_error(err, line, col, "float literal '%s' is out of range", buf);
  } else {
    if (m > 1 && buf[0] == '0')
      for (size_t i = 0; i < m; i++)
        if (buf[i] != '0') return lex_error(err, line, col, "invalid number literal '%s': leading zeros", buf);
    unsigned long long v = strtoull(buf, NULL, 10);
    if (errno == ERANGE || v > (unsigned long long)INT64_MAX)
      return lex_error(err, line, col, "integer literal '%s' does not fit in 64 bits", buf);
    tok->ival = (int64_t)v;
  }
  return true;
}

static bool lex_string(py_lexer *lx, py_token *tok, py_error *err) {
  int line = lx->line, col = lx->col;
  int quote = peek(lx, 0);
  if (peek(lx, 1) == quote && peek(lx, 2) == quote)
    return lex_error(err, line, col, "unsupported Python: triple-quoted string");
  advance(lx);
  size_t start = lx->pos;
  for (;;) {
    int c = peek(lx, 0);
    if (c == -1 || c == '\n') return lex_error(err, line, col, "unterminated string literal");
    if (c == '\\') {
      advance(lx);
      if (peek(lx, 0) == -1 || peek(lx, 0) == '\n') return lex_error(err, line, col, "unterminated string literal");
      advance(lx);
      continue;
    }
    if (c == quote) break;
    advance(lx);
  }
  make(tok, PY_T_STRING, line, col, lx->text + start, lx->pos - start);
  advance(lx);
  return true;
}

static const char *const operators[] = {
    "**=", "//=", ">>=", "<<=", "->", "**", "//", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=", "*=", "/=",
    "%=",  "&=",  "|=",  "^=",  ":=", "(",  ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".",  "=",  "+",
    "-",   "*",   "/",   "%",   "<",  ">",  "&",  "|",  "^",  "~",  "@",  ";",  "!",
};

static bool lex_operator(py_lexer *lx, py_token *tok, py_error *err) {
  int line = lx->line, col = lx->col;
  for (size_t i = 0; i < sizeof operators / sizeof *operators; i++) {
    if (operators[i][0] != lx->text[lx->pos]) continue; /* cheap first: this runs per token */
    size_t n = strlen(operators[i]);
    if (lx->pos + n <= lx->len && memcmp(lx->text + lx->pos, operators[i], n) == 0) {
      make(tok, PY_T_OP, line, col, lx->text + lx->pos, n);
      for (size_t k = 0; k < n; k++) advance(lx);
      if (n == 1 && strchr("([{", operators[i][0])) lx->bracket_depth++;
      if (n == 1 && strchr(")]}", operators[i][0]) && lx->bracket_depth > 0) lx->bracket_depth--;
      return true;
    }
  }
  int c = peek(lx, 0);
  if (c >= 0x20 && c < 0x7f) return lex_error(err, line, col, "unexpected character '%c'", c);
  return lex_error(err, line, col, "unexpected character (byte 0x%02x)", c & 0xff);
}

bool py_lexer_next(py_lexer *lx, py_token *tok, py_error *err) {
  if (lx->at_line_start && lx->bracket_depth == 0 && !lx->pending_indent && lx->pending_dedents == 0) {
    if (!measure_indent(lx, err)) return false;
    lx->at_line_start = false;
  }
  if (lx->pending_indent) {
    lx->pending_indent = false;
    make(tok, PY_T_INDENT, lx->line, lx->col, lx->text + lx->pos, 0);
    return true;
  }
  if (lx->pending_dedents > 0) {
    lx->pending_dedents--;
    make(tok, PY_T_DEDENT, lx->line, lx->col, lx->text + lx->pos, 0);
    return true;
  }
  for (;;) {
    int c = peek(lx, 0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      advance(lx);
    } else if (c == '#') {
      skip_comment(lx);
    } else if (c == '\\' && (peek(lx, 1) == '\n' || (peek(lx, 1) == '\r' && peek(lx, 2) == '\n'))) {
      return lex_error(err, lx->line, lx->col, "unsupported Python: backslash line continuation");
    } else if (c == '\n' && lx->bracket_depth > 0) {
      advance(lx);
    } else {
      break;
    }
  }
  int c = peek(lx, 0);
  if (c == '\n' || c == -1) {
    if (lx->line_has_tokens) {
      make(tok, PY_T_NEWLINE, lx->line, lx->col, lx->text + lx->pos, 0);
      lx->line_has_tokens = false;
      lx->at_line_start = true;
      if (c == '\n') advance(lx);
      return true;
    }
    if (c == '\n') { /* cannot happen: blank lines are skipped by measure_indent */
      advance(lx);
      lx->at_line_start = true;
      return py_lexer_next(lx, tok, err);
    }
    if (lx->bracket_depth > 0)
      return lex_error(err, lx->line, lx->col, "unexpected end of file: unclosed bracket");
    if (lx->n_indents > 1) {
      lx->n_indents--;
      make(tok, PY_T_DEDENT, lx->line, lx->col, lx->text + lx->pos, 0);
      return true;
    }
    make(tok, PY_T_EOF, lx->line, lx->col, lx->text + lx->pos, 0);
    return true;
  }
  lx->line_has_tokens = true;
  if (is_ident_start(c)) {
    int line = lx->line, col = lx->col;
    size_t start = lx->pos;
    while (is_ident(peek(lx, 0))) advance(lx);
    make(tok, PY_T_NAME, line, col, lx->text + start, lx->pos - start);
    return true;
  }
  if (is_digit(c) || (c == '.' && is_digit(peek(lx, 1)))) return lex_number(lx, tok, err);
  if (c == '\'' || c == '"') return lex_string(lx, tok, err);
  return lex_operator(lx, tok, err);
}
