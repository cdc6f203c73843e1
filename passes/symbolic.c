/* Canonical integer polynomials over argument sizes and strides (symbolic.h). */
#include "passes/symbolic.h"

#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"

static int sym_cmp(const fuser_sym *a, const fuser_sym *b) {
  if (a->kind != b->kind) return a->kind - b->kind;
  if (a->arg != b->arg) return a->arg - b->arg;
  return a->dim - b->dim;
}

static int term_cmp(const fuser_term *a, const fuser_term *b) {
  if (a->nf != b->nf) return a->nf - b->nf;
  for (int i = 0; i < a->nf; i++) {
    int c = sym_cmp(&a->f[i], &b->f[i]);
    if (c) return c;
  }
  return 0;
}

/* Sorts terms, merges like terms, drops zeros. */
static void canonicalize(fuser_poly *p) {
  for (int i = 1; i < p->nt; i++)
    for (int j = i; j > 0 && term_cmp(&p->t[j - 1], &p->t[j]) > 0; j--) {
      fuser_term tmp = p->t[j];
      p->t[j] = p->t[j - 1];
      p->t[j - 1] = tmp;
    }
  int k = 0;
  for (int i = 0; i < p->nt; i++) {
    if (k > 0 && term_cmp(&p->t[k - 1], &p->t[i]) == 0) p->t[k - 1].coeff += p->t[i].coeff;
    else p->t[k++] = p->t[i];
  }
  int m = 0;
  for (int i = 0; i < k; i++)
    if (p->t[i].coeff != 0) p->t[m++] = p->t[i];
  p->nt = m;
}

fuser_poly fuser_poly_const(int64_t v) {
  fuser_poly p = {0};
  if (v) p.nt = 1, p.t[0].coeff = v;
  return p;
}

fuser_poly fuser_poly_sym(int kind, int arg, int dim) {
  fuser_poly p = {0};
  p.nt = 1;
  p.t[0].coeff = 1;
  p.t[0].nf = 1;
  p.t[0].f[0] = (fuser_sym){kind, arg, dim};
  return p;
}

fuser_poly fuser_poly_add(fuser_poly a, fuser_poly b) {
  fuser_poly r = a;
  r.overflow |= b.overflow;
  for (int i = 0; i < b.nt; i++) {
    if (r.nt == FUSER_POLY_MAX_TERMS) {
      canonicalize(&r);
      if (r.nt == FUSER_POLY_MAX_TERMS) {
        r.overflow = true;
        return r;
      }
    }
    r.t[r.nt++] = b.t[i];
  }
  canonicalize(&r);
  return r;
}

static bool term_mul(const fuser_term *a, const fuser_term *b, fuser_term *out) {
  if (a->nf + b->nf > FUSER_POLY_MAX_FACTORS) return false;
  out->coeff = a->coeff * b->coeff;
  out->nf = 0;
  int i = 0, j = 0;
  while (i < a->nf || j < b->nf) /* merge of two sorted factor lists */
    if (j >= b->nf || (i < a->nf && sym_cmp(&a->f[i], &b->f[j]) <= 0)) out->f[out->nf++] = a->f[i++];
    else out->f[out->nf++] = b->f[j++];
  return true;
}

fuser_poly fuser_poly_mul(fuser_poly a, fuser_poly b) {
  fuser_poly r = {0};
  r.overflow = a.overflow || b.overflow;
  for (int i = 0; i < a.nt; i++)
    for (int j = 0; j < b.nt; j++) {
      if (r.nt == FUSER_POLY_MAX_TERMS) canonicalize(&r);
      if (r.nt == FUSER_POLY_MAX_TERMS || !term_mul(&a.t[i], &b.t[j], &r.t[r.nt])) {
        r.overflow = true;
        return r;
      }
      r.nt++;
    }
  canonicalize(&r);
  return r;
}

bool fuser_poly_equal(const fuser_poly *a, const fuser_poly *b) {
  if (a->overflow || b->overflow || a->nt != b->nt) return false;
  for (int i = 0; i < a->nt; i++)
    if (a->t[i].coeff != b->t[i].coeff || term_cmp(&a->t[i], &b->t[i]) != 0) return false;
  return true;
}

bool fuser_poly_is_const(const fuser_poly *p, int64_t *value) {
  if (p->overflow) return false;
  if (p->nt == 0) {
    *value = 0;
    return true;
  }
  if (p->nt == 1 && p->t[0].nf == 0) {
    *value = p->t[0].coeff;
    return true;
  }
  return false;
}

static MlirValue emit_op(MlirOperation anchor, const char *name, int n, MlirValue *ops, int nattrs,
                         MlirNamedAttribute *attrs) {
  MlirContext ctx = mlirOperationGetContext(anchor);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirOperation op = fuser_create_op(mlirOperationGetLocation(anchor), name, n, ops, 1, &i64, nattrs, attrs);
  fuser_insert_before(anchor, op);
  return mlirOperationGetResult(op, 0);
}

static MlirValue emit_const(MlirOperation anchor, int64_t v) {
  MlirContext ctx = mlirOperationGetContext(anchor);
  MlirNamedAttribute a = fuser_named(ctx, "value", fuser_i64_attr(ctx, v));
  return emit_op(anchor, "fuser.scalar", 0, NULL, 1, &a);
}

/* A scalar argument is its own value; sizes and strides are read with
 * fuser.size / fuser.stride. */
static MlirValue emit_symbol(MlirOperation anchor, MlirBlock body, const fuser_sym *sym) {
  MlirValue arg = mlirBlockGetArgument(body, sym->arg);
  if (sym->kind == FUSER_SYM_SCALAR) return arg;
  MlirContext ctx = mlirOperationGetContext(anchor);
  MlirNamedAttribute dim = fuser_named(ctx, "dim", fuser_i64_attr(ctx, sym->dim));
  return emit_op(anchor, sym->kind == FUSER_SYM_SIZE ? "fuser.size" : "fuser.stride", 1, &arg, 1, &dim);
}

MlirValue fuser_poly_emit(const fuser_poly *p, MlirOperation anchor, MlirBlock body) {
  MlirValue sum = {NULL};
  for (int i = 0; i < p->nt; i++) {
    const fuser_term *t = &p->t[i];
    MlirValue prod = {NULL};
    if (t->coeff != 1 || t->nf == 0) prod = emit_const(anchor, t->coeff);
    for (int k = 0; k < t->nf; k++) {
      MlirValue f = emit_symbol(anchor, body, &t->f[k]);
      if (mlirValueIsNull(prod)) prod = f;
      else {
        MlirValue two[2] = {prod, f};
        prod = emit_op(anchor, "fuser.mul", 2, two, 0, NULL);
      }
    }
    if (mlirValueIsNull(sum)) sum = prod;
    else {
      MlirValue two[2] = {sum, prod};
      sum = emit_op(anchor, "fuser.add", 2, two, 0, NULL);
    }
  }
  return mlirValueIsNull(sum) ? emit_const(anchor, 0) : sum;
}
