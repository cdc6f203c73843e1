/* expr.h: the runtime's expression language: small postfix programs over
 * int64 that compute sizes, strides, offsets, grid sizes, parameter values
 * and variant conditions from the inputs of one call.
 *
 * The compiler writes them as infix text (artifact_builder.h lists the
 * syntax); fuser_expr_parse turns text into a program, fuser_expr_print turns
 * a program back into text (dumps and error messages), fuser_expr_eval runs
 * one without allocating (the hot path). Arithmetic wraps modulo 2^64 (no
 * undefined behaviour); division and modulo by zero, INT64_MIN / -1 and
 * ceildiv by a non-positive divisor are evaluation errors. Comparisons and
 * logical operators give 0 or 1. */
#ifndef FUSER_DRIVER_EXPR_H
#define FUSER_DRIVER_EXPR_H

#include "driver/fuser_runtime.h"

#include <stddef.h>
#include <stdint.h>

typedef enum fuser_op {
  FUSER_OP_CONST = 1, /* push b */
  FUSER_OP_IN_SIZE,   /* push size of input a, logical dim b */
  FUSER_OP_IN_STRIDE, /* push stride (elements) of input a, logical dim b */
  FUSER_OP_IN_ADDR,   /* push byte address of input a's first element */
  FUSER_OP_SCALAR,    /* push value of integer/bool scalar input a */
  FUSER_OP_ADD,       /* binary ops pop y then x and push x op y */
  FUSER_OP_SUB,
  FUSER_OP_MUL,
  FUSER_OP_DIV, /* truncating, like C */
  FUSER_OP_MOD, /* remainder of DIV */
  FUSER_OP_CEILDIV, /* (x + y - 1) / y for y > 0 */
  FUSER_OP_MIN,
  FUSER_OP_MAX,
  FUSER_OP_EQ,
  FUSER_OP_NE,
  FUSER_OP_LT,
  FUSER_OP_LE,
  FUSER_OP_GT,
  FUSER_OP_GE,
  FUSER_OP_AND,
  FUSER_OP_OR,
  FUSER_OP_NOT, /* unary: pops x, pushes !x */
  FUSER_OP_COUNT_
} fuser_op;

typedef struct fuser_insn {
  uint8_t op;
  uint32_t a;
  int64_t b;
} fuser_insn;

typedef struct fuser_expr {
  uint32_t n;
  fuser_insn *code;
  /* derived by fuser_expr_optimize (the artifact validator calls it): the
   * same program with constants folded, which fuser_expr_eval runs instead
   * of code when set; printing, comparing and the file format use code */
  uint32_t nfast;
  fuser_insn *fast;
} fuser_expr;

/* Longest program and deepest stack a program may have. */
#define FUSER_EXPR_MAX_LEN 4096
#define FUSER_EXPR_MAX_STACK 32

enum {
  FUSER_EXPR_OK = 0,
  FUSER_EXPR_E_DIV_ZERO,
  FUSER_EXPR_E_OVERFLOW,
  FUSER_EXPR_E_CEILDIV,
  FUSER_EXPR_E_BAD_PROGRAM,
  FUSER_EXPR_E_BAD_INPUT,
};
const char *fuser_expr_error_text(int code);

/* Parses infix text. On error returns -1 and writes "column N: problem" to msg. */
int fuser_expr_parse(const char *text, fuser_expr *out, char *msg, size_t msg_size);
/* A constant program (no allocation failure reported: returns -1 on OOM). */
int fuser_expr_const(int64_t value, fuser_expr *out);
int fuser_expr_copy(const fuser_expr *from, fuser_expr *to);
void fuser_expr_free(fuser_expr *e);
int fuser_expr_equal(const fuser_expr *x, const fuser_expr *y);

/* Checks op codes and stack discipline: never pops an empty stack, never
 * deeper than FUSER_EXPR_MAX_STACK, leaves exactly one value. 0 if fine, else
 * -1 with a message. Operand indices are checked by the artifact validator. */
int fuser_expr_check(const fuser_expr *e, char *msg, size_t msg_size);

/* Computes e's evaluation form (expr_fold.c): constant subexpressions
 * folded, neutral constants dropped; same value or error as code for every
 * input. Replaces an earlier one. Returns 0, or -1 (e unusable or out of
 * memory: then eval keeps running code). */
int fuser_expr_optimize(fuser_expr *e);

/* Writes the program as infix text (parseable by fuser_expr_parse) into buf;
 * truncates with "..." if it does not fit. Returns buf. */
const char *fuser_expr_print(const fuser_expr *e, char *buf, size_t size);

/* The value of input `a` an operand reads; the artifact validator has made
 * sure kinds and dims are right, eval re-checks them cheaply. */
int fuser_expr_eval(const fuser_expr *e, const fuser_arg *args, size_t nargs, int64_t *out);

/* Stride of logical dim d of t in elements, computing compact row-major
 * strides when t->strides is NULL (DLPack's convention). */
int64_t fuser_dl_stride(const DLTensor *t, int d);

#endif
