/* kernel_rules.h: the index and extent rules of kernel bodies, shared by
 * the access analysis (passes/kernel_access.c) and the kernel generator
 * (lowering/kernel_gen*.c) so that each rule has one implementation.
 *
 * Index rule: a tensor value is evaluated at an index over its dims; the
 * ops that only move data (element-wise operands, set, slice, permute,
 * broadcast_in_dim, expand, broadcast, squeeze) read their operand at an
 * index whose dim i is the result index's dim `src` plus `add`, or index 0
 * (`src` < 0: a broadcast dim).
 *
 * Extent rule: dim j of a tensor value has a static extent, is the size of a
 * kernel argument, follows one dim of an operand (plus a constant: pad), is
 * the sum of two operands' dims (cat), or is a scalar operand (factories):
 * the op's rule of dialects/extent.h, a join of operands resolved to the
 * first whose extent is not a static 1. */
#ifndef FUSER_PASSES_KERNEL_RULES_H
#define FUSER_PASSES_KERNEL_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef struct {
  int src;     /* result index dim, or -1: index 0 */
  int64_t add; /* constant added (slice starts) */
} fk_dim_map;

/* The index of operand `operand` of `op` (whose result is `result`) as a
 * function of the result's index: fills map[0..rank(operand)) and returns
 * true for the data-moving ops above; false for any other op. */
bool fk_operand_index_map(MlirOperation op, int operand, MlirValue result, fk_dim_map *map);

typedef enum {
  FK_EXTENT_STATIC, /* value */
  FK_EXTENT_ARG,    /* size(arg, dim) */
  FK_EXTENT_FOLLOW, /* extent(a, dim) + add (pad: the extent stays symbolic) */
  FK_EXTENT_SUM,    /* extent(a, dim) + extent(b, dim) (cat) */
  FK_EXTENT_SCALAR, /* the scalar value a, cast to index (full, iota, ...) */
  FK_EXTENT_UNKNOWN /* no rule: a located error */
} fk_extent_kind;

typedef struct {
  fk_extent_kind kind;
  int64_t value;  /* STATIC */
  int arg;        /* ARG: argument number */
  MlirValue a, b; /* FOLLOW, SUM: operands; SCALAR: the scalar */
  int dim;        /* ARG, FOLLOW, SUM */
  int64_t add;    /* FOLLOW */
  bool padded;    /* FOLLOW through pad: the result is symbolic even if a's extent is not */
} fk_extent_rule;

/* The rule for dim j of tensor value v. */
fk_extent_rule fk_extent_rule_of(MlirValue v, int j);

/* Static extent of dim j of a shaped value, FK_DYN (INT64_MIN) for `?`. */
int64_t fk_static_dim(MlirValue v, int j);
int fk_tensor_rank(MlirValue v);
/* The op defining v (null for a block argument). */
MlirOperation fk_owner(MlirValue v);

#endif
