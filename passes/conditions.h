/* conditions.h: the run-time conditions of a kernel variant (the entries of
 * fuser.vector_conditions, docs/lowering.md "Launch plan"), as C structs and
 * as the dictionary attributes the IR carries:
 *   {arg = 0 : i64, bytes = 16 : i64, kind = "align"}
 *   {kind = "stride", dim = 1 : i64, multiple = 8 : i64, result = 0 : i64}
 *   {kind = "extent", ...}, {kind = "merge", dim, inner}, {kind = "index32"},
 *   {kind = "points", result = 0 : i64, at_least = N} */
#ifndef FUSER_PASSES_CONDITIONS_H
#define FUSER_PASSES_CONDITIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef enum { FK_COND_ALIGN, FK_COND_STRIDE, FK_COND_EXTENT, FK_COND_MERGE, FK_COND_INDEX32, FK_COND_POINTS } fk_cond_kind;

typedef struct {
  fk_cond_kind kind;
  int tensor;    /* -1: none (index32) */
  int dim;       /* STRIDE, EXTENT, MERGE */
  int inner;     /* MERGE */
  int64_t value; /* ALIGN: bytes; STRIDE/EXTENT: multiple; POINTS: at least */
} fk_condition;

typedef struct {
  fk_condition *items;
  int n, cap;
} fk_condition_list;

/* Appends c unless an equal condition is there already. */
void fk_conditions_add(fk_condition_list *l, fk_condition c);
/* Appends every condition of `from`, even those already there. */
void fk_conditions_append(fk_condition_list *l, const fk_condition_list *from);
void fk_conditions_free(fk_condition_list *l);

/* The array attribute of the list; tensors < num_args are `arg`, others `result`. */
MlirAttribute fk_conditions_attr(MlirContext ctx, const fk_condition_list *l, int num_args);

#endif
