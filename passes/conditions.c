/* conditions.c: run-time conditions as structs and attributes (conditions.h). */
#include "passes/conditions.h"

#include <stdlib.h>
#include <string.h>

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

/* Each kind: its key, the name of its number (NULL: none), whether it names
 * a tensor and a dim, and the least value of its number. */
static const struct {
  const char *key, *value;
  bool tensor, dim;
  int64_t least;
} kinds[] = {
    [FK_COND_ALIGN] = {"align", "bytes", true, false, 1},
    [FK_COND_STRIDE] = {"stride", "multiple", true, true, 1},
    [FK_COND_EXTENT] = {"extent", "multiple", true, true, 1},
    [FK_COND_MERGE] = {"merge", NULL, true, true, 0},
    [FK_COND_INDEX32] = {"index32", NULL, false, false, 0},
    [FK_COND_POINTS] = {"points", "at_least", true, false, 0},
    [FK_COND_ROW_LENGTH] = {"row_length", "at_least", true, true, 0},
};
enum { NUM_KINDS = sizeof kinds / sizeof kinds[0] };

MlirAttribute fk_condition_attr(MlirContext ctx, const fk_condition *c, int num_args) {
  MlirNamedAttribute e[4];
  int n = 0;
  if (kinds[c->kind].tensor)
    e[n++] = entry(ctx, c->tensor < num_args ? "arg" : "result", i64(ctx, c->tensor < num_args ? c->tensor : c->tensor - num_args));
  if (kinds[c->kind].dim) e[n++] = entry(ctx, "dim", i64(ctx, c->dim));
  if (c->kind == FK_COND_MERGE) e[n++] = entry(ctx, "inner", i64(ctx, c->inner));
  if (c->kind == FK_COND_MERGE && c->value > 0) e[n++] = entry(ctx, "size", i64(ctx, c->value));
  if (kinds[c->kind].value) e[n++] = entry(ctx, kinds[c->kind].value, i64(ctx, c->value));
  MlirNamedAttribute k = entry(ctx, kinds[c->kind].key, c->kind == FK_COND_INDEX32 ? mlirUnitAttrGet(ctx) : mlirDictionaryAttrGet(ctx, n, e));
  return mlirDictionaryAttrGet(ctx, 1, &k);
}

/* A non-negative integer field of d into *out; false if absent or not one. */
static bool int_field(MlirAttribute d, const char *name, int64_t *out) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) < 0) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

bool fk_condition_read(MlirAttribute a, int num_args, fk_condition *c) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADictionary(a) || mlirDictionaryAttrGetNumElements(a) != 1) return false;
  MlirNamedAttribute e = mlirDictionaryAttrGetElement(a, 0);
  MlirStringRef key = mlirIdentifierStr(e.name);
  int kind = -1;
  for (int k = 0; k < NUM_KINDS; k++)
    if (key.length == strlen(kinds[k].key) && memcmp(key.data, kinds[k].key, key.length) == 0) kind = k;
  if (kind < 0) return false;
  fk_condition q = {.kind = (fk_cond_kind)kind, .tensor = -1, .dim = -1, .inner = -1, .value = 0};
  MlirAttribute f = e.attribute;
  if (kind == FK_COND_INDEX32) {
    if (!mlirAttributeIsAUnit(f)) return false;
    *c = q;
    return true;
  }
  if (!mlirAttributeIsADictionary(f)) return false;
  int expected = 0; /* the fields the kind has: no other is allowed */
  int64_t t, v;
  bool arg = int_field(f, "arg", &t);
  if (arg == int_field(f, "result", &v)) return false; /* exactly one of arg, result */
  q.tensor = (int)(arg ? t : num_args + v), expected++;
  if (kinds[kind].dim) {
    if (!int_field(f, "dim", &v)) return false;
    q.dim = (int)v, expected++;
  }
  if (kind == FK_COND_MERGE) {
    if (!int_field(f, "inner", &v)) return false;
    q.inner = (int)v, expected++;
    MlirAttribute size = mlirDictionaryAttrGetElementByName(f, mlirStringRefCreateFromCString("size"));
    if (!mlirAttributeIsNull(size)) { /* optional: the inner extent, when not the tensor's size */
      if (!int_field(f, "size", &v) || v < 1) return false;
      q.value = v, expected++;
    }
  }
  if (kinds[kind].value) {
    if (!int_field(f, kinds[kind].value, &v) || v < kinds[kind].least) return false;
    q.value = v, expected++;
  }
  if (mlirDictionaryAttrGetNumElements(f) != expected) return false;
  *c = q;
  return true;
}

MlirAttribute fk_conditions_attr(MlirContext ctx, const fk_condition_list *l, int num_args) {
  MlirAttribute stack[16] = {{NULL}};
  MlirAttribute *all = l->n > 16 ? malloc((size_t)l->n * sizeof *all) : stack;
  for (int i = 0; i < l->n; i++) all[i] = fk_condition_attr(ctx, &l->items[i], num_args);
  MlirAttribute a = mlirArrayAttrGet(ctx, l->n, all);
  if (all != stack) free(all);
  return a;
}
