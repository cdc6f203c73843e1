/* conditions.h: the run-time conditions of a kernel variant (the entries of
 * fuser.vector_conditions, a schedule's conditions and access_conditions,
 * the launch records; docs/lowering.md "Launch plan"), as C structs and as
 * the typed attributes the IR carries: a dictionary of one entry named by
 * the kind, its value the fields (`arg = T` a kernel argument, `result = R`
 * a result):
 *   {align = {arg = 0 : i64, bytes = 16 : i64}}             address % bytes == 0
 *   {stride = {dim = 1 : i64, multiple = 8 : i64, result = 0 : i64}}
 *                                                           stride(t, dim) % multiple == 0
 *   {extent = {arg = 0 : i64, dim = 1 : i64, multiple = 8 : i64}}   size(t, dim) % multiple == 0
 *   {merge = {arg = 0 : i64, dim = 0 : i64, inner = 1 : i64}}
 *                                                           stride(t, dim) == stride(t, inner) * size(t, inner)
 *   {merge = {arg = 0 : i64, dim = 0 : i64, inner = 1 : i64, size = 9 : i64}}
 *                                                           stride(t, dim) == stride(t, inner) * 9 (an access
 *                                                           walking 9 of the dim's elements: a slice)
 *   {points = {at_least = 65536 : i64, result = 0 : i64}}   t holds at least that many elements
 *   {row_length = {at_least = 4096 : i64, dim = 1 : i64, result = 0 : i64}}
 *                                                           dims [dim, rank) of t hold at least that many
 *   {index32}                                               every tensor's span fits 32-bit indices
 * fk_condition_attr writes one, fk_condition_read reads one: the one place
 * this encoding lives. */
#ifndef FUSER_PASSES_CONDITIONS_H
#define FUSER_PASSES_CONDITIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef enum {
  FK_COND_ALIGN,
  FK_COND_STRIDE,
  FK_COND_EXTENT,
  FK_COND_MERGE,
  FK_COND_INDEX32,
  FK_COND_POINTS,
  FK_COND_ROW_LENGTH
} fk_cond_kind;

typedef struct {
  fk_cond_kind kind;
  int tensor;    /* -1: none (index32) */
  int dim;       /* STRIDE, EXTENT, MERGE, ROW_LENGTH */
  int inner;     /* MERGE */
  int64_t value; /* ALIGN: bytes; STRIDE/EXTENT: multiple; POINTS/ROW_LENGTH: at least;
                    MERGE: the inner extent (0: size(t, inner)) */
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

/* The attribute of one condition; tensors < num_args are `arg`, others `result`. */
MlirAttribute fk_condition_attr(MlirContext ctx, const fk_condition *c, int num_args);
/* The array attribute of the list. */
MlirAttribute fk_conditions_attr(MlirContext ctx, const fk_condition_list *l, int num_args);
/* Fills *c from a (`result = R` is tensor num_args + R); false (and *c
 * untouched) if a is not one of the forms above with the fields its kind
 * needs, non-negative (bytes and multiples positive), and no other. */
bool fk_condition_read(MlirAttribute a, int num_args, fk_condition *c);

#endif
