/* input_checks.h: the run-time checks on a fusion's inputs that its views
 * rely on (fuser.input_checks on the fusion function, made by
 * fuser-alias-meta-ops), as typed attributes: a relation of two
 * polynomials over the inputs' sizes, strides and scalars (symbolic.h),
 *   {ge = [P, Q]}  P >= Q        {eq = [P, Q]}  P == Q
 * a polynomial an array of terms, a term its coefficient and factors:
 *   [{coeff = 1 : i64, factors = [{size = array<i64: 2, 0>}, {stride = array<i64: 2, 1>}]}]
 *   factors: {size = array<i64: arg, dim>}, {stride = array<i64: arg, dim>}, {scalar = arg : i64}
 * and a message naming what needs the check (the op and its location, as
 * text that outlives the IR: the runtime reports it when the check fails):
 *   {eq = [P, Q], message = "f.py:6:10: fuser.reshape keeps the element count"}
 * The writer and the reader are the one place this encoding lives; the plan
 * model turns a check into the runtime's expression (lowering/plan_launches.c). */
#ifndef FUSER_PASSES_INPUT_CHECKS_H
#define FUSER_PASSES_INPUT_CHECKS_H

#include <stdbool.h>

#include "mlir-c/IR.h"
#include "passes/symbolic.h"

typedef enum { FUSER_CHECK_GE, FUSER_CHECK_EQ } fuser_check_relation;

#define FUSER_CHECK_MESSAGE_MAX 200

typedef struct {
  fuser_check_relation rel;
  fuser_poly lhs, rhs;
  char message[FUSER_CHECK_MESSAGE_MAX]; /* may be empty */
} fuser_input_check;

/* Null when a polynomial overflowed (the check cannot be stated). */
MlirAttribute fuser_input_check_attr(MlirContext ctx, const fuser_input_check *c);
/* False when a is not one of the forms above. */
bool fuser_input_check_read(MlirAttribute a, fuser_input_check *c);

#endif
