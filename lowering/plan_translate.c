/* plan_translate.c: host SSA -> expression bytecode (plan_translate.h).
 * A post-order walk of the defining ops: each operand's program, then the
 * op's instruction, so a value used twice is computed twice (the runtime's
 * programs have no variables; FUSER_EXPR_MAX_LEN bounds the result). */
#include "lowering/plan_translate.h"

#include "driver/expr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"
#include "support/error.h"
#include "support/location.h"

typedef struct {
  fuser_insn *code;
  uint32_t n, cap;
  char *err;
  size_t errlen;
  bool failed;
} program;

static bool fail_at(program *p, MlirLocation loc, const char *why, MlirOperation op) {
  if (p->failed) return false;
  p->failed = true;
  char where[300] = "?";
  if (!mlirLocationIsNull(loc)) fuser_location_text(loc, where, sizeof where);
  if (mlirOperationIsNull(op)) return fuser_message(p->err, p->errlen, "%s: %s", where, why);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return fuser_message(p->err, p->errlen, "%s: '%.*s' %s", where, (int)name.length, name.data, why);
}

static bool emit(program *p, fuser_op op, uint32_t a, int64_t b, MlirLocation loc) {
  if (p->failed) return false;
  if (p->n == FUSER_EXPR_MAX_LEN) return fail_at(p, loc, "the host expression is longer than the runtime's programs", (MlirOperation){NULL});
  if (p->n == p->cap) {
    uint32_t cap = p->cap ? 2 * p->cap : 16;
    fuser_insn *c = realloc(p->code, sizeof *c * cap);
    if (!c) return fail_at(p, loc, "out of memory", (MlirOperation){NULL});
    p->code = c, p->cap = cap;
  }
  p->code[p->n++] = (fuser_insn){.op = (uint8_t)op, .a = a, .b = b};
  return true;
}

static bool is_int(MlirType t) { return mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t); }

static bool value(program *p, MlirValue v);

/* The operands of op, then `insn`. */
static bool operands_then(program *p, MlirOperation op, int n, fuser_op insn) {
  if (mlirOperationGetNumOperands(op) != n) return fail_at(p, mlirOperationGetLocation(op), "has an unexpected operand count", op);
  for (int i = 0; i < n; i++)
    if (!value(p, mlirOperationGetOperand(op, i))) return false;
  return emit(p, insn, 0, 0, mlirOperationGetLocation(op));
}

/* A fusion input's index: a tensor argument of the plan function. */
static bool input_of(program *p, MlirOperation op, uint32_t *index) {
  MlirValue t = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsABlockArgument(t) || !mlirTypeIsARankedTensor(mlirValueGetType(t)))
    return fail_at(p, mlirOperationGetLocation(op), "reads a tensor that is not a fusion input", op);
  *index = (uint32_t)mlirBlockArgumentGetArgNumber(t);
  return true;
}

static bool constant(program *p, MlirOperation op, MlirAttribute a, MlirType t) {
  int64_t x;
  if (!fuser_attr_i64(a, &x)) return fail_at(p, mlirOperationGetLocation(op), "has a value that is not an integer", op);
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1) x = x != 0; /* i1 true reads as -1 */
  return emit(p, FUSER_OP_CONST, 0, x, mlirOperationGetLocation(op));
}

/* The fuser ops of two integer operands that are host math, and their
 * instructions. */
static const struct {
  fuser_op_id id;
  fuser_op insn;
} binary[] = {
    {FUSER_OP_add, FUSER_OP_ADD}, {FUSER_OP_sub, FUSER_OP_SUB}, {FUSER_OP_mul, FUSER_OP_MUL},
    {FUSER_OP_maximum, FUSER_OP_MAX}, {FUSER_OP_minimum, FUSER_OP_MIN}, {FUSER_OP_eq, FUSER_OP_EQ},
    {FUSER_OP_ne, FUSER_OP_NE}, {FUSER_OP_lt, FUSER_OP_LT}, {FUSER_OP_le, FUSER_OP_LE},
    {FUSER_OP_gt, FUSER_OP_GT}, {FUSER_OP_ge, FUSER_OP_GE}, {FUSER_OP_logical_and, FUSER_OP_AND},
    {FUSER_OP_logical_or, FUSER_OP_OR}, {FUSER_OP_ceildiv, FUSER_OP_CEILDIV},
    /* on integers both truncate (C, CUDA, the reference): the runtime's DIV and MOD */
    {FUSER_OP_div, FUSER_OP_DIV}, {FUSER_OP_fmod, FUSER_OP_MOD},
};

/* plan_translate.h */
bool fuser_plan_translates_op(fuser_op_id id) {
  if (id == FUSER_OP_scalar || id == FUSER_OP_size || id == FUSER_OP_stride || id == FUSER_OP_address) return true;
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++)
    if (binary[i].id == id) return true;
  return false;
}

static bool fuser_value(program *p, MlirOperation op, fuser_op_id id) {
  MlirLocation loc = mlirOperationGetLocation(op);
  int64_t dim;
  uint32_t in = 0;
  switch (id) {
  case FUSER_OP_scalar:
    return constant(p, op, mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("value")),
                    mlirValueGetType(mlirOperationGetResult(op, 0)));
  case FUSER_OP_size:
  case FUSER_OP_stride:
    if (!input_of(p, op, &in)) return false;
    if (!fuser_get_i64(op, "dim", &dim) || dim < 0) return fail_at(p, loc, "has no dim", op);
    return emit(p, id == FUSER_OP_size ? FUSER_OP_IN_SIZE : FUSER_OP_IN_STRIDE, in, dim, loc);
  case FUSER_OP_address: /* a fusion input's: the call's pointer (outputs and temps the runtime allocates) */
    if (!input_of(p, op, &in)) return false;
    return emit(p, FUSER_OP_IN_ADDR, in, 0, loc);
  default: break;
  }
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++) {
    if (binary[i].id != id) continue;
    /* integer operands only: a float compare or product is kernel math */
    for (int k = 0; k < 2 && mlirOperationGetNumOperands(op) == 2; k++)
      if (!is_int(mlirValueGetType(mlirOperationGetOperand(op, k))))
        return fail_at(p, loc, "has an operand that is not an integer scalar", op);
    return operands_then(p, op, 2, binary[i].insn);
  }
  return fail_at(p, loc, "is not a host expression (the plan's host values are sizes, strides, input addresses, integer "
                         "scalars and + - * div fmod ceildiv min max, compares and logical and/or of them)", op);
}

/* arith.cmpi's predicates (mlir::arith::CmpIPredicate): eq ne slt sle sgt sge;
 * the unsigned ones have no instruction. */
static bool arith_value(program *p, MlirOperation op) {
  static const struct {
    const char *name;
    fuser_op insn;
  } binary[] = {{"arith.addi", FUSER_OP_ADD}, {"arith.subi", FUSER_OP_SUB}, {"arith.muli", FUSER_OP_MUL},
                {"arith.maxsi", FUSER_OP_MAX}, {"arith.minsi", FUSER_OP_MIN}, {"arith.andi", FUSER_OP_AND},
                {"arith.ori", FUSER_OP_OR}, {"arith.divsi", FUSER_OP_DIV}, {"arith.remsi", FUSER_OP_MOD}};
  static const fuser_op cmp[] = {FUSER_OP_EQ, FUSER_OP_NE, FUSER_OP_LT, FUSER_OP_LE, FUSER_OP_GT, FUSER_OP_GE};
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (fuser_op_is(op, "arith.constant")) return constant(p, op, mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value")), rt);
  bool i1 = mlirTypeIsAInteger(rt) && mlirIntegerTypeGetWidth(rt) == 1;
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++) {
    if (!fuser_op_is(op, binary[i].name)) continue;
    /* andi/ori are logical only on i1 (bitwise on wider integers) */
    if ((binary[i].insn == FUSER_OP_AND || binary[i].insn == FUSER_OP_OR) && !i1)
      return fail_at(p, loc, "is bitwise on integers wider than i1: not a host expression", op);
    return operands_then(p, op, 2, binary[i].insn);
  }
  if (fuser_op_is(op, "arith.cmpi")) {
    MlirAttribute pred = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("predicate"));
    int64_t k = !mlirAttributeIsNull(pred) && mlirAttributeIsAInteger(pred) ? mlirIntegerAttrGetValueInt(pred) : -1;
    if (k < 0 || k >= (int64_t)(sizeof cmp / sizeof *cmp)) return fail_at(p, loc, "compares unsigned: not a host expression", op);
    return operands_then(p, op, 2, cmp[k]);
  }
  return fail_at(p, loc, "is not a host expression", op);
}

static bool value(program *p, MlirValue v) {
  if (p->failed) return false;
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    if (!is_int(mlirValueGetType(v)))
      return fail_at(p, mlirOperationGetLocation(owner), "a host expression reads an argument that is not an integer scalar",
                     (MlirOperation){NULL});
    return emit(p, FUSER_OP_SCALAR, (uint32_t)mlirBlockArgumentGetArgNumber(v), 0, mlirOperationGetLocation(owner));
  }
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!is_int(mlirValueGetType(v))) return fail_at(p, mlirOperationGetLocation(op), "is not an integer scalar: not a host expression", op);
  fuser_op_id id = fuser_op_id_of(op);
  return id != FUSER_OP_NONE ? fuser_value(p, op, id) : arith_value(p, op);
}

fuser_expr *fuser_plan_translate(MlirValue v, char *err, size_t errlen) {
  program p = {.err = err, .errlen = errlen};
  value(&p, v);
  char why[160];
  fuser_expr e = {.n = p.n, .code = p.code};
  if (!p.failed && fuser_expr_check(&e, why, sizeof why) != 0) {
    MlirLocation loc = mlirValueIsAOpResult(v) ? mlirOperationGetLocation(mlirOpResultGetOwner(v))
                                               : mlirOperationGetLocation(mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v)));
    char msg[256];
    snprintf(msg, sizeof msg, "the host expression does not fit the runtime's programs (%s)", why);
    fail_at(&p, loc, msg, (MlirOperation){NULL});
  }
  fuser_expr *out = p.failed ? NULL : malloc(sizeof *out);
  if (!p.failed && !out) fuser_message(err, errlen, "out of memory");
  if (!out) {
    free(p.code);
    return NULL;
  }
  *out = e;
  return out;
}

void fuser_plan_program_free(fuser_expr *e) {
  if (!e) return;
  fuser_expr_free(e);
  free(e);
}

/* One offset, size or stride of a view: its static value, or the program
 * of the view's next i64 operand. */
static fuser_expr *view_entry(MlirOperation view, bool dynamic, int64_t value, intptr_t *next, char *err, size_t errlen) {
  if (!dynamic) {
    fuser_poly c = fuser_poly_const(value);
    fuser_expr *e = fuser_poly_program(&c);
    if (!e) fuser_message(err, errlen, "out of memory");
    return e;
  }
  if (*next < mlirOperationGetNumOperands(view)) return fuser_plan_translate(mlirOperationGetOperand(view, (*next)++), err, errlen);
  char where[300];
  fuser_location_text(mlirOperationGetLocation(view), where, sizeof where);
  fuser_message(err, errlen, "%s: 'fuser.view' has fewer i64 operands than `?` entries", where);
  return NULL;
}

bool fuser_plan_view_programs(MlirOperation view, fuser_expr **offset, fuser_expr **sizes, fuser_expr **strides, char *err,
                              size_t errlen) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(view, 0));
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t off, st[FUSER_MAX_RANK], dyn = mlirShapedTypeGetDynamicSize();
  if (rank > FUSER_MAX_RANK || !fuser_get_i64(view, "static_offset", &off) ||
      fuser_get_i64_array(view, "static_strides", st, FUSER_MAX_RANK) != rank) {
    char where[300];
    fuser_location_text(mlirOperationGetLocation(view), where, sizeof where);
    return fuser_message(err, errlen, "%s: 'fuser.view' without its static_offset and static_strides", where);
  }
  intptr_t next = 1;
  *offset = view_entry(view, off == dyn, off, &next, err, errlen);
  bool ok = *offset != NULL;
  for (int d = 0; d < rank; d++) sizes[d] = strides[d] = NULL;
  for (int d = 0; ok && d < rank; d++)
    ok = (sizes[d] = view_entry(view, mlirShapedTypeIsDynamicDim(t, d), mlirShapedTypeGetDimSize(t, d), &next, err, errlen)) != NULL;
  for (int d = 0; ok && d < rank; d++) ok = (strides[d] = view_entry(view, st[d] == dyn, st[d], &next, err, errlen)) != NULL;
  if (ok) return true;
  fuser_plan_program_free(*offset), *offset = NULL;
  for (int d = 0; d < rank; d++) fuser_plan_program_free(sizes[d]), fuser_plan_program_free(strides[d]), sizes[d] = strides[d] = NULL;
  return false;
}

fuser_expr *fuser_poly_program(const fuser_poly *poly) {
  if (poly->overflow) return NULL; /* its terms are a part of it: never a program */
  program p = {0};
  char err[8];
  p.err = err, p.errlen = sizeof err;
  MlirLocation none = {NULL};
  for (int i = 0; i < poly->nt; i++) {
    const fuser_term *t = &poly->t[i];
    bool first = true;
    if (t->coeff < 0 && t->coeff != INT64_MIN) { /* (0 - c): what the text form's unary minus parsed to, so artifacts stay the same */
      emit(&p, FUSER_OP_CONST, 0, 0, none), emit(&p, FUSER_OP_CONST, 0, -t->coeff, none), emit(&p, FUSER_OP_SUB, 0, 0, none);
      first = false;
    } else if (t->coeff != 1 || t->nf == 0) emit(&p, FUSER_OP_CONST, 0, t->coeff, none), first = false;
    for (int k = 0; k < t->nf; k++) {
      const fuser_sym *s = &t->f[k];
      fuser_op op = s->kind == FUSER_SYM_SIZE ? FUSER_OP_IN_SIZE : s->kind == FUSER_SYM_STRIDE ? FUSER_OP_IN_STRIDE : FUSER_OP_SCALAR;
      emit(&p, op, (uint32_t)s->arg, s->kind == FUSER_SYM_SCALAR ? 0 : s->dim, none);
      if (!first) emit(&p, FUSER_OP_MUL, 0, 0, none);
      first = false;
    }
    if (i) emit(&p, FUSER_OP_ADD, 0, 0, none);
  }
  if (poly->nt == 0) emit(&p, FUSER_OP_CONST, 0, 0, none);
  fuser_expr *out = p.failed ? NULL : malloc(sizeof *out);
  if (!out) {
    free(p.code);
    return NULL;
  }
  *out = (fuser_expr){.n = p.n, .code = p.code};
  return out;
}

static fuser_expr *program_of(fuser_insn *code, uint32_t n) {
  fuser_expr *e = malloc(sizeof *e);
  if (!e) {
    free(code);
    return NULL;
  }
  *e = (fuser_expr){.n = n, .code = code};
  return e;
}

fuser_expr *fpx_const(int64_t v) {
  fuser_insn *c = malloc(sizeof *c);
  if (!c) return NULL;
  *c = (fuser_insn){.op = FUSER_OP_CONST, .b = v};
  return program_of(c, 1);
}

/* x's code, y's code, op: the postfix of x op y. */
fuser_expr *fpx_binary(fpx_op op, fuser_expr *x, fuser_expr *y) {
  static const fuser_op insn[] = {
      [FPX_SUB] = FUSER_OP_SUB, [FPX_MUL] = FUSER_OP_MUL, [FPX_MIN] = FUSER_OP_MIN,
      [FPX_EQ] = FUSER_OP_EQ,   [FPX_LE] = FUSER_OP_LE,  [FPX_AND] = FUSER_OP_AND,
  };
  fuser_insn *c = x && y ? malloc(sizeof *c * ((size_t)x->n + y->n + 1)) : NULL;
  fuser_expr *e = NULL;
  if (c) {
    memcpy(c, x->code, sizeof *c * x->n);
    memcpy(c + x->n, y->code, sizeof *c * y->n);
    c[x->n + y->n] = (fuser_insn){.op = (uint8_t)insn[op]};
    e = program_of(c, x->n + y->n + 1);
  }
  fuser_plan_program_free(x);
  fuser_plan_program_free(y);
  return e;
}

bool fpx_equal(const fuser_expr *x, const fuser_expr *y) { return x && y && fuser_expr_equal(x, y); }
