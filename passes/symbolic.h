/* symbolic.h: integer polynomials over the run-time sizes and strides of a
 * fusion's arguments, the values of view offsets and strides that are not
 * known at compile time:
 *
 *   stride of dim 0 of a contiguous ?x?x? input = size(arg2,1) * size(arg2,2)
 *
 * Polynomials are kept canonical (factors and terms sorted, like terms
 * merged), so structural equality is equality. Small fixed capacities: an
 * expression that does not fit sets `overflow`, and the analyses treat it
 * as unknown. */
#ifndef FUSER_PASSES_SYMBOLIC_H
#define FUSER_PASSES_SYMBOLIC_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/* size(arg, dim), stride(arg, dim), or the value of a scalar argument */
enum { FUSER_SYM_SIZE, FUSER_SYM_STRIDE, FUSER_SYM_SCALAR };

typedef struct {
  int kind; /* FUSER_SYM_SIZE or FUSER_SYM_STRIDE */
  int arg;  /* fusion argument index */
  int dim;
} fuser_sym;

#define FUSER_POLY_MAX_FACTORS 6
#define FUSER_POLY_MAX_TERMS 8

typedef struct {
  int64_t coeff;
  int nf;
  fuser_sym f[FUSER_POLY_MAX_FACTORS];
} fuser_term;

typedef struct {
  int nt;
  fuser_term t[FUSER_POLY_MAX_TERMS];
  bool overflow;
} fuser_poly;

fuser_poly fuser_poly_const(int64_t v);
fuser_poly fuser_poly_sym(int kind, int arg, int dim);
fuser_poly fuser_poly_add(fuser_poly a, fuser_poly b);
fuser_poly fuser_poly_mul(fuser_poly a, fuser_poly b);
bool fuser_poly_equal(const fuser_poly *a, const fuser_poly *b);
bool fuser_poly_is_const(const fuser_poly *p, int64_t *value);

/* Emits i64 fuser ops computing `p` before `anchor`; `args` are the fusion
 * function's entry-block arguments. */
MlirValue fuser_poly_emit(const fuser_poly *p, MlirOperation anchor, MlirBlock body);

#endif
