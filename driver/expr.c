/* expr.c: parse, print, check and evaluate expression programs (expr.h).
 *
 * The parser is recursive descent over C-like precedence and emits postfix
 * code directly. The printer rebuilds the tree from the postfix code (each
 * instruction's subtree start) and prints it fully parenthesised except at
 * the top, so parse(print(e)) == e. Evaluation uses a fixed stack of
 * FUSER_EXPR_MAX_STACK values: no allocation on the hot path. */
#include "driver/expr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building code ------------------------------------------------- */

typedef struct code_buf {
  fuser_insn *code;
  uint32_t n, cap;
  int oom;
} code_buf;

static void emit(code_buf *cb, uint8_t op, uint32_t a, int64_t b) {
  if (cb->oom) return;
  if (cb->n == cb->cap) {
    uint32_t cap = cb->cap ? cb->cap * 2 : 16;
    fuser_insn *grown = realloc(cb->code, cap * sizeof *grown);
    if (!grown) {
      cb->oom = 1;
      return;
    }
    cb->code = grown;
    cb->cap = cap;
  }
  cb->code[cb->n++] = (fuser_insn){op, a, b};
}

/* ---- parser ---------------------------------------------------------- */

typedef struct parser {
  const char *text, *p;
  code_buf cb;
  char *msg;
  size_t msg_size;
  int failed;
  int depth;
} parser;

static void fail(parser *ps, const char *fmt, ...) {
  if (ps->failed) return;
  ps->failed = 1;
  int col = (int)(ps->p - ps->text) + 1;
  int n = snprintf(ps->msg, ps->msg_size, "column %d: ", col);
  if (n < 0 || (size_t)n >= ps->msg_size) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ps->msg + n, ps->msg_size - n, fmt, ap);
  va_end(ap);
}

static void skip_space(parser *ps) {
  while (isspace((unsigned char)*ps->p)) ps->p++;
}

static int accept(parser *ps, const char *tok) {
  skip_space(ps);
  size_t n = strlen(tok);
  if (strncmp(ps->p, tok, n) != 0) return 0;
  /* "<" must not match the start of "<=", "=" never stands alone. */
  if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!') && ps->p[1] == '=') return 0;
  ps->p += n;
  return 1;
}

static void expect(parser *ps, const char *tok) {
  if (!accept(ps, tok)) fail(ps, "expected '%s'", tok);
}

static int parse_or(parser *ps);

/* A non-negative integer literal; used for operand indices too. */
static int parse_int(parser *ps, int64_t *out) {
  skip_space(ps);
  if (!isdigit((unsigned char)*ps->p)) {
    fail(ps, "expected an integer");
    return 0;
  }
  uint64_t v = 0;
  while (isdigit((unsigned char)*ps->p)) {
    uint64_t digit = (uint64_t)(*ps->p - '0');
    if (v > (UINT64_C(9223372036854775807) - digit) / 10) {
      fail(ps, "integer literal out of range");
      return 0;
    }
    v = v * 10 + digit;
    ps->p++;
  }
  *out = (int64_t)v;
  return 1;
}

/* An operand index, optionally preceded by the word `word` ("input", "dim"). */
static int parse_index(parser *ps, const char *word, int64_t limit, int64_t *out) {
  skip_space(ps);
  size_t n = strlen(word);
  if (strncmp(ps->p, word, n) == 0 && !isalnum((unsigned char)ps->p[n])) ps->p += n;
  if (!parse_int(ps, out)) return 0;
  if (*out > limit) {
    fail(ps, "%s index %lld too large", word, (long long)*out);
    return 0;
  }
  return 1;
}

static int parse_primary(parser *ps) {
  skip_space(ps);
  if (ps->failed) return 0;
  int ok = 1;
  if (isdigit((unsigned char)*ps->p)) {
    int64_t v;
    if (parse_int(ps, &v)) emit(&ps->cb, FUSER_OP_CONST, 0, v);
  } else if (accept(ps, "(")) {
    parse_or(ps);
    expect(ps, ")");
  } else if (isalpha((unsigned char)*ps->p)) {
    const char *start = ps->p;
    while (isalnum((unsigned char)*ps->p) || *ps->p == '_') ps->p++;
    size_t len = (size_t)(ps->p - start);
    char name[16] = {0};
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, start, len);
    expect(ps, "(");
    int64_t i = 0, d = 0;
    if (!strcmp(name, "size") || !strcmp(name, "stride")) {
      if (parse_index(ps, "input", UINT32_MAX, &i)) {
        expect(ps, ",");
        if (parse_index(ps, "dim", FUSER_TENSOR_MAX_RANK, &d))
          emit(&ps->cb, name[1] == 'i' ? FUSER_OP_IN_SIZE : FUSER_OP_IN_STRIDE, (uint32_t)i, d);
      }
    } else if (!strcmp(name, "addr") || !strcmp(name, "scalar")) {
      if (parse_index(ps, "input", UINT32_MAX, &i))
        emit(&ps->cb, name[0] == 'a' ? FUSER_OP_IN_ADDR : FUSER_OP_SCALAR, (uint32_t)i, 0);
    } else if (!strcmp(name, "ceildiv") || !strcmp(name, "min") || !strcmp(name, "max")) {
      parse_or(ps);
      expect(ps, ",");
      parse_or(ps);
      emit(&ps->cb, name[0] == 'c' ? FUSER_OP_CEILDIV : name[1] == 'i' ? FUSER_OP_MIN : FUSER_OP_MAX,
           0, 0);
    } else {
      ps->p = start;
      fail(ps, "unknown function '%s'", name);
    }
    expect(ps, ")");
  } else {
    fail(ps, *ps->p ? "unexpected '%c'" : "unexpected end of expression", *ps->p);
    ok = 0;
  }
  return ok && !ps->failed;
}

static int parse_unary_inner(parser *ps);

/* Every nesting (parentheses, function arguments, unary operators) passes
 * here, so this bounds the parser's recursion on hostile text. */
static int parse_unary(parser *ps) {
  if (ps->failed) return 0;
  if (++ps->depth > 200) {
    fail(ps, "expression nested too deeply");
    return 0;
  }
  int ok = parse_unary_inner(ps);
  ps->depth--;
  return ok;
}

static int parse_unary_inner(parser *ps) {
  if (accept(ps, "-")) {
    emit(&ps->cb, FUSER_OP_CONST, 0, 0);
    parse_unary(ps);
    emit(&ps->cb, FUSER_OP_SUB, 0, 0);
    return !ps->failed;
  }
  if (accept(ps, "!")) {
    parse_unary(ps);
    emit(&ps->cb, FUSER_OP_NOT, 0, 0);
    return !ps->failed;
  }
  return parse_primary(ps);
}

typedef struct binop {
  const char *tok;
  uint8_t op;
} binop;

/* One precedence level: operand (tok operand)*. */
static int parse_level(parser *ps, int (*operand)(parser *), const binop *ops) {
  operand(ps);
  for (;;) {
    if (ps->failed) return 0;
    const binop *hit = NULL;
    for (const binop *o = ops; o->tok; o++)
      if (accept(ps, o->tok)) {
        hit = o;
        break;
      }
    if (!hit) return 1;
    operand(ps);
    emit(&ps->cb, hit->op, 0, 0);
  }
}

static int parse_mul(parser *ps) {
  static const binop ops[] = {{"*", FUSER_OP_MUL}, {"/", FUSER_OP_DIV}, {"%", FUSER_OP_MOD}, {0, 0}};
  return parse_level(ps, parse_unary, ops);
}
static int parse_add(parser *ps) {
  static const binop ops[] = {{"+", FUSER_OP_ADD}, {"-", FUSER_OP_SUB}, {0, 0}};
  return parse_level(ps, parse_mul, ops);
}
static int parse_rel(parser *ps) {
  static const binop ops[] = {{"<=", FUSER_OP_LE}, {">=", FUSER_OP_GE}, {"<", FUSER_OP_LT},
                              {">", FUSER_OP_GT},  {0, 0}};
  return parse_level(ps, parse_add, ops);
}
static int parse_eq(parser *ps) {
  static const binop ops[] = {{"==", FUSER_OP_EQ}, {"!=", FUSER_OP_NE}, {0, 0}};
  return parse_level(ps, parse_rel, ops);
}
static int parse_and(parser *ps) {
  static const binop ops[] = {{"&&", FUSER_OP_AND}, {0, 0}};
  return parse_level(ps, parse_eq, ops);
}
static int parse_or(parser *ps) {
  static const binop ops[] = {{"||", FUSER_OP_OR}, {0, 0}};
  return parse_level(ps, parse_and, ops);
}

int fuser_expr_parse(const char *text, fuser_expr *out, char *msg, size_t msg_size) {
  parser ps = {.text = text ? text : "", .msg = msg, .msg_size = msg_size};
  ps.p = ps.text;
  out->n = 0;
  out->code = NULL;
  out->nfast = 0;
  out->fast = NULL;
  if (msg_size) msg[0] = 0;
  parse_or(&ps);
  skip_space(&ps);
  if (!ps.failed && *ps.p) fail(&ps, "unexpected '%c'", *ps.p);
  if (!ps.failed && ps.cb.oom) fail(&ps, "out of memory");
  if (!ps.failed && ps.cb.n > FUSER_EXPR_MAX_LEN) fail(&ps, "expression longer than %d operations", FUSER_EXPR_MAX_LEN);
  if (!ps.failed) {
    fuser_expr e = {.n = ps.cb.n, .code = ps.cb.code};
    char sub[128];
    if (fuser_expr_check(&e, sub, sizeof sub) != 0) fail(&ps, "%s", sub);
  }
  if (ps.failed) {
    free(ps.cb.code);
    return -1;
  }
  out->n = ps.cb.n;
  out->code = ps.cb.code;
  return 0;
}

int fuser_expr_const(int64_t value, fuser_expr *out) {
  out->nfast = 0;
  out->fast = NULL;
  out->code = malloc(sizeof *out->code);
  if (!out->code) {
    out->n = 0;
    return -1;
  }
  out->code[0] = (fuser_insn){FUSER_OP_CONST, 0, value};
  out->n = 1;
  return 0;
}

int fuser_expr_copy(const fuser_expr *from, fuser_expr *to) {
  to->n = 0;
  to->code = NULL;
  to->nfast = 0;
  to->fast = NULL;
  if (!from->n) return 0;
  to->code = malloc(from->n * sizeof *to->code);
  if (!to->code) return -1;
  memcpy(to->code, from->code, from->n * sizeof *to->code);
  to->n = from->n;
  return 0;
}

void fuser_expr_free(fuser_expr *e) {
  free(e->code);
  free(e->fast);
  e->code = e->fast = NULL;
  e->n = e->nfast = 0;
}

int fuser_expr_equal(const fuser_expr *x, const fuser_expr *y) {
  if (x->n != y->n) return 0;
  for (uint32_t i = 0; i < x->n; i++)
    if (x->code[i].op != y->code[i].op || x->code[i].a != y->code[i].a || x->code[i].b != y->code[i].b)
      return 0;
  return 1;
}

/* ---- checking -------------------------------------------------------- */

static int op_arity(uint8_t op) {
  if (op >= FUSER_OP_CONST && op <= FUSER_OP_SCALAR) return 0;
  if (op == FUSER_OP_NOT) return 1;
  if (op >= FUSER_OP_ADD && op < FUSER_OP_COUNT_) return 2;
  return -1;
}

int fuser_expr_check(const fuser_expr *e, char *msg, size_t msg_size) {
  if (e->n == 0 || !e->code) {
    snprintf(msg, msg_size, "empty expression");
    return -1;
  }
  if (e->n > FUSER_EXPR_MAX_LEN) {
    snprintf(msg, msg_size, "expression longer than %d operations", FUSER_EXPR_MAX_LEN);
    return -1;
  }
  int depth = 0;
  for (uint32_t i = 0; i < e->n; i++) {
    int arity = op_arity(e->code[i].op);
    if (arity < 0) {
      snprintf(msg, msg_size, "unknown operation code %u at position %u", e->code[i].op, i);
      return -1;
    }
    if (depth < arity) {
      snprintf(msg, msg_size, "operation at position %u pops an empty stack", i);
      return -1;
    }
    depth = depth - arity + 1;
    if (depth > FUSER_EXPR_MAX_STACK) {
      snprintf(msg, msg_size, "expression needs a stack deeper than %d", FUSER_EXPR_MAX_STACK);
      return -1;
    }
  }
  if (depth != 1) {
    snprintf(msg, msg_size, "expression leaves %d values instead of 1", depth);
    return -1;
  }
  return 0;
}

/* ---- printing -------------------------------------------------------- */

typedef struct out_buf {
  char *buf;
  size_t size, len;
  int truncated;
} out_buf;

static void put(out_buf *o, const char *fmt, ...) {
  if (o->truncated) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= o->size - o->len) {
    o->truncated = 1;
    return;
  }
  o->len += (size_t)n;
}

static const char *infix_token(uint8_t op) {
  switch (op) {
  case FUSER_OP_ADD: return "+";
  case FUSER_OP_SUB: return "-";
  case FUSER_OP_MUL: return "*";
  case FUSER_OP_DIV: return "/";
  case FUSER_OP_MOD: return "%";
  case FUSER_OP_EQ: return "==";
  case FUSER_OP_NE: return "!=";
  case FUSER_OP_LT: return "<";
  case FUSER_OP_LE: return "<=";
  case FUSER_OP_GT: return ">";
  case FUSER_OP_GE: return ">=";
  case FUSER_OP_AND: return "&&";
  case FUSER_OP_OR: return "||";
  default: return NULL;
  }
}

/* start[i] = index of the first instruction of the subtree ending at i. */
static void print_node(const fuser_expr *e, const uint32_t *start, uint32_t i, int top, out_buf *o) {
  const fuser_insn *in = &e->code[i];
  switch (in->op) {
  case FUSER_OP_CONST:
    if (in->b < 0) put(o, top ? "-%llu" : "(-%llu)", (unsigned long long)(0 - (uint64_t)in->b));
    else put(o, "%lld", (long long)in->b);
    return;
  case FUSER_OP_IN_SIZE: put(o, "size(%u, %lld)", in->a, (long long)in->b); return;
  case FUSER_OP_IN_STRIDE: put(o, "stride(%u, %lld)", in->a, (long long)in->b); return;
  case FUSER_OP_IN_ADDR: put(o, "addr(%u)", in->a); return;
  case FUSER_OP_SCALAR: put(o, "scalar(%u)", in->a); return;
  case FUSER_OP_NOT:
    put(o, "!");
    print_node(e, start, i - 1, 0, o);
    return;
  default: break;
  }
  uint32_t right = i - 1, left = start[right] - 1;
  const char *tok = infix_token(in->op);
  if (tok) {
    if (!top) put(o, "(");
    print_node(e, start, left, 0, o);
    put(o, " %s ", tok);
    print_node(e, start, right, 0, o);
    if (!top) put(o, ")");
  } else {
    put(o, in->op == FUSER_OP_CEILDIV ? "ceildiv(" : in->op == FUSER_OP_MIN ? "min(" : "max(");
    print_node(e, start, left, 1, o);
    put(o, ", ");
    print_node(e, start, right, 1, o);
    put(o, ")");
  }
}

const char *fuser_expr_print(const fuser_expr *e, char *buf, size_t size) {
  if (!size) return buf;
  buf[0] = 0;
  char msg[96];
  if (fuser_expr_check(e, msg, sizeof msg) != 0) {
    snprintf(buf, size, "<invalid expression: %s>", msg);
    return buf;
  }
  uint32_t *start = malloc(e->n * sizeof *start);
  uint32_t *stack = malloc(e->n * sizeof *stack);
  if (!start || !stack) {
    free(start);
    free(stack);
    snprintf(buf, size, "<out of memory>");
    return buf;
  }
  uint32_t depth = 0;
  for (uint32_t i = 0; i < e->n; i++) {
    int arity = op_arity(e->code[i].op);
    uint32_t first = i;
    if (arity >= 1) first = stack[depth - (uint32_t)arity];
    depth -= (uint32_t)arity;
    start[i] = first;
    stack[depth++] = first;
  }
  free(stack);
  out_buf o = {buf, size, 0, 0};
  print_node(e, start, e->n - 1, 1, &o);
  free(start);
  if (o.truncated && size > 4) strcpy(buf + size - 4, "...");
  return buf;
}

/* ---- evaluation ------------------------------------------------------ */

const char *fuser_expr_error_text(int code) {
  switch (code) {
  case FUSER_EXPR_OK: return "ok";
  case FUSER_EXPR_E_DIV_ZERO: return "division by zero";
  case FUSER_EXPR_E_OVERFLOW: return "INT64_MIN / -1 overflows";
  case FUSER_EXPR_E_CEILDIV: return "ceildiv by a non-positive divisor";
  case FUSER_EXPR_E_BAD_PROGRAM: return "malformed program";
  case FUSER_EXPR_E_BAD_INPUT: return "operand refers to an input of the wrong kind or a missing dim";
  default: return "unknown expression error";
  }
}

int64_t fuser_dl_stride(const DLTensor *t, int d) {
  if (t->strides) return t->strides[d];
  uint64_t s = 1;
  for (int k = t->ndim - 1; k > d; k--) s *= (uint64_t)t->shape[k];
  return (int64_t)s;
}

static const DLTensor *tensor_operand(const fuser_arg *args, size_t nargs, uint32_t a) {
  if (a >= nargs || args[a].kind != FUSER_ARG_TENSOR) return NULL;
  return args[a].tensor;
}

int fuser_expr_eval(const fuser_expr *e, const fuser_arg *args, size_t nargs, int64_t *out) {
  int64_t st[FUSER_EXPR_MAX_STACK];
  int sp = 0;
  const fuser_insn *code = e->fast ? e->fast : e->code;
  uint32_t n = e->fast ? e->nfast : e->n;
  for (uint32_t i = 0; i < n; i++) {
    const fuser_insn *in = &code[i];
    const DLTensor *t;
    int64_t x, y, r = 0;
    switch (in->op) {
    case FUSER_OP_CONST:
    case FUSER_OP_IN_SIZE:
    case FUSER_OP_IN_STRIDE:
    case FUSER_OP_IN_ADDR:
    case FUSER_OP_SCALAR:
      if (sp >= FUSER_EXPR_MAX_STACK) return FUSER_EXPR_E_BAD_PROGRAM;
      if (in->op == FUSER_OP_CONST) {
        r = in->b;
      } else if (in->op == FUSER_OP_SCALAR) {
        if (in->a >= nargs || args[in->a].kind != FUSER_ARG_INT) return FUSER_EXPR_E_BAD_INPUT;
        r = args[in->a].i;
      } else {
        t = tensor_operand(args, nargs, in->a);
        if (!t) return FUSER_EXPR_E_BAD_INPUT;
        if (in->op == FUSER_OP_IN_ADDR) {
          r = (int64_t)((uint64_t)(uintptr_t)t->data + t->byte_offset);
        } else {
          if (in->b < 0 || in->b >= t->ndim) return FUSER_EXPR_E_BAD_INPUT;
          r = in->op == FUSER_OP_IN_SIZE ? t->shape[in->b] : fuser_dl_stride(t, (int)in->b);
        }
      }
      st[sp++] = r;
      continue;
    case FUSER_OP_NOT:
      if (sp < 1) return FUSER_EXPR_E_BAD_PROGRAM;
      st[sp - 1] = !st[sp - 1];
      continue;
    default: break;
    }
    if (sp < 2) return FUSER_EXPR_E_BAD_PROGRAM;
    y = st[--sp];
    x = st[sp - 1];
    switch (in->op) {
    case FUSER_OP_ADD: r = (int64_t)((uint64_t)x + (uint64_t)y); break;
    case FUSER_OP_SUB: r = (int64_t)((uint64_t)x - (uint64_t)y); break;
    case FUSER_OP_MUL: r = (int64_t)((uint64_t)x * (uint64_t)y); break;
    case FUSER_OP_DIV:
    case FUSER_OP_MOD:
      if (y == 0) return FUSER_EXPR_E_DIV_ZERO;
      if (y == -1 && x == INT64_MIN) return FUSER_EXPR_E_OVERFLOW;
      r = in->op == FUSER_OP_DIV ? x / y : x % y;
      break;
    case FUSER_OP_CEILDIV:
      if (y <= 0) return FUSER_EXPR_E_CEILDIV;
      /* floor(x / y) + (remainder != 0), without forming x + y - 1 */
      r = x / y + ((x % y) > 0);
      break;
    case FUSER_OP_MIN: r = x < y ? x : y; break;
    case FUSER_OP_MAX: r = x > y ? x : y; break;
    case FUSER_OP_EQ: r = x == y; break;
    case FUSER_OP_NE: r = x != y; break;
    case FUSER_OP_LT: r = x < y; break;
    case FUSER_OP_LE: r = x <= y; break;
    case FUSER_OP_GT: r = x > y; break;
    case FUSER_OP_GE: r = x >= y; break;
    case FUSER_OP_AND: r = x && y; break;
    case FUSER_OP_OR: r = x || y; break;
    default: return FUSER_EXPR_E_BAD_PROGRAM;
    }
    st[sp - 1] = r;
  }
  if (sp != 1) return FUSER_EXPR_E_BAD_PROGRAM;
  *out = st[0];
  return FUSER_EXPR_OK;
}
