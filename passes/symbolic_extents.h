/* symbolic_extents.h: the extents of a function body's tensors as
 * polynomials (symbolic.h) over the run-time sizes and i64 scalar arguments
 * of the function, by the op rules of dialects/extent.h, and what those ops
 * require of the extents where it is not true by construction.
 *
 *   func(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>, %n: i64)
 *   %c = cat(%a, %b) {dim = 0}        -> [size(0,0) + size(1,0), 8]
 *   %p = pad(%c) {pad_widths = [1, 2]} -> [size(0,0) + size(1,0), 11]
 *   %r = reshape(%p, %n) : ?x88        -> [scalar(2), 88]
 *   %s = add(%a, %b)                   -> [size(0,0)], requires size(1,0) == size(0,0)
 *   %t = slice(%a) [0, 0] to [4, 8]    -> [4, 8], requires 4 <= size(0,0)
 *
 * Its user is the host plan (lowering/plan_model.c): the arguments of a
 * kernel are seeded with the plan's polynomials of what the call passes,
 * the kernel's results get their sizes from here, and each requirement
 * becomes a run-time check before the launch. */
#ifndef FUSER_PASSES_SYMBOLIC_EXTENTS_H
#define FUSER_PASSES_SYMBOLIC_EXTENTS_H

#include <stdbool.h>

#include "dialects/fuser.h"
#include "mlir-c/IR.h"
#include "passes/ptr_map.h"
#include "passes/symbolic.h"

/* A requirement on extents: a == b, or a <= b. */
typedef struct {
  fuser_poly a, b;
  bool at_most;
} fuser_extent_check;

typedef struct {
  fuser_ptr_map index; /* value -> slot */
  fuser_poly (*sizes)[FUSER_MAX_RANK];
  fuser_poly *value; /* a scalar's value (overflow set: not a polynomial) */
  int count, cap;
  fuser_extent_check *checks; /* what the ops require, where it is not true by construction */
  int nchecks;
} fuser_symbolic_extents;

void fuser_symbolic_extents_init(fuser_symbolic_extents *x);
void fuser_symbolic_extents_free(fuser_symbolic_extents *x);

/* Seeds value v: a tensor's extents (rank entries), or a scalar's value. */
void fuser_symbolic_extents_set(fuser_symbolic_extents *x, MlirValue v, const fuser_poly *sizes, const fuser_poly *value);
/* Seeds every argument of body with its own symbols: a static extent, else
 * size(i, d); an i64 scalar argument scalar(i). */
void fuser_symbolic_extents_set_args(fuser_symbolic_extents *x, MlirBlock body);

/* Derives the extents of every tensor result of body's fuser ops, in order.
 * False at the first op whose extents are not polynomials of the seeds (an
 * extent given by a scalar computed some other way, an op without a rule);
 * *failed is that op. */
bool fuser_symbolic_extents_derive(fuser_symbolic_extents *x, MlirBlock body, MlirOperation *failed);

/* The extents of a tensor value of body (NULL: not derived). */
const fuser_poly *fuser_symbolic_extents_of(const fuser_symbolic_extents *x, MlirValue v);

#endif
