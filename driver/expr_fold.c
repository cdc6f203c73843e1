/* expr_fold.c: the evaluation form of an expression program (expr.h,
 * fuser_expr_optimize): the same postfix code with constant subexpressions
 * folded and neutral constants dropped, so the hot path interprets fewer
 * instructions. The compiler writes fully spelled-out index arithmetic
 * (`((((1 * 2) * 16) * 1024) * 32) < 2147418112`, `max(2 - 1, 0) * x`), so
 * seed id0's programs shrink by about half.
 *
 * Equivalence, for every input: the folded program returns the same value
 * or the same error as the original.
 *   - A subtree whose operands are all constants is replaced by its value,
 *     computed by the evaluator itself; a subtree whose evaluation fails
 *     (division by zero...) is kept, so it fails at call time as before.
 *   - `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x` become x (wrapping
 *     arithmetic: exact); `x && c`, `c && x` with c a non-zero constant, and
 *     `x || 0`, `0 || x`, become x when x is a 0/1 value (a comparison,
 *     logical operator or the constant 0 or 1). Only constants are dropped,
 *     never a subtree that could fail (evaluation has no short-circuit).
 * The printer and the file format keep using the original code. */
#include "driver/expr.h"

#include <stdlib.h>
#include <string.h>

typedef struct frag {
  uint32_t start; /* first instruction of this subtree in the output */
  int is_const;   /* the subtree is one CONST instruction */
  int is_bool;    /* its value is always 0 or 1 */
  int64_t value;  /* is_const */
} frag;

static int yields_bool(uint8_t op) { return (op >= FUSER_OP_EQ && op <= FUSER_OP_OR) || op == FUSER_OP_NOT; }

static int fold_binary(uint8_t op, int64_t x, int64_t y, int64_t *out) {
  fuser_insn code[3] = {{FUSER_OP_CONST, 0, x}, {FUSER_OP_CONST, 0, y}, {op, 0, 0}};
  fuser_expr e = {.n = 3, .code = code};
  return fuser_expr_eval(&e, NULL, 0, out) == FUSER_EXPR_OK;
}

static frag const_frag(uint32_t start, int64_t v) { return (frag){start, 1, v == 0 || v == 1, v}; }

/* Which operand, if any, a binary op on x and y reduces to without changing
 * any result: 1 = x, 2 = y, 0 = neither. */
static int neutral(uint8_t op, const frag *x, const frag *y) {
  switch (op) {
  case FUSER_OP_ADD: return y->is_const && y->value == 0 ? 1 : x->is_const && x->value == 0 ? 2 : 0;
  case FUSER_OP_SUB: return y->is_const && y->value == 0 ? 1 : 0;
  case FUSER_OP_MUL: return y->is_const && y->value == 1 ? 1 : x->is_const && x->value == 1 ? 2 : 0;
  case FUSER_OP_AND:
    return y->is_const && y->value != 0 && x->is_bool ? 1 : x->is_const && x->value != 0 && y->is_bool ? 2 : 0;
  case FUSER_OP_OR:
    return y->is_const && y->value == 0 && x->is_bool ? 1 : x->is_const && x->value == 0 && y->is_bool ? 2 : 0;
  default: return 0;
  }
}

int fuser_expr_optimize(fuser_expr *e) {
  free(e->fast);
  e->fast = NULL;
  e->nfast = 0;
  char msg[96];
  if (fuser_expr_check(e, msg, sizeof msg) != 0) return -1;
  fuser_insn *out = malloc(e->n * sizeof *out);
  if (!out) return -1;
  frag st[FUSER_EXPR_MAX_STACK];
  int sp = 0;
  uint32_t len = 0;
  for (uint32_t i = 0; i < e->n; i++) {
    const fuser_insn *in = &e->code[i];
    if (in->op >= FUSER_OP_CONST && in->op <= FUSER_OP_SCALAR) {
      st[sp++] = in->op == FUSER_OP_CONST ? const_frag(len, in->b) : (frag){len, 0, 0, 0};
      out[len++] = *in;
      continue;
    }
    if (in->op == FUSER_OP_NOT) {
      frag *x = &st[sp - 1];
      if (x->is_const) {
        *x = const_frag(x->start, !x->value);
        out[x->start].b = x->value;
      } else {
        out[len++] = *in;
        x->is_bool = 1;
      }
      continue;
    }
    frag y = st[--sp], x = st[--sp];
    int64_t v;
    int keep;
    if (x.is_const && y.is_const && fold_binary(in->op, x.value, y.value, &v)) {
      len = x.start;
      out[len++] = (fuser_insn){FUSER_OP_CONST, 0, v};
      st[sp++] = const_frag(x.start, v);
    } else if ((keep = neutral(in->op, &x, &y)) == 1) {
      len = y.start; /* y is one CONST instruction at the end */
      st[sp++] = x;
    } else if (keep == 2) {
      /* x is one CONST instruction just before y's code: move y's code down */
      memmove(&out[x.start], &out[y.start], (len - y.start) * sizeof *out);
      len--;
      y.start = x.start;
      st[sp++] = y;
    } else {
      out[len++] = *in;
      st[sp++] = (frag){x.start, 0, yields_bool(in->op), 0};
    }
  }
  fuser_expr folded = {.n = len, .code = out};
  if (fuser_expr_check(&folded, msg, sizeof msg) != 0) { /* cannot happen; keep the original then */
    free(out);
    return -1;
  }
  e->fast = out;
  e->nfast = len;
  return 0;
}
