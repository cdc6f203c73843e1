/* input_checks.c: the typed input checks of input_checks.h. */
#include "passes/input_checks.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static bool name_is(MlirIdentifier id, const char *s) {
  MlirStringRef n = mlirIdentifierStr(id);
  return n.length == strlen(s) && memcmp(n.data, s, n.length) == 0;
}

static MlirAttribute factor_attr(MlirContext ctx, const fuser_sym *f) {
  MlirNamedAttribute e =
      f->kind == FUSER_SYM_SCALAR
          ? named(ctx, "scalar", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), f->arg))
          : named(ctx, f->kind == FUSER_SYM_SIZE ? "size" : "stride", mlirDenseI64ArrayGet(ctx, 2, (const int64_t[]){f->arg, f->dim}));
  return mlirDictionaryAttrGet(ctx, 1, &e);
}

static MlirAttribute poly_attr(MlirContext ctx, const fuser_poly *p) {
  MlirAttribute terms[FUSER_POLY_MAX_TERMS];
  for (int i = 0; i < p->nt; i++) {
    MlirAttribute factors[FUSER_POLY_MAX_FACTORS];
    for (int k = 0; k < p->t[i].nf; k++) factors[k] = factor_attr(ctx, &p->t[i].f[k]);
    MlirNamedAttribute e[2] = {named(ctx, "coeff", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), p->t[i].coeff)),
                               named(ctx, "factors", mlirArrayAttrGet(ctx, p->t[i].nf, factors))};
    terms[i] = mlirDictionaryAttrGet(ctx, 2, e);
  }
  return mlirArrayAttrGet(ctx, p->nt, terms);
}

MlirAttribute fuser_input_check_attr(MlirContext ctx, const fuser_input_check *c) {
  if (c->lhs.overflow || c->rhs.overflow) return mlirAttributeGetNull();
  MlirAttribute sides[2] = {poly_attr(ctx, &c->lhs), poly_attr(ctx, &c->rhs)};
  MlirNamedAttribute e[2] = {named(ctx, c->rel == FUSER_CHECK_GE ? "ge" : "eq", mlirArrayAttrGet(ctx, 2, sides)),
                             named(ctx, "message", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(c->message)))};
  return mlirDictionaryAttrGet(ctx, c->message[0] ? 2 : 1, e);
}

static bool small_int(int64_t v) { return v >= 0 && v <= INT32_MAX; }

static bool read_factor(MlirAttribute a, fuser_sym *f) {
  if (!mlirAttributeIsADictionary(a) || mlirDictionaryAttrGetNumElements(a) != 1) return false;
  MlirNamedAttribute e = mlirDictionaryAttrGetElement(a, 0);
  if (name_is(e.name, "scalar")) {
    if (!mlirAttributeIsAInteger(e.attribute) || !small_int(mlirIntegerAttrGetValueInt(e.attribute))) return false;
    *f = (fuser_sym){FUSER_SYM_SCALAR, (int)mlirIntegerAttrGetValueInt(e.attribute), 0};
    return true;
  }
  bool size = name_is(e.name, "size");
  if (!size && !name_is(e.name, "stride")) return false;
  if (!mlirAttributeIsADenseI64Array(e.attribute) || mlirDenseArrayGetNumElements(e.attribute) != 2) return false;
  int64_t arg = mlirDenseI64ArrayGetElement(e.attribute, 0), dim = mlirDenseI64ArrayGetElement(e.attribute, 1);
  if (!small_int(arg) || !small_int(dim)) return false;
  *f = (fuser_sym){size ? FUSER_SYM_SIZE : FUSER_SYM_STRIDE, (int)arg, (int)dim};
  return true;
}

static bool read_poly(MlirAttribute a, fuser_poly *p) {
  if (!mlirAttributeIsAArray(a) || mlirArrayAttrGetNumElements(a) > FUSER_POLY_MAX_TERMS) return false;
  *p = (fuser_poly){.nt = (int)mlirArrayAttrGetNumElements(a)};
  for (int i = 0; i < p->nt; i++) {
    MlirAttribute t = mlirArrayAttrGetElement(a, i);
    if (!mlirAttributeIsADictionary(t)) return false;
    MlirAttribute coeff = mlirDictionaryAttrGetElementByName(t, mlirStringRefCreateFromCString("coeff"));
    MlirAttribute factors = mlirDictionaryAttrGetElementByName(t, mlirStringRefCreateFromCString("factors"));
    if (mlirAttributeIsNull(coeff) || !mlirAttributeIsAInteger(coeff) || mlirAttributeIsNull(factors) ||
        !mlirAttributeIsAArray(factors) || mlirArrayAttrGetNumElements(factors) > FUSER_POLY_MAX_FACTORS ||
        mlirDictionaryAttrGetNumElements(t) != 2)
      return false;
    p->t[i].coeff = mlirIntegerAttrGetValueInt(coeff);
    p->t[i].nf = (int)mlirArrayAttrGetNumElements(factors);
    for (int k = 0; k < p->t[i].nf; k++)
      if (!read_factor(mlirArrayAttrGetElement(factors, k), &p->t[i].f[k])) return false;
  }
  return true;
}

bool fuser_input_check_read(MlirAttribute a, fuser_input_check *c) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADictionary(a)) return false;
  intptr_t n = mlirDictionaryAttrGetNumElements(a);
  MlirAttribute msg = mlirDictionaryAttrGetElementByName(a, mlirStringRefCreateFromCString("message"));
  if (n != 1 + !mlirAttributeIsNull(msg) || (!mlirAttributeIsNull(msg) && !mlirAttributeIsAString(msg))) return false;
  c->message[0] = 0;
  if (!mlirAttributeIsNull(msg)) {
    MlirStringRef s = mlirStringAttrGetValue(msg);
    if (s.length >= FUSER_CHECK_MESSAGE_MAX) return false;
    memcpy(c->message, s.data, s.length);
    c->message[s.length] = 0;
  }
  MlirNamedAttribute e = mlirDictionaryAttrGetElement(a, 0); /* sorted: "eq"/"ge" before "message" */
  bool ge = name_is(e.name, "ge");
  if (!ge && !name_is(e.name, "eq")) return false;
  if (!mlirAttributeIsAArray(e.attribute) || mlirArrayAttrGetNumElements(e.attribute) != 2) return false;
  c->rel = ge ? FUSER_CHECK_GE : FUSER_CHECK_EQ;
  return read_poly(mlirArrayAttrGetElement(e.attribute, 0), &c->lhs) && read_poly(mlirArrayAttrGetElement(e.attribute, 1), &c->rhs);
}
