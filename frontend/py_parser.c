/* The recursive-descent parser for the Python subset of frontend/py_ast.h.
 * It tokenizes the whole text first (so it can look one token ahead) and
 * builds the tree in an arena. Constructs outside the subset are reported
 * by name ("unsupported Python: 'for' statement") at their location. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/py_ast.h"

/* Deeper nesting of lists/calls than this is rejected (it also bounds the
 * parser's recursion). */
#define MAX_NESTING 64

/* ---- arena --------------------------------------------------------------- */

typedef struct block {
  struct block *next;
  size_t used, cap;
  max_align_t data[];
} block;

struct py_arena {
  block *head;
};

py_arena *py_arena_create(void) { return calloc(1, sizeof(py_arena)); }

void *py_arena_alloc(py_arena *a, size_t size) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!a->head || a->head->used + size > a->head->cap) {
    size_t cap = size > 65536 ? size : 65536;
    block *b = malloc(sizeof(block) + cap);
    if (!b) abort(); /* out of memory: nothing sensible to report */
    b->next = a->head;
    b->used = 0;
    b->cap = cap;
    a->head = b;
  }
  void *p = (char *)a->head->data + a->head->used;
  a->head->used += size;
  memset(p, 0, size);
  return p;
}

void py_arena_destroy(py_arena *a) {
  if (!a) return;
  for (block *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(a);
}

/* ---- parser state --------------------------------------------------------- */

typedef struct {
  py_arena *arena;
  py_token *toks;
  size_t n, pos;
  py_error *err;
  bool failed;
  int depth;
} parser;

static bool fail_at(parser *p, int line, int col, const char *fmt, ...) {
  if (p->failed) return false;
  va_list ap;
  va_start(ap, fmt);
  p->err->line = line;
  p->err->col = col;
  vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
  va_end(ap);
  p->failed = true;
  return false;
}

static py_token *cur(parser *p) { return &p->toks[p->pos]; }
static py_token *ahead(parser *p, size_t k) { return &p->toks[p->pos + k < p->n ? p->pos + k : p->n - 1]; }
static void next(parser *p) {
  if (p->pos + 1 < p->n) p->pos++;
}

static bool is_op(const py_token *t, const char *op) { return t->kind == PY_T_OP && py_str_eq(t->text, op); }
static bool is_name(const py_token *t, const char *name) { return t->kind == PY_T_NAME && py_str_eq(t->text, name); }

/* A description of a token for "expected X, found Y" messages. */
static void describe(const py_token *t, char *buf, size_t cap) {
  switch (t->kind) {
  case PY_T_EOF: snprintf(buf, cap, "end of file"); break;
  case PY_T_NEWLINE: snprintf(buf, cap, "end of line"); break;
  case PY_T_INDENT: snprintf(buf, cap, "an indented block"); break;
  case PY_T_DEDENT: snprintf(buf, cap, "the end of the block"); break;
  case PY_T_STRING: snprintf(buf, cap, "a string"); break;
  default: snprintf(buf, cap, "'%.*s'", (int)(t->text.len > 40 ? 40 : t->text.len), t->text.data); break;
  }
}

static bool expected(parser *p, const char *what) {
  char found[64];
  describe(cur(p), found, sizeof found);
  if (cur(p)->kind == PY_T_EOF)
    return fail_at(p, cur(p)->line, cur(p)->col, "unexpected end of file: expected %s", what);
  return fail_at(p, cur(p)->line, cur(p)->col, "expected %s, found %s", what, found);
}

static bool expect_op(parser *p, const char *op) {
  if (!is_op(cur(p), op)) {
    char what[16];
    snprintf(what, sizeof what, "'%s'", op);
    return expected(p, what);
  }
  next(p);
  return true;
}

static const char *const keywords[] = {"False", "None", "True", "and", "as", "assert", "async", "await",
                                       "break", "class", "continue", "def", "del", "elif", "else", "except",
                                       "finally", "for", "from", "global", "if", "import", "in", "is",
                                       "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
                                       "while", "with", "yield"};

static bool is_keyword(py_str s) {
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (s.len && s.data[0] == keywords[i][0] && py_str_eq(s, keywords[i])) return true;
  return false;
}

static bool expect_identifier(parser *p, const char *what, py_str *out) {
  if (cur(p)->kind != PY_T_NAME || is_keyword(cur(p)->text)) return expected(p, what);
  *out = cur(p)->text;
  next(p);
  return true;
}

static py_expr *new_expr(parser *p, py_expr_kind kind, const py_token *at) {
  py_expr *e = py_arena_alloc(p->arena, sizeof *e);
  e->kind = kind;
  e->line = at->line;
  e->col = at->col;
  return e;
}

/* ---- expressions ---------------------------------------------------------- */

static py_expr *parse_expr(parser *p);

/* Items up to `close`; a trailing comma is allowed. */
static bool parse_items(parser *p, const char *close, py_expr ***items, int *n, bool *saw_comma) {
  int cap = 0;
  *n = 0;
  *items = NULL;
  *saw_comma = false;
  while (!is_op(cur(p), close)) {
    py_expr *e = parse_expr(p);
    if (!e) return false;
    if (*n == cap) {
      cap = cap ? cap * 2 : 8;
      py_expr **grown = py_arena_alloc(p->arena, sizeof *grown * cap);
      if (*n) memcpy(grown, *items, sizeof *grown * *n);
      *items = grown;
    }
    (*items)[(*n)++] = e;
    if (is_op(cur(p), ",")) {
      *saw_comma = true;
      next(p);
    } else if (!is_op(cur(p), close)) {
      char what[32];
      snprintf(what, sizeof what, "',' or '%s'", close);
      return expected(p, what);
    }
  }
  next(p);
  return true;
}

static bool parse_call_args(parser *p, py_expr *call) {
  int cap = 0;
  bool seen_keyword = false;
  while (!is_op(cur(p), ")")) {
    py_arg arg = {{NULL, 0}, 0, 0, NULL};
    if (is_op(cur(p), "*") || is_op(cur(p), "**"))
      return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: argument unpacking '%.*s'",
                     (int)cur(p)->text.len, cur(p)->text.data);
    if (cur(p)->kind == PY_T_NAME && is_op(ahead(p, 1), "=")) {
      if (is_keyword(cur(p)->text)) return expected(p, "an argument");
      arg.keyword = cur(p)->text;
      arg.kw_line = cur(p)->line;
      arg.kw_col = cur(p)->col;
      for (int i = 0; i < call->n; i++)
        if (call->args[i].keyword.len && call->args[i].keyword.len == arg.keyword.len &&
            memcmp(call->args[i].keyword.data, arg.keyword.data, arg.keyword.len) == 0)
          return fail_at(p, cur(p)->line, cur(p)->col, "keyword argument '%.*s' repeated", (int)arg.keyword.len,
                         arg.keyword.data);
      next(p);
      next(p);
      seen_keyword = true;
    } else if (seen_keyword) {
      return fail_at(p, cur(p)->line, cur(p)->col, "positional argument follows keyword argument");
    }
    if (!(arg.value = parse_expr(p))) return false;
    if (call->n == cap) {
      cap = cap ? cap * 2 : 8;
      py_arg *grown = py_arena_alloc(p->arena, sizeof *grown * cap);
      if (call->n) memcpy(grown, call->args, sizeof *grown * call->n);
      call->args = grown;
    }
    call->args[call->n++] = arg;
    if (is_op(cur(p), ",")) next(p);
    else if (!is_op(cur(p), ")")) return expected(p, "',' or ')'");
  }
  next(p);
  return true;
}

/* A string literal's value: Python's escapes \\ \' \" \n \t \r \0
 * decoded; any other backslash stays, as Python keeps unknown escapes. */
static py_str decode_string(parser *p, py_str raw) {
  if (!memchr(raw.data, '\\', raw.len)) return raw;
  char *out = py_arena_alloc(p->arena, raw.len + 1);
  size_t n = 0;
  for (size_t i = 0; i < raw.len; i++) {
    char c = raw.data[i];
    if (c == '\\' && i + 1 < raw.len) {
      char d = raw.data[i + 1];
      const char *from = "\\'\"ntr0", *to = "\\'\"\n\t\r";
      const char *k = strchr(from, d);
      if (k && d) {
        out[n++] = k - from < 6 ? to[k - from] : '\0';
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return (py_str){out, n};
}

static py_expr *parse_atom(parser *p) {
  py_token *t = cur(p);
  py_expr *e;
  switch (t->kind) {
  case PY_T_INT:
    e = new_expr(p, PY_INT, t);
    e->ival = t->ival;
    next(p);
    return e;
  case PY_T_FLOAT:
    e = new_expr(p, PY_FLOAT, t);
    e->fval = t->fval;
    next(p);
    return e;
  case PY_T_STRING:
    e = new_expr(p, PY_STRING, t);
    e->name = decode_string(p, t->text);
    next(p);
    if (cur(p)->kind == PY_T_STRING) {
      fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: implicit string concatenation");
      return NULL;
    }
    return e;
  case PY_T_NAME:
    if (py_str_eq(t->text, "True")) e = new_expr(p, PY_TRUE, t);
    else if (py_str_eq(t->text, "False")) e = new_expr(p, PY_FALSE, t);
    else if (py_str_eq(t->text, "None")) e = new_expr(p, PY_NONE, t);
    else if (is_keyword(t->text)) {
      fail_at(p, t->line, t->col, "unsupported Python: '%.*s' in an expression", (int)t->text.len, t->text.data);
      return NULL;
    } else {
      e = new_expr(p, PY_NAME, t);
      e->name = t->text;
    }
    next(p);
    return e;
  case PY_T_OP:
    if (is_op(t, "[") || is_op(t, "(")) {
      bool list = is_op(t, "[");
      bool comma;
      e = new_expr(p, list ? PY_LIST : PY_TUPLE, t);
      next(p);
      if (!parse_items(p, list ? "]" : ")", &e->items, &e->n, &comma)) return NULL;
      if (!list && e->n == 1 && !comma) return e->items[0]; /* parenthesized expression */
      return e;
    }
    if (is_op(t, "{")) {
      fail_at(p, t->line, t->col, "unsupported Python: dict or set display");
      return NULL;
    }
    break;
  default:
    break;
  }
  expected(p, "an expression");
  return NULL;
}

static py_expr *parse_postfix(parser *p) {
  py_expr *e = parse_atom(p);
  while (e) {
    py_token *t = cur(p);
    if (is_op(t, ".")) {
      next(p);
      py_expr *a = new_expr(p, PY_ATTR, t);
      a->base = e;
      a->line = e->line;
      a->col = e->col;
      a->name_line = cur(p)->line;
      a->name_col = cur(p)->col;
      if (!expect_identifier(p, "an attribute name after '.'", &a->name)) return NULL;
      e = a;
    } else if (is_op(t, "(")) {
      if (++p->depth > MAX_NESTING) {
        fail_at(p, t->line, t->col, "unsupported Python: expression nested more than %d deep", MAX_NESTING);
        return NULL;
      }
      next(p);
      py_expr *c = new_expr(p, PY_CALL, t);
      c->line = e->line; /* a call is located where its callee starts */
      c->col = e->col;
      c->base = e;
      if (!parse_call_args(p, c)) return NULL;
      p->depth--;
      e = c;
    } else if (is_op(t, "[")) {
      fail_at(p, t->line, t->col, "unsupported Python: subscript");
      return NULL;
    } else {
      break;
    }
  }
  return e;
}

/* ---- arithmetic on number literals -------------------------------------------
 * Printed scripts write constants such as `1/768` or `2 ** -0.5`; Python
 * evaluates them before nvFuser sees a number, so the parser folds them into
 * one literal with Python's rules (true division gives a float, `//` floors,
 * `%` takes the divisor's sign, int ** non-negative int stays an int, bools
 * count as 0 and 1). Arithmetic on anything else (a tensor, a name) is not
 * Python nvFuser scripts contain: a located error. */

typedef struct {
  bool is_float;
  int64_t i;
  double f;
} py_number;

static bool literal_value(const py_expr *e, py_number *out) {
  bool neg = false;
  while (e->kind == PY_NEG) neg = !neg, e = e->base;
  if (e->kind == PY_INT || e->kind == PY_TRUE || e->kind == PY_FALSE) {
    out->is_float = false;
    out->i = e->kind == PY_INT ? e->ival : e->kind == PY_TRUE;
    if (neg && out->i == INT64_MIN) return false;
    if (neg) out->i = -out->i;
    out->f = (double)out->i;
    return true;
  }
  if (e->kind == PY_FLOAT) {
    out->is_float = true;
    out->f = neg ? -e->fval : e->fval;
    return true;
  }
  return false;
}

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Folds `l op r`; NULL after a located error. */
static py_expr *fold(parser *p, py_expr *l, const py_token *op, py_expr *r) {
  py_number a, b;
  char o[4];
  snprintf(o, sizeof o, "%.*s", (int)op->text.len, op->text.data);
  if (!literal_value(l, &a) || !literal_value(r, &b)) {
    fail_at(p, op->line, op->col, "unsupported Python: binary operator '%s'", o);
    return NULL;
  }
  py_expr *e = new_expr(p, PY_INT, op);
  e->line = l->line, e->col = l->col;
  bool ints = !a.is_float && !b.is_float;
  bool zero = ints ? b.i == 0 : b.f == 0;
  if (zero && (!strcmp(o, "/") || !strcmp(o, "//") || !strcmp(o, "%"))) {
    fail_at(p, op->line, op->col, "division by zero in a constant expression");
    return NULL;
  }
  if (ints && strcmp(o, "/") != 0) {
    int64_t v = 0;
    bool overflow = false;
    if (!strcmp(o, "+")) overflow = __builtin_add_overflow(a.i, b.i, &v);
    else if (!strcmp(o, "-")) overflow = __builtin_sub_overflow(a.i, b.i, &v);
    else if (!strcmp(o, "*")) overflow = __builtin_mul_overflow(a.i, b.i, &v);
    else if (!strcmp(o, "//") || !strcmp(o, "%")) {
      if (a.i == INT64_MIN && b.i == -1) overflow = !strcmp(o, "//");
      else v = !strcmp(o, "//") ? floor_div(a.i, b.i) : a.i - floor_div(a.i, b.i) * b.i;
    } else if (b.i >= 0) { /* ** by squaring */
      int64_t base = a.i, k = b.i;
      v = 1;
      while (k && !overflow) {
        if (k & 1) overflow = __builtin_mul_overflow(v, base, &v);
        k >>= 1;
        if (k && !overflow) overflow = __builtin_mul_overflow(base, base, &base);
      }
    } else {
      goto floating; /* int ** negative int is a float */
    }
    if (overflow) {
      fail_at(p, op->line, op->col, "constant expression '%s' overflows 64 bits", o);
      return NULL;
    }
    e->ival = v;
    return e;
  }
floating:
  e->kind = PY_FLOAT;
  if (!strcmp(o, "+")) e->fval = a.f + b.f;
  else if (!strcmp(o, "-")) e->fval = a.f - b.f;
  else if (!strcmp(o, "*")) e->fval = a.f * b.f;
  else if (!strcmp(o, "/")) e->fval = a.f / b.f;
  else if (!strcmp(o, "//")) e->fval = floor(a.f / b.f);
  else if (!strcmp(o, "%")) {
    double m = fmod(a.f, b.f);
    e->fval = m != 0 && ((m < 0) != (b.f < 0)) ? m + b.f : m;
  } else {
    if (a.f == 0 && b.f < 0) {
      fail_at(p, op->line, op->col, "zero to a negative power in a constant expression");
      return NULL;
    }
    e->fval = pow(a.f, b.f);
  }
  return e;
}

static py_expr *parse_unary(parser *p);

/* power: postfix ['**' unary]; '**' binds tighter than a unary minus on its
 * left and looser on its right (-2**2 == -4, 2**-1 == 0.5). */
static py_expr *parse_power(parser *p) {
  py_expr *e = parse_postfix(p);
  if (!e || !is_op(cur(p), "**")) return e;
  py_token *op = cur(p);
  next(p);
  py_expr *r = parse_unary(p);
  return r ? fold(p, e, op, r) : NULL;
}

static py_expr *parse_unary(parser *p) {
  py_token *t = cur(p);
  if (++p->depth > MAX_NESTING) {
    fail_at(p, t->line, t->col, "unsupported Python: expression nested more than %d deep", MAX_NESTING);
    return NULL;
  }
  py_expr *e;
  if (is_op(t, "-") || is_op(t, "+")) {
    next(p);
    py_expr *operand = parse_unary(p);
    if (!operand) return NULL;
    py_number v;
    if (is_op(t, "+") && !literal_value(operand, &v)) {
      fail_at(p, t->line, t->col, "unsupported Python: unary operator '+'");
      return NULL;
    }
    if (is_op(t, "+")) {
      e = operand;
    } else {
      e = new_expr(p, PY_NEG, t);
      e->base = operand;
    }
  } else if (is_op(t, "~") || is_name(t, "not")) {
    fail_at(p, t->line, t->col, "unsupported Python: unary operator '%.*s'", (int)t->text.len, t->text.data);
    return NULL;
  } else if (is_name(t, "lambda") || is_name(t, "await") || is_name(t, "yield")) {
    fail_at(p, t->line, t->col, "unsupported Python: '%.*s' expression", (int)t->text.len, t->text.data);
    return NULL;
  } else {
    e = parse_power(p);
  }
  p->depth--;
  return e;
}

static py_expr *parse_term(parser *p) {
  py_expr *e = parse_unary(p);
  while (e && (is_op(cur(p), "*") || is_op(cur(p), "/") || is_op(cur(p), "//") || is_op(cur(p), "%"))) {
    py_token *op = cur(p);
    next(p);
    py_expr *r = parse_unary(p);
    e = r ? fold(p, e, op, r) : NULL;
  }
  return e;
}

static py_expr *parse_sum(parser *p) {
  py_expr *e = parse_term(p);
  while (e && (is_op(cur(p), "+") || is_op(cur(p), "-"))) {
    py_token *op = cur(p);
    next(p);
    py_expr *r = parse_term(p);
    e = r ? fold(p, e, op, r) : NULL;
  }
  return e;
}

static py_expr *parse_expr(parser *p) {
  py_token *t = cur(p);
  if (++p->depth > MAX_NESTING) {
    fail_at(p, t->line, t->col, "unsupported Python: expression nested more than %d deep", MAX_NESTING);
    return NULL;
  }
  py_expr *e = parse_sum(p);
  if (!e) return NULL;
  p->depth--;
  t = cur(p);
  /* Shifts, bitwise operators, comparisons, conditional expressions: not in the subset. */
  static const char *const binops[] = {"@", "<<", ">>", "&", "|", "^", "<", ">", "==", "!=", "<=", ">="};
  for (size_t i = 0; i < sizeof binops / sizeof *binops; i++)
    if (is_op(t, binops[i])) {
      fail_at(p, t->line, t->col, "unsupported Python: binary operator '%s'", binops[i]);
      return NULL;
    }
  if (is_name(t, "if") || is_name(t, "and") || is_name(t, "or") || is_name(t, "in") || is_name(t, "is") ||
      is_name(t, "not") || is_name(t, "for")) {
    fail_at(p, t->line, t->col, "unsupported Python: '%.*s' in an expression", (int)t->text.len, t->text.data);
    return NULL;
  }
  return e;
}

/* ---- statements ------------------------------------------------------------ */

static py_stmt *parse_stmt(parser *p);

static py_stmt *new_stmt(parser *p, py_stmt_kind kind, const py_token *at) {
  py_stmt *s = py_arena_alloc(p->arena, sizeof *s);
  s->kind = kind;
  s->line = at->line;
  s->col = at->col;
  return s;
}

static bool expect_newline(parser *p) {
  if (cur(p)->kind == PY_T_NEWLINE) {
    next(p);
    return true;
  }
  if (is_op(cur(p), ";")) return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: ';' between statements");
  if (is_op(cur(p), "=") || is_op(cur(p), ":") || (cur(p)->kind == PY_T_OP && cur(p)->text.len >= 2 &&
                                                   cur(p)->text.data[cur(p)->text.len - 1] == '='))
    return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: '%.*s' here (only 'name = expression' and 'a, b = expression' assignments)",
                   (int)cur(p)->text.len, cur(p)->text.data);
  return expected(p, "end of line");
}

static bool parse_block(parser *p, int *n, py_stmt ***body) {
  if (!expect_op(p, ":")) return false;
  if (cur(p)->kind != PY_T_NEWLINE)
    return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: a block on the same line as its header");
  next(p);
  if (cur(p)->kind != PY_T_INDENT) return expected(p, "an indented block");
  next(p);
  int cap = 0;
  *n = 0;
  while (cur(p)->kind != PY_T_DEDENT && cur(p)->kind != PY_T_EOF) {
    py_stmt *s = parse_stmt(p);
    if (!s) return false;
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      py_stmt **grown = py_arena_alloc(p->arena, sizeof *grown * cap);
      if (*n) memcpy(grown, *body, sizeof *grown * *n);
      *body = grown;
    }
    (*body)[(*n)++] = s;
  }
  next(p);
  return true;
}

static bool parse_dotted(parser *p, py_str *out) {
  if (!expect_identifier(p, "a module name", out)) return false;
  while (is_op(cur(p), ".")) {
    next(p);
    py_str part;
    if (!expect_identifier(p, "a module name", &part)) return false;
    out->len = (size_t)(part.data + part.len - out->data);
  }
  return true;
}

static void push_name(parser *p, py_stmt *s, py_str name, int line, int col, int *cap) {
  if (s->n_names == *cap) {
    *cap = *cap ? *cap * 2 : 4;
    py_str *names = py_arena_alloc(p->arena, sizeof *names * *cap);
    int *lines = py_arena_alloc(p->arena, sizeof *lines * *cap), *cols = py_arena_alloc(p->arena, sizeof *cols * *cap);
    if (s->n_names) {
      memcpy(names, s->names, sizeof *names * s->n_names);
      memcpy(lines, s->name_lines, sizeof *lines * s->n_names);
      memcpy(cols, s->name_cols, sizeof *cols * s->n_names);
    }
    s->names = names, s->name_lines = lines, s->name_cols = cols;
  }
  s->names[s->n_names] = name;
  s->name_lines[s->n_names] = line;
  s->name_cols[s->n_names] = col;
  s->n_names++;
}

static py_stmt *parse_import(parser *p) {
  py_token *t = cur(p);
  bool from = is_name(t, "from");
  py_stmt *s = new_stmt(p, from ? PY_FROM_IMPORT : PY_IMPORT, t);
  next(p);
  if (!parse_dotted(p, &s->name)) return NULL;
  if (from) {
    if (!is_name(cur(p), "import")) return expected(p, "'import'"), NULL;
    next(p);
    int cap = 0;
    if (is_op(cur(p), "*")) {
      push_name(p, s, cur(p)->text, cur(p)->line, cur(p)->col, &cap);
      next(p);
    } else {
      for (;;) {
        py_token *nt = cur(p);
        py_str name;
        if (!expect_identifier(p, "a name to import", &name)) return NULL;
        if (is_name(cur(p), "as")) {
          fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: 'import ... as' renaming");
          return NULL;
        }
        push_name(p, s, name, nt->line, nt->col, &cap);
        if (!is_op(cur(p), ",")) break;
        next(p);
      }
    }
  } else if (is_name(cur(p), "as")) {
    fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: 'import ... as' renaming");
    return NULL;
  }
  return expect_newline(p) ? s : NULL;
}

static py_stmt *parse_def(parser *p) {
  py_stmt *s = new_stmt(p, PY_DEF, cur(p));
  next(p);
  if (!expect_identifier(p, "a function name", &s->name) || !expect_op(p, "(")) return NULL;
  int cap = 0;
  while (!is_op(cur(p), ")")) {
    py_param param = {.line = cur(p)->line, .col = cur(p)->col};
    if (is_op(cur(p), "*") || is_op(cur(p), "**") || is_op(cur(p), "/"))
      return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: '%.*s' in a parameter list",
                     (int)cur(p)->text.len, cur(p)->text.data), NULL;
    if (!expect_identifier(p, "a parameter name", &param.name)) return NULL;
    if (is_op(cur(p), ":")) {
      next(p);
      if (!(param.annotation = parse_expr(p))) return NULL;
    }
    if (is_op(cur(p), "="))
      return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: parameter default value"), NULL;
    if (s->n_params == cap) {
      cap = cap ? cap * 2 : 4;
      py_param *grown = py_arena_alloc(p->arena, sizeof *grown * cap);
      if (s->n_params) memcpy(grown, s->params, sizeof *grown * s->n_params);
      s->params = grown;
    }
    s->params[s->n_params++] = param;
    if (is_op(cur(p), ",")) next(p);
    else if (!is_op(cur(p), ")")) return expected(p, "',' or ')'"), NULL;
  }
  next(p);
  if (is_op(cur(p), "->")) {
    next(p);
    if (!(s->value = parse_expr(p))) return NULL;
  }
  return parse_block(p, &s->n_body, &s->body) ? s : NULL;
}

static py_stmt *parse_with(parser *p) {
  py_stmt *s = new_stmt(p, PY_WITH, cur(p));
  next(p);
  if (!(s->value = parse_expr(p))) return NULL;
  if (!is_name(cur(p), "as")) return expected(p, "'as'"), NULL;
  next(p);
  int cap = 0;
  py_token *nt = cur(p);
  py_str name;
  if (!expect_identifier(p, "a name after 'as'", &name)) return NULL;
  push_name(p, s, name, nt->line, nt->col, &cap);
  if (is_op(cur(p), ","))
    return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: several context managers in one 'with'"), NULL;
  return parse_block(p, &s->n_body, &s->body) ? s : NULL;
}

static py_stmt *parse_stmt(parser *p) {
  py_token *t = cur(p);
  if (t->kind == PY_T_INDENT) return fail_at(p, t->line, t->col, "unexpected indent"), NULL;
  if (is_name(t, "import") || is_name(t, "from")) return parse_import(p);
  if (is_name(t, "def")) return parse_def(p);
  if (is_name(t, "with")) return parse_with(p);
  if (is_op(t, "@")) return fail_at(p, t->line, t->col, "unsupported Python: decorator"), NULL;
  if (is_name(t, "pass")) {
    py_stmt *s = new_stmt(p, PY_PASS, t);
    next(p);
    return expect_newline(p) ? s : NULL;
  }
  if (t->kind == PY_T_NAME && is_keyword(t->text) && !is_name(t, "True") && !is_name(t, "False") &&
      !is_name(t, "None"))
    return fail_at(p, t->line, t->col, "unsupported Python: '%.*s' statement", (int)t->text.len, t->text.data), NULL;

  /* An assignment `a = e` or `a, b = e`: names separated by commas, then '='. */
  size_t k = 0;
  while (ahead(p, k)->kind == PY_T_NAME && (is_op(ahead(p, k + 1), ",") || is_op(ahead(p, k + 1), "="))) {
    if (is_op(ahead(p, k + 1), "=")) break;
    k += 2;
  }
  if (ahead(p, k)->kind == PY_T_NAME && is_op(ahead(p, k + 1), "=")) {
    py_stmt *s = new_stmt(p, PY_ASSIGN, t);
    int cap = 0;
    for (;;) {
      py_token *nt = cur(p);
      py_str name;
      if (!expect_identifier(p, "an assignment target", &name)) return NULL;
      push_name(p, s, name, nt->line, nt->col, &cap);
      if (is_op(cur(p), "=")) break;
      next(p); /* ',' */
    }
    next(p); /* '=' */
    if (!(s->value = parse_expr(p))) return NULL;
    if (is_op(cur(p), "="))
      return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: chained assignment"), NULL;
    return expect_newline(p) ? s : NULL;
  }
  py_stmt *s = new_stmt(p, PY_EXPR, t);
  if (!(s->value = parse_expr(p))) return NULL;
  if (is_op(cur(p), ","))
    return fail_at(p, cur(p)->line, cur(p)->col, "unsupported Python: tuple expression statement"), NULL;
  return expect_newline(p) ? s : NULL;
}

/* Python reads a UTF-8 byte order mark at the start as nothing, and "\r\n"
 * and a lone "\r" as line ends. When the text has either, the tree is built
 * from a copy in the arena with the mark dropped, "\r\n" as "\n" and a lone
 * "\r" as "\n", so lines and columns are Python's. */
static const char *normalize_source(py_arena *arena, const char *text, size_t *len) {
  size_t n = *len, skip = n >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  if (!skip && !memchr(text, '\r', n)) return text;
  char *copy = py_arena_alloc(arena, n + 1);
  size_t m = 0;
  for (size_t i = skip; i < n; i++) {
    if (text[i] != '\r') copy[m++] = text[i];
    else if (i + 1 >= n || text[i + 1] != '\n') copy[m++] = '\n';
  }
  *len = m;
  return copy;
}

py_module *py_parse(py_arena *arena, const char *text, size_t len, py_error *err) {
  text = normalize_source(arena, text, &len);
  parser p = {.arena = arena, .err = err};
  size_t cap = 256;
  p.toks = malloc(sizeof *p.toks * cap);
  py_lexer *lx = py_lexer_create(text, len);
  for (;;) {
    if (p.n == cap) {
      cap *= 2;
      p.toks = realloc(p.toks, sizeof *p.toks * cap);
    }
    if (!py_lexer_next(lx, &p.toks[p.n], err)) {
      py_lexer_destroy(lx);
      free(p.toks);
      return NULL;
    }
    if (p.toks[p.n++].kind == PY_T_EOF) break;
  }
  py_lexer_destroy(lx);
  py_module *m = py_arena_alloc(arena, sizeof *m);
  int mcap = 0;
  while (cur(&p)->kind != PY_T_EOF) {
    if (cur(&p)->kind == PY_T_DEDENT) { /* stray dedent at top level cannot happen; be safe */
      next(&p);
      continue;
    }
    py_stmt *s = parse_stmt(&p);
    if (!s) break;
    if (m->n == mcap) {
      mcap = mcap ? mcap * 2 : 16;
      py_stmt **grown = py_arena_alloc(arena, sizeof *grown * mcap);
      if (m->n) memcpy(grown, m->stmts, sizeof *grown * m->n);
      m->stmts = grown;
    }
    m->stmts[m->n++] = s;
  }
  free(p.toks);
  return p.failed ? NULL : m;
}
