/* extent.h: the extent rules of the fuser ops, one statement of each.
 *
 * For every dim of an op's (tensor) result: where its extent comes from, as
 * a formula over the op's operands' extents and i64 scalar operands, and the
 * requirements the op makes of its operands' extents. For example
 *
 *   %p = "fuser.pad"(%x, %v) {pad_widths = array<i64: 1, 2>} : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
 *     dim 0: DIM(operand 0, dim 0)        dim 1: DIM(operand 0, dim 1) + 3
 *   %c = "fuser.cat"(%a, %b) {dim = 0} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
 *     dim 0: SUM(a.0, b.0)                dim 1: EQUAL(a.1, b.1)
 *   %r = "fuser.reshape"(%x, %n) : (tensor<?x?xf32>, i64) -> tensor<?x8xf32>
 *     dim 0: SCALAR(operand 1)            dim 1: STATIC 8
 *   %m = "fuser.matmul"(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?xf32>
 *     dims: DIM(a.0), DIM(a.1), DIM(b.1); requires a.2 == b.0 (contraction)
 *   %s = "fuser.slice"(%x) {start_indices = [1], end_indices = [5], ...} : (tensor<?xf32>) -> tensor<4xf32>
 *     dim 0: STATIC 4; requires 5 <= x.0
 *
 * The rules read an op described as for the inference (fuser_op_desc: the
 * operands' static types, the attributes, the requested result shape), so
 * they serve ops before they exist as well as ops in the IR. Each user
 * evaluates them in its own domain:
 *   - dialects/infer.c: static extents (`?` where unknown) for result types,
 *     with nvFuser's errors where two static extents disagree;
 *   - passes/extents.c: polynomials over a function's argument sizes and
 *     scalar arguments, and the equalities the host plan checks at run time;
 *   - passes/kernel_rules.c: the kernel generator's extent values and the
 *     access analysis.
 * The rules assume a verified op (attributes of the right kinds and ranges:
 * infer.c checks those and says what is wrong); on anything else they
 * return false. */
#ifndef FUSER_DIALECT_EXTENT_H
#define FUSER_DIALECT_EXTENT_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"

typedef enum {
  FUSER_EXTENT_STATIC,    /* value */
  FUSER_EXTENT_DIM,       /* the extent of ref[0], plus value (pad widths) */
  FUSER_EXTENT_SUM,       /* ref[0] + ref[1] (cat's dim) */
  FUSER_EXTENT_SCALAR,    /* the value of the i64 scalar operand ref[0].operand (shape operands) */
  FUSER_EXTENT_BROADCAST, /* the refs' common extent: a ref of extent 1 is broadcast; 1 when all are */
  FUSER_EXTENT_EQUAL,     /* the refs' common extent: all are equal (cat's other dims) */
} fuser_extent_kind;

/* Dim `dim` of operand `operand` (dim is unused for SCALAR). */
typedef struct {
  int operand, dim;
} fuser_extent_ref;

/* In a requirement's side: dim FUSER_EXTENT_COUNT is the operand's element
 * count, operand FUSER_EXTENT_RESULT the result's (by its rules). */
enum { FUSER_EXTENT_COUNT = -2, FUSER_EXTENT_RESULT = -2 };

#define FUSER_EXTENT_MAX_REFS 8

typedef struct {
  fuser_extent_kind kind;
  int64_t value;
  int nrefs;
  fuser_extent_ref ref[FUSER_EXTENT_MAX_REFS];
} fuser_extent;

/* Fills out[0..rank) with the rules of the op's result dims (every result
 * of var_mean has the same shape) and returns the result rank; -1 when the
 * op has no tensor result or its attributes do not give a rule. */
int fuser_extent_rules(const fuser_op_desc *d, fuser_extent *out);

/* What the op assumes of its operands' extents beyond its result extents: a
 * matmul's contraction dims are equal, a slice's end is inside its input,
 * a gathered index is no longer than arg, an expanded dim is 1 or the
 * requested extent, a reshape keeps the element count. A side is an operand dim, the constant `value`
 * (operand < 0), or the value of an i64 scalar operand (dim < 0: a
 * requested extent). `what` says it for messages. */
typedef enum {
  FUSER_EXTENT_EQ,            /* a == b */
  FUSER_EXTENT_EQ_OR_ONE,     /* a == b, or one of them is 1 (broadcast) */
  FUSER_EXTENT_BROADCASTS_TO, /* a == b, or a is 1 */
  FUSER_EXTENT_AT_MOST,       /* a <= b */
  FUSER_EXTENT_SAME_COUNT,    /* a == b, both element counts (reshape) */
} fuser_extent_relation;

typedef struct {
  fuser_extent_relation rel;
  fuser_extent_ref a, b;
  int64_t value;
  char what[48];
} fuser_extent_requirement;

#define FUSER_EXTENT_MAX_REQUIREMENTS FUSER_MAX_RANK

/* Writes the op's requirements into out (at most
 * FUSER_EXTENT_MAX_REQUIREMENTS) and returns their number. */
int fuser_extent_requirements(const fuser_op_desc *d, fuser_extent_requirement *out);

/* The static extent of an operand dim, kDynamic for `?`. */
int64_t fuser_extent_operand_static(const fuser_op_desc *d, fuser_extent_ref r);

/* An op of the IR described for the inference and the rules above (the
 * result type is the hint); the storage holds what the description points to. */
typedef struct {
  fuser_op_desc desc;
  MlirValue operands[8];
  MlirNamedAttribute attrs[32];
  int64_t hint_shape[FUSER_MAX_RANK];
} fuser_op_desc_storage;

/* False with a message for an op the description cannot hold (more than 8
 * operands or 32 attributes, a result of rank > FUSER_MAX_RANK). */
bool fuser_op_desc_of(MlirOperation op, fuser_op_desc_storage *s, char *err, size_t errlen);

/* The attribute `name` of a description, null when absent. */
MlirAttribute fuser_desc_attr(const fuser_op_desc *d, const char *name);

#endif
