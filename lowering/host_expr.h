/* host_expr.h: evaluating the runtime's expression text (docs/runtime.md,
 * "The expression language") on the host, for running a plan model on the
 * CPU (cpu_plan.h). The runtime has its own compiled evaluator
 * (driver/expr.c); this one reads the same infix text directly. */
#ifndef FUSER_LOWERING_HOST_EXPR_H
#define FUSER_LOWERING_HOST_EXPR_H

#include <stdbool.h>
#include <stdint.h>

/* What size(i, d), stride(i, d), addr(i) and scalar(i) read. */
typedef struct {
  int num_inputs;
  const int *ranks;
  int64_t *const *sizes;
  int64_t *const *strides;
  const uintptr_t *addrs;
  const int64_t *scalars;
} fuser_expr_env;

/* Evaluates `text`; false on a syntax error, an unknown input or dim, or a
 * division by zero. */
bool fuser_host_expr_eval(const char *text, const fuser_expr_env *env, int64_t *out);

#endif
