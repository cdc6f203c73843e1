/* plan_translate.h: the one translator from the plan's host SSA to the
 * runtime's expression bytecode (driver/expr.h).
 *
 * The plan function computes what only the call can tell (input checks,
 * view offsets, sizes and strides) as i64/i1 SSA values on the host. This
 * walks the ops that define such a value and writes the postfix program
 * that computes it from the call's inputs, instruction by instruction (no
 * text in between):
 *
 *   %0 = "fuser.size"(%arg2) {dim = 0 : i64}          IN_SIZE  a=2 b=0
 *   %1 = "fuser.size"(%arg2) {dim = 1 : i64}          IN_SIZE  a=2 b=1
 *   %2 = "fuser.mul"(%0, %1)                           MUL
 *   %3 = "fuser.scalar"() {value = 1179648 : i64}      CONST    b=1179648
 *   %4 = "fuser.eq"(%2, %3) : (i64, i64) -> i1         EQ
 *
 * What it reads: a scalar argument of the plan function (`scalar(i)`),
 * fuser.size / fuser.stride / fuser.address of a fusion input (`addr(i)`,
 * its byte address), fuser.scalar with an integer value, the i64 fuser
 * ops add, sub, mul, div, fmod (both truncating), ceildiv, maximum,
 * minimum, the compares eq, ne, lt, le, gt, ge, logical_and / logical_or
 * of i1; and, where canonicalize or a later pass writes them,
 * arith.constant, arith.addi/subi/muli/divsi/remsi/maxsi/minsi, arith.cmpi
 * (signed and equality predicates) and arith.andi/ori. Anything else (a
 * Python-style remainder, a float, a tensor, the address of a tensor the
 * runtime allocates) is refused with an error located at the op. */
#ifndef FUSER_LOWERING_PLAN_TRANSLATE_H
#define FUSER_LOWERING_PLAN_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "dialects/fuser.h"
#include "mlir-c/IR.h"
#include "passes/symbolic.h"

/* driver/expr.h's program, declared only: the runtime's headers name
 * things the compiler's do too (fuser_layout), so the plan model's files
 * see the programs as pointers. */
struct fuser_expr;

/* The program computing host value v, malloc'ed (free with
 * fuser_plan_program_free); NULL with "file:line:col: why" in err[errlen]
 * (the op it cannot translate, or the root op when the program is too long
 * or too deep for the runtime). */
struct fuser_expr *fuser_plan_translate(MlirValue v, char *err, size_t errlen);
void fuser_plan_program_free(struct fuser_expr *e);

/* Whether fuser ops of this kind are host expressions the translator reads
 * (scalar, size, stride, address and the integer binary ops above): the
 * plan's host math, which fuser_plan_host_cse merges. */
bool fuser_plan_translates_op(fuser_op_id id);

/* A fuser.view's element offset, sizes and strides (rank of its result):
 * the static values of its attributes and type as constants, the `?` ones
 * translated from its i64 operands (offset, sizes, strides, in that
 * order). False with the translator's error; *offset and the arrays are
 * then NULL. */
bool fuser_plan_view_programs(MlirOperation view, struct fuser_expr **offset, struct fuser_expr **sizes,
                              struct fuser_expr **strides, char *err, size_t errlen);

/* A polynomial of the plan model (passes/symbolic.h: what a kernel's
 * result extents and dense strides are, derived through the kernel's ops)
 * as a program: the terms' products summed, as fuser_poly_emit writes it
 * in SSA (so a launch's host SSA translates to the same instructions).
 * NULL when out of memory. The model's outputs, temps, pointer offsets and
 * matmul extents come from it. */
struct fuser_expr *fuser_poly_program(const fuser_poly *p);

/* Programs the plan model composes from those where the plan has no host
 * SSA yet (a matmul segment's batch strides and extent checks) and to pack
 * a variant's conditions into the runtime's 64 (&&). Each takes ownership
 * of its program operands and returns NULL when one is NULL or memory runs
 * out. */
typedef enum { FPX_SUB, FPX_MUL, FPX_MIN, FPX_EQ, FPX_LE, FPX_AND } fpx_op;
struct fuser_expr *fpx_const(int64_t v);
struct fuser_expr *fpx_binary(fpx_op op, struct fuser_expr *x, struct fuser_expr *y);
bool fpx_equal(const struct fuser_expr *x, const struct fuser_expr *y);

#endif
