/* host_expr.c: a recursive-descent evaluator of the runtime's expression
 * text (host_expr.h). Precedence, loosest first: ||, &&, == !=, < <= > >=,
 * + -, * / %, unary - !. Arithmetic wraps (computed in uint64_t). */
#include "lowering/host_expr.h"

#include <ctype.h>
#include <string.h>

typedef struct {
  const char *p;
  const fuser_expr_env *env;
  bool ok;
} parser;

static void skip(parser *s) {
  while (isspace((unsigned char)*s->p)) s->p++;
}

static bool eat(parser *s, const char *tok) {
  skip(s);
  size_t n = strlen(tok);
  if (strncmp(s->p, tok, n) != 0) return false;
  s->p += n;
  return true;
}

static int64_t expr_or(parser *s);

static int64_t wrap(uint64_t v) { return (int64_t)v; }

/* "input 2" or "2" */
static int64_t number_arg(parser *s, const char *word) {
  eat(s, word);
  skip(s);
  if (!isdigit((unsigned char)*s->p)) {
    s->ok = false;
    return 0;
  }
  int64_t v = 0;
  while (isdigit((unsigned char)*s->p)) v = v * 10 + (*s->p++ - '0');
  return v;
}

static int64_t call2(parser *s, int64_t *b) {
  if (!eat(s, "(")) return s->ok = false, 0;
  int64_t a = expr_or(s);
  if (!eat(s, ",")) return s->ok = false, 0;
  *b = expr_or(s);
  if (!eat(s, ")")) s->ok = false;
  return a;
}

static int64_t primary(parser *s) {
  skip(s);
  const fuser_expr_env *e = s->env;
  if (isdigit((unsigned char)*s->p)) return number_arg(s, "");
  if (eat(s, "(")) {
    int64_t v = expr_or(s);
    if (!eat(s, ")")) s->ok = false;
    return v;
  }
  if (eat(s, "size(") || eat(s, "stride(")) {
    bool size = s->p[-2] == 'e' && s->p[-3] == 'z'; /* "size(" ends in "ze(" */
    int64_t i = number_arg(s, "input"), d = 0;
    if (!eat(s, ",")) return s->ok = false, 0;
    d = number_arg(s, "dim");
    if (!eat(s, ")") || i < 0 || i >= e->num_inputs || d < 0 || d >= e->ranks[i]) return s->ok = false, 0;
    return size ? e->sizes[i][d] : e->strides[i][d];
  }
  if (eat(s, "addr(")) {
    int64_t i = number_arg(s, "input");
    if (!eat(s, ")") || i < 0 || i >= e->num_inputs) return s->ok = false, 0;
    return (int64_t)e->addrs[i];
  }
  if (eat(s, "scalar(")) {
    int64_t i = number_arg(s, "input");
    if (!eat(s, ")") || i < 0 || i >= e->num_inputs) return s->ok = false, 0;
    return e->scalars[i];
  }
  int64_t b;
  if (eat(s, "ceildiv")) {
    int64_t a = call2(s, &b);
    if (b <= 0) return s->ok = false, 0;
    return wrap((uint64_t)a + (uint64_t)b - 1) / b;
  }
  if (eat(s, "min")) {
    int64_t a = call2(s, &b);
    return a < b ? a : b;
  }
  if (eat(s, "max")) {
    int64_t a = call2(s, &b);
    return a > b ? a : b;
  }
  s->ok = false;
  return 0;
}

static int64_t unary(parser *s) {
  if (eat(s, "-")) return wrap(0 - (uint64_t)unary(s));
  skip(s);
  if (s->p[0] == '!' && s->p[1] != '=') {
    s->p++;
    return !unary(s);
  }
  return primary(s);
}

static int64_t mul(parser *s) {
  int64_t v = unary(s);
  for (;;) {
    if (eat(s, "*")) v = wrap((uint64_t)v * (uint64_t)unary(s));
    else if (eat(s, "/") || eat(s, "%")) {
      bool div = s->p[-1] == '/';
      int64_t d = unary(s);
      if (d == 0 || (v == INT64_MIN && d == -1)) return s->ok = false, 0;
      v = div ? v / d : v % d;
    } else return v;
  }
}

static int64_t add(parser *s) {
  int64_t v = mul(s);
  for (;;) {
    if (eat(s, "+")) v = wrap((uint64_t)v + (uint64_t)mul(s));
    else if (eat(s, "-")) v = wrap((uint64_t)v - (uint64_t)mul(s));
    else return v;
  }
}

static int64_t rel(parser *s) {
  int64_t v = add(s);
  for (;;) {
    if (eat(s, "<=")) v = v <= add(s);
    else if (eat(s, ">=")) v = v >= add(s);
    else if (eat(s, "<")) v = v < add(s);
    else if (eat(s, ">")) v = v > add(s);
    else return v;
  }
}

static int64_t eq(parser *s) {
  int64_t v = rel(s);
  for (;;) {
    if (eat(s, "==")) v = v == rel(s);
    else if (eat(s, "!=")) v = v != rel(s);
    else return v;
  }
}

static int64_t and_(parser *s) {
  int64_t v = eq(s);
  while (eat(s, "&&")) {
    int64_t w = eq(s);
    v = v && w;
  }
  return v;
}

static int64_t expr_or(parser *s) {
  int64_t v = and_(s);
  while (eat(s, "||")) {
    int64_t w = and_(s);
    v = v || w;
  }
  return v;
}

bool fuser_host_expr_eval(const char *text, const fuser_expr_env *env, int64_t *out) {
  parser s = {text, env, true};
  int64_t v = expr_or(&s);
  skip(&s);
  if (!s.ok || *s.p) return false;
  *out = v;
  return true;
}
