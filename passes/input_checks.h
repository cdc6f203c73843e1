/* input_checks.h: a run-time check on a fusion's inputs that its views rely
 * on, as fuser-alias-meta-ops collects it: a relation of two polynomials
 * over the inputs' sizes, strides and scalars (symbolic.h),
 *   P >= Q  (a slice ends inside its `?` dim)
 *   P == Q  (a reshape keeps the element count, mapped dims are equal)
 * and a message naming what needs it (the op and its location, as text that
 * outlives the IR: the runtime reports it when the check fails). The pass
 * writes each as host SSA ending in a `fuser.check` (i64 sizes, fuser.ge or
 * fuser.eq, the message); the plan model reads those ops back
 * (lowering/plan_model.c, plan_checks). */
#ifndef FUSER_PASSES_INPUT_CHECKS_H
#define FUSER_PASSES_INPUT_CHECKS_H

#include "passes/symbolic.h"

typedef enum { FUSER_CHECK_GE, FUSER_CHECK_EQ } fuser_check_relation;

#define FUSER_CHECK_MESSAGE_MAX 200

typedef struct {
  fuser_check_relation rel;
  fuser_poly lhs, rhs;
  char message[FUSER_CHECK_MESSAGE_MAX]; /* may be empty */
} fuser_input_check;

#endif
