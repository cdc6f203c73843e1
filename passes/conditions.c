/* conditions.c: run-time conditions as structs and attributes (conditions.h). */
#include "passes/conditions.h"

#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static bool same(const fk_condition *a, const fk_condition *b) {
  return a->kind == b->kind && a->tensor == b->tensor && a->dim == b->dim && a->inner == b->inner && a->value == b->value;
}

static void push(fk_condition_list *l, fk_condition c) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->items = realloc(l->items, (size_t)l->cap * sizeof *l->items);
  }
  l->items[l->n++] = c;
}

void fk_conditions_add(fk_condition_list *l, fk_condition c) {
  for (int i = 0; i < l->n; i++)
    if (same(&l->items[i], &c)) return;
  push(l, c);
}

void fk_conditions_append(fk_condition_list *l, const fk_condition_list *from) {
  for (int i = 0; i < from->n; i++) push(l, from->items[i]);
}

void fk_conditions_free(fk_condition_list *l) {
  free(l->items);
  *l = (fk_condition_list){0};
}

static MlirNamedAttribute entry(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirAttribute i64(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }

static MlirAttribute one_attr(MlirContext ctx, const fk_condition *c, int num_args) {
  static const char *kinds[] = {"align", "stride", "extent", "merge", "index32", "points"};
  MlirNamedAttribute e[5];
  int n = 0;
  if (c->tensor >= 0)
    e[n++] = entry(ctx, c->tensor < num_args ? "arg" : "result", i64(ctx, c->tensor < num_args ? c->tensor : c->tensor - num_args));
  e[n++] = entry(ctx, "kind", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(kinds[c->kind])));
  switch (c->kind) {
  case FK_COND_ALIGN: e[n++] = entry(ctx, "bytes", i64(ctx, c->value)); break;
  case FK_COND_STRIDE:
  case FK_COND_EXTENT:
    e[n++] = entry(ctx, "dim", i64(ctx, c->dim));
    e[n++] = entry(ctx, "multiple", i64(ctx, c->value));
    break;
  case FK_COND_MERGE:
    e[n++] = entry(ctx, "dim", i64(ctx, c->dim));
    e[n++] = entry(ctx, "inner", i64(ctx, c->inner));
    break;
  case FK_COND_POINTS: e[n++] = entry(ctx, "at_least", i64(ctx, c->value)); break;
  case FK_COND_INDEX32: break;
  }
  return mlirDictionaryAttrGet(ctx, n, e);
}

MlirAttribute fk_conditions_attr(MlirContext ctx, const fk_condition_list *l, int num_args) {
  MlirAttribute stack[16] = {{NULL}};
  MlirAttribute *all = l->n > 16 ? malloc((size_t)l->n * sizeof *all) : stack;
  for (int i = 0; i < l->n; i++) all[i] = one_attr(ctx, &l->items[i], num_args);
  MlirAttribute a = mlirArrayAttrGet(ctx, l->n, all);
  if (all != stack) free(all);
  return a;
}
