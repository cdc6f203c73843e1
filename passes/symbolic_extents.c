/* symbolic_extents.c: the extent rules (dialects/extent.h) evaluated on
 * polynomials (symbolic_extents.h). */
#include "passes/symbolic_extents.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/extent.h"
#include "mlir-c/BuiltinTypes.h"

void fuser_symbolic_extents_init(fuser_symbolic_extents *x) {
  memset(x, 0, sizeof *x);
  fuser_ptr_map_init(&x->index);
}

void fuser_symbolic_extents_free(fuser_symbolic_extents *x) {
  fuser_ptr_map_free(&x->index);
  free(x->sizes);
  free(x->value);
  free(x->checks);
  memset(x, 0, sizeof *x);
}

static int slot(fuser_symbolic_extents *x, MlirValue v) {
  intptr_t i;
  if (fuser_ptr_map_get(&x->index, v.ptr, &i)) return (int)i;
  if (x->count == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 64;
    x->sizes = realloc(x->sizes, sizeof *x->sizes * x->cap);
    x->value = realloc(x->value, sizeof *x->value * x->cap);
  }
  fuser_ptr_map_put(&x->index, v.ptr, x->count);
  x->value[x->count] = (fuser_poly){.overflow = true};
  return x->count++;
}

void fuser_symbolic_extents_set(fuser_symbolic_extents *x, MlirValue v, const fuser_poly *sizes, const fuser_poly *value) {
  int s = slot(x, v);
  if (sizes && mlirTypeIsARankedTensor(mlirValueGetType(v)))
    memcpy(x->sizes[s], sizes, sizeof(fuser_poly) * mlirShapedTypeGetRank(mlirValueGetType(v)));
  if (value) x->value[s] = *value;
}

void fuser_symbolic_extents_set_args(fuser_symbolic_extents *x, MlirBlock body) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirValue a = mlirBlockGetArgument(body, i);
    MlirType t = mlirValueGetType(a);
    fuser_poly sizes[FUSER_MAX_RANK], value = fuser_poly_sym(FUSER_SYM_SCALAR, (int)i, 0);
    if (!mlirTypeIsARankedTensor(t)) {
      fuser_symbolic_extents_set(x, a, NULL, fuser_value_dtype(a) == FUSER_DTYPE_I64 ? &value : NULL);
      continue;
    }
    for (int d = 0; d < mlirShapedTypeGetRank(t) && d < FUSER_MAX_RANK; d++)
      sizes[d] = mlirShapedTypeIsDynamicDim(t, d) ? fuser_poly_sym(FUSER_SYM_SIZE, (int)i, d)
                                                  : fuser_poly_const(mlirShapedTypeGetDimSize(t, d));
    fuser_symbolic_extents_set(x, a, sizes, NULL);
  }
}

const fuser_poly *fuser_symbolic_extents_of(const fuser_symbolic_extents *x, MlirValue v) {
  intptr_t i;
  if (!mlirTypeIsARankedTensor(mlirValueGetType(v))) return NULL;
  return fuser_ptr_map_get(&x->index, v.ptr, &i) ? x->sizes[i] : NULL;
}

/* Records that a == b (a <= b: at_most) must hold at run time; nothing when
 * it holds by construction or both are constant (the verifier checked those). */
static void require(fuser_symbolic_extents *x, const fuser_poly *a, const fuser_poly *b, bool at_most) {
  int64_t p, q;
  if (fuser_poly_equal(a, b) || (fuser_poly_is_const(a, &p) && fuser_poly_is_const(b, &q))) return;
  if (a->overflow || b->overflow) return;
  x->checks = realloc(x->checks, sizeof *x->checks * (x->nchecks + 1));
  x->checks[x->nchecks++] = (fuser_extent_check){*a, *b, at_most};
}

static void require_equal(fuser_symbolic_extents *x, const fuser_poly *a, const fuser_poly *b) { require(x, a, b, false); }

static bool is_one(const fuser_poly *p) {
  int64_t v;
  return fuser_poly_is_const(p, &v) && v == 1;
}

/* The value of an i64 scalar: seeded, a fuser.scalar constant, a
 * fuser.size of a tensor whose extents are known, or the sum, difference or
 * product of such. Overflow set when it is none of these. */
static fuser_poly scalar_value(fuser_symbolic_extents *x, MlirValue v) {
  intptr_t i;
  if (fuser_ptr_map_get(&x->index, v.ptr, &i)) return x->value[i];
  fuser_poly unknown = {.overflow = true};
  if (!mlirValueIsAOpResult(v)) return unknown;
  MlirOperation op = mlirOpResultGetOwner(v);
  fuser_op_id id = fuser_op_id_of(op);
  int64_t c;
  if (id == FUSER_OP_scalar) return fuser_get_i64(op, "value", &c) ? fuser_poly_const(c) : unknown;
  if (id == FUSER_OP_size) {
    const fuser_poly *s = fuser_symbolic_extents_of(x, mlirOperationGetOperand(op, 0));
    return s && fuser_get_i64(op, "dim", &c) && c >= 0 && c < FUSER_MAX_RANK ? s[c] : unknown;
  }
  if ((id != FUSER_OP_add && id != FUSER_OP_sub && id != FUSER_OP_mul) || fuser_value_dtype(v) != FUSER_DTYPE_I64) return unknown;
  fuser_poly a = scalar_value(x, mlirOperationGetOperand(op, 0)), b = scalar_value(x, mlirOperationGetOperand(op, 1));
  if (id == FUSER_OP_sub) b = fuser_poly_mul(b, fuser_poly_const(-1));
  return id == FUSER_OP_mul ? fuser_poly_mul(a, b) : fuser_poly_add(a, b);
}

static const fuser_poly *ref_poly(fuser_symbolic_extents *x, const fuser_op_desc *d, fuser_extent_ref r) {
  const fuser_poly *s = fuser_symbolic_extents_of(x, d->operands[r.operand]);
  return s ? &s[r.dim] : NULL;
}

/* One result extent by its rule; `fixed` is its static extent from the
 * result type, or NULL. A rule that joins extents (broadcast, cat) records
 * that the joined ones agree, with the static extent when there is one. */
static bool derive_extent(fuser_symbolic_extents *x, const fuser_op_desc *d, const fuser_extent *e, const fuser_poly *fixed,
                          fuser_poly *out) {
  const fuser_poly *r[FUSER_EXTENT_MAX_REFS];
  for (int i = 0; i < e->nrefs; i++)
    if (e->kind != FUSER_EXTENT_SCALAR && !(r[i] = ref_poly(x, d, e->ref[i]))) return false;
  switch (e->kind) {
  case FUSER_EXTENT_STATIC: *out = fuser_poly_const(e->value); break;
  case FUSER_EXTENT_DIM: *out = e->value ? fuser_poly_add(*r[0], fuser_poly_const(e->value)) : *r[0]; break;
  case FUSER_EXTENT_SUM:
    *out = fuser_poly_add(*r[0], *r[1]);
    if (fixed) require_equal(x, out, fixed);
    break;
  case FUSER_EXTENT_SCALAR: *out = scalar_value(x, d->operands[e->ref[0].operand]); break;
  case FUSER_EXTENT_BROADCAST:
  case FUSER_EXTENT_EQUAL: {
    bool broadcast = e->kind == FUSER_EXTENT_BROADCAST;
    const fuser_poly *join = fixed;
    for (int i = 0; i < e->nrefs; i++) {
      if (broadcast && is_one(r[i])) continue;
      if (join) require_equal(x, r[i], join);
      else join = r[i];
    }
    *out = join ? *join : fuser_poly_const(1);
    break;
  }
  }
  if (fixed) *out = *fixed;
  return !out->overflow;
}

/* The product of a tensor's extents (overflow set: more factors than a
 * polynomial holds, or not derived). */
static fuser_poly element_count(const fuser_symbolic_extents *x, MlirValue v) {
  const fuser_poly *s = fuser_symbolic_extents_of(x, v);
  fuser_poly n = fuser_poly_const(1);
  if (!s) return (fuser_poly){.overflow = true};
  for (int d = 0; d < mlirShapedTypeGetRank(mlirValueGetType(v)); d++) n = fuser_poly_mul(n, s[d]);
  return n;
}

/* One side of a requirement: an operand dim, the constant, a scalar
 * operand, or an element count (of the op's first result: its extents are
 * derived before). False when a scalar is no polynomial. */
static bool side_poly(fuser_symbolic_extents *x, MlirOperation op, const fuser_op_desc *d, const fuser_extent_requirement *q,
                      fuser_extent_ref r, fuser_poly *out) {
  const fuser_poly *p;
  if (r.dim == FUSER_EXTENT_COUNT) {
    *out = element_count(x, r.operand == FUSER_EXTENT_RESULT ? mlirOperationGetResult(op, 0) : d->operands[r.operand]);
    return true; /* too large a polynomial: no check (require skips it) */
  }
  if (r.operand < 0) *out = fuser_poly_const(q->value);
  else if (r.dim < 0) *out = scalar_value(x, d->operands[r.operand]);
  else if ((p = ref_poly(x, d, r))) *out = *p;
  else return false;
  return !out->overflow;
}

static bool on_result(const fuser_extent_requirement *q) {
  return q->a.operand == FUSER_EXTENT_RESULT || q->b.operand == FUSER_EXTENT_RESULT;
}

/* Records the op's requirements, those on its result's element count (when
 * `results`, after its extents are derived) or the others. */
static bool require_all(fuser_symbolic_extents *x, MlirOperation op, const fuser_op_desc *d, bool results) {
  fuser_extent_requirement q[FUSER_EXTENT_MAX_REQUIREMENTS];
  int nq = fuser_extent_requirements(d, q);
  for (int i = 0; i < nq; i++) {
    fuser_poly a, b;
    if (on_result(&q[i]) != results) continue;
    if (!side_poly(x, op, d, &q[i], q[i].a, &a) || !side_poly(x, op, d, &q[i], q[i].b, &b)) return false;
    switch (q[i].rel) {
    case FUSER_EXTENT_AT_MOST: require(x, &a, &b, true); break;
    case FUSER_EXTENT_EQ:
    case FUSER_EXTENT_SAME_COUNT: require_equal(x, &a, &b); break;
    case FUSER_EXTENT_EQ_OR_ONE:
      if (!is_one(&a) && !is_one(&b)) require_equal(x, &a, &b);
      break;
    case FUSER_EXTENT_BROADCASTS_TO:
      if (!is_one(&a)) require_equal(x, &a, &b);
      break;
    }
  }
  return true;
}

static bool derive_op(fuser_symbolic_extents *x, MlirOperation op) {
  fuser_op_desc_storage s;
  fuser_extent e[FUSER_MAX_RANK];
  if (!fuser_op_desc_of(op, &s, NULL, 0)) return false;
  int rank = fuser_extent_rules(&s.desc, e);
  if (!require_all(x, op, &s.desc, false)) return false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
    MlirValue v = mlirOperationGetResult(op, r);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t)) continue;
    if (rank != mlirShapedTypeGetRank(t)) return false;
    fuser_poly sizes[FUSER_MAX_RANK];
    for (int j = 0; j < rank; j++) {
      fuser_poly fixed = fuser_poly_const(mlirShapedTypeGetDimSize(t, j));
      if (!derive_extent(x, &s.desc, &e[j], mlirShapedTypeIsDynamicDim(t, j) ? NULL : &fixed, &sizes[j])) return false;
    }
    fuser_symbolic_extents_set(x, v, sizes, NULL);
  }
  return require_all(x, op, &s.desc, true);
}

bool fuser_symbolic_extents_derive(fuser_symbolic_extents *x, MlirBlock body, MlirOperation *failed) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (fuser_op_id_of(op) == FUSER_OP_NONE) continue;
    if (!derive_op(x, op)) {
      *failed = op;
      return false;
    }
  }
  return true;
}
