/* Result-type inference for fuser ops: nvFuser's shape and dtype rules.
 * The importer uses it to build ops, the verifier to check them, so the two
 * can never disagree. The result extents follow the shared extent rules
 * (extent.h), evaluated here on static extents; what stays here is the
 * checking of operands and attributes, and the dtypes. */
#include "dialects/fuser.h"
#include "dialects/extent.h"
#include "support/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* What inference needs to know about one operand. */
typedef struct {
  bool tensor;
  fuser_dtype dtype;
  int rank;
  int64_t shape[FUSER_MAX_RANK];
} operand_info;

typedef struct {
  MlirContext ctx;
  const fuser_op_desc *desc;
  operand_info ops[8];
  char *err;
  size_t errlen;
} infer_state;

static int64_t dyn(void) { return mlirShapedTypeGetDynamicSize(); }
static bool is_dyn(int64_t d) { return d == mlirShapedTypeGetDynamicSize(); }

static MlirAttribute find_attr(const fuser_op_desc *d, const char *name) { return fuser_desc_attr(d, name); }

/* Reads a dense integer-array attribute; -1 if missing or not one. */
static int attr_array(infer_state *s, const char *name, int64_t *out, int cap) {
  return fuser_attr_i64_array(find_attr(s->desc, name), out, cap);
}

static bool need_array(infer_state *s, const char *name, int64_t *out, int cap, int *n, bool want_bool) {
  MlirAttribute a = find_attr(s->desc, name);
  if (mlirAttributeIsNull(a)) return fuser_message(s->err, s->errlen, "requires attribute '%s'", name);
  if (want_bool ? !mlirAttributeIsADenseBoolArray(a) : !mlirAttributeIsADenseI64Array(a))
    return fuser_message(s->err, s->errlen, "attribute '%s' must be an array<%s>", name, want_bool ? "i1" : "i64");
  *n = attr_array(s, name, out, cap);
  if (*n > cap) return fuser_message(s->err, s->errlen, "attribute '%s' has more than %d elements", name, cap);
  return true;
}

static bool need_int(infer_state *s, const char *name, int64_t *out) {
  MlirAttribute a = find_attr(s->desc, name);
  if (mlirAttributeIsNull(a)) return fuser_message(s->err, s->errlen, "requires attribute '%s'", name);
  if (mlirAttributeIsABool(a)) {
    *out = mlirBoolAttrGetValue(a);
    return true;
  }
  if (!mlirAttributeIsAInteger(a)) return fuser_message(s->err, s->errlen, "attribute '%s' must be an integer", name);
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static MlirType tensor_type(infer_state *s, int rank, const int64_t *shape, fuser_dtype dt) {
  return mlirRankedTensorTypeGet(rank, shape, fuser_dtype_to_type(s->ctx, dt), mlirAttributeGetNull());
}

static bool need_tensor(infer_state *s, int i, const char *what) {
  if (!s->ops[i].tensor) return fuser_message(s->err, s->errlen, "%s must be a tensor", what);
  return true;
}

static bool need_i64_scalars(infer_state *s, int first, const char *what) {
  for (int i = first; i < s->desc->num_operands; i++)
    if (s->ops[i].tensor || s->ops[i].dtype != FUSER_DTYPE_I64)
      return fuser_message(s->err, s->errlen, "%s operand #%d must be an i64 scalar", what, i);
  return true;
}

/* Extents of two operands along one dim, nvFuser style: a static 1 is a
 * broadcast and takes the other side; `?` is a symbolic non-broadcast extent. */
static bool combine_extent(infer_state *s, int64_t a, int64_t b, int dim, int64_t *out) {
  if (a == 1) { *out = b; return true; }
  if (b == 1) { *out = a; return true; }
  if (is_dyn(a)) { *out = b; return true; }
  if (is_dyn(b)) { *out = a; return true; }
  if (a != b) return fuser_message(s->err, s->errlen, "operand extents %lld and %lld differ in dim %d", (long long)a, (long long)b, dim);
  *out = a;
  return true;
}

static int64_t operand_extent(infer_state *s, fuser_extent_ref r) { return s->ops[r.operand].shape[r.dim]; }

/* Result extent `dim` by its rule (extent.h) on static extents: `?` where it
 * depends on a `?` extent or a scalar operand, nvFuser's error where the
 * static extents it joins disagree. (A DIM rule adds a constant for pad
 * only, SUM and EQUAL are cat's, hence the messages.) */
static bool static_extent(infer_state *s, const fuser_extent *e, int dim, int64_t *out) {
  int64_t x, y;
  switch (e->kind) {
  case FUSER_EXTENT_STATIC: *out = e->value; return true;
  case FUSER_EXTENT_SCALAR: *out = dyn(); return true;
  case FUSER_EXTENT_DIM:
    *out = x = operand_extent(s, e->ref[0]);
    if (is_dyn(x)) return true;
    if (__builtin_add_overflow(x, e->value, out))
      return fuser_message(s->err, s->errlen, "pad widths overflow the extent of dim %d", dim);
    if (*out < 0) return fuser_message(s->err, s->errlen, "pad widths make dim %d negative", dim);
    return true;
  case FUSER_EXTENT_SUM:
    x = operand_extent(s, e->ref[0]), y = operand_extent(s, e->ref[1]);
    if (is_dyn(x) || is_dyn(y)) *out = dyn();
    else if (__builtin_add_overflow(x, y, out))
      return fuser_message(s->err, s->errlen, "cat result extent in dim %d overflows int64", dim);
    return true;
  case FUSER_EXTENT_BROADCAST:
    *out = 1;
    for (int i = 0; i < e->nrefs; i++)
      if (!combine_extent(s, *out, operand_extent(s, e->ref[i]), dim, out)) return false;
    return true;
  case FUSER_EXTENT_EQUAL:
    *out = dyn();
    for (int i = 0; i < e->nrefs; i++) {
      x = operand_extent(s, e->ref[i]);
      if (!is_dyn(x) && !is_dyn(*out) && x != *out)
        return fuser_message(s->err, s->errlen, "cat operands differ in dim %d (%lld and %lld), not the cat dim", dim,
                             (long long)*out, (long long)x);
      if (!is_dyn(x)) *out = x;
    }
    return true;
  }
  return fuser_message(s->err, s->errlen, "unknown extent rule");
}

/* The result shape by the extent rules, on static extents. */
static bool rule_shape(infer_state *s, int64_t *shape, int *rank) {
  fuser_extent e[FUSER_MAX_RANK];
  int n = fuser_extent_rules(s->desc, e);
  if (n < 0) return fuser_message(s->err, s->errlen, "has no extent rule for these operands and attributes");
  for (int d = 0; d < n; d++)
    if (!static_extent(s, &e[d], d, &shape[d])) return false;
  *rank = n;
  return true;
}

/* The op's result tensor type by the extent rules, of dtype dt. */
static bool rule_type(infer_state *s, fuser_dtype dt, MlirType *res) {
  int64_t shape[FUSER_MAX_RANK];
  int rank;
  if (!rule_shape(s, shape, &rank)) return false;
  *res = tensor_type(s, rank, shape, dt);
  return true;
}

/* One side of a requirement on static extents (`?` for a scalar operand,
 * and for an element count of `?` extents); false where an element count
 * overflows (extents are any int64 >= 0). */
static bool side_extent(infer_state *s, const fuser_extent_requirement *q, fuser_extent_ref r, int64_t *out) {
  if (r.dim == FUSER_EXTENT_COUNT) {
    int64_t result[FUSER_MAX_RANK];
    int rank;
    bool of_result = r.operand == FUSER_EXTENT_RESULT;
    if (of_result && !rule_shape(s, result, &rank)) return false;
    const int64_t *shape = of_result ? result : s->ops[r.operand].shape;
    if (!of_result) rank = s->ops[r.operand].rank;
    *out = 1;
    for (int d = 0; d < rank; d++) {
      if (is_dyn(shape[d])) return *out = dyn(), true;
      if (__builtin_mul_overflow(*out, shape[d], out))
        return fuser_message(s->err, s->errlen, "element count of the %s overflows int64", of_result ? "result" : "input");
    }
    return true;
  }
  *out = r.operand < 0 ? q->value : r.dim < 0 ? dyn() : operand_extent(s, r);
  return true;
}

/* The requirements the op makes of its operands' extents (extent.h),
 * where the extents are static. */
static bool check_requirements(infer_state *s) {
  fuser_extent_requirement q[FUSER_EXTENT_MAX_REQUIREMENTS];
  int n = fuser_extent_requirements(s->desc, q);
  for (int i = 0; i < n; i++) {
    int64_t a, b;
    if (!side_extent(s, &q[i], q[i].a, &a) || !side_extent(s, &q[i], q[i].b, &b)) return false;
    if (is_dyn(a) || is_dyn(b)) continue;
    switch (q[i].rel) {
    case FUSER_EXTENT_AT_MOST:
      if (a > b) return fuser_message(s->err, s->errlen, "%s (%lld > %lld)", q[i].what, (long long)a, (long long)b);
      break;
    case FUSER_EXTENT_BROADCASTS_TO:
      if (a != b && a != 1)
        return fuser_message(s->err, s->errlen, "%s: extent %lld cannot broadcast to extent %lld", q[i].what, (long long)a, (long long)b);
      break;
    case FUSER_EXTENT_SAME_COUNT:
      if (a != b)
        return fuser_message(s->err, s->errlen, "%s changes the element count from %lld to %lld", q[i].what, (long long)a, (long long)b);
      break;
    case FUSER_EXTENT_EQ:
    case FUSER_EXTENT_EQ_OR_ONE:
      if (a != b && !(q[i].rel == FUSER_EXTENT_EQ_OR_ONE && (a == 1 || b == 1)))
        return fuser_message(s->err, s->errlen, "%s extents %lld and %lld differ", q[i].what, (long long)a, (long long)b);
      break;
    }
  }
  return true;
}

/* Element-wise ops: every tensor operand has the same rank (the importer
 * makes nvFuser's implicit broadcasts explicit). */
static bool infer_elementwise(infer_state *s, MlirType *res, fuser_dtype dt) {
  int rank = -1;
  for (int i = 0; i < s->desc->num_operands; i++) {
    operand_info *o = &s->ops[i];
    if (!o->tensor) continue;
    if (rank >= 0 && o->rank != rank) return fuser_message(s->err, s->errlen, "operand ranks differ (%d and %d)", rank, o->rank);
    rank = o->rank;
  }
  if (rank < 0) {
    res[0] = fuser_dtype_to_type(s->ctx, dt);
    return true;
  }
  return rule_type(s, dt, res);
}

static fuser_dtype promoted(infer_state *s, fuser_rule rule) {
  fuser_dtype dts[8];
  int kinds[8];
  int n = s->desc->num_operands;
  for (int i = 0; i < n; i++) {
    dts[i] = s->ops[i].dtype;
    kinds[i] = !s->ops[i].tensor ? FUSER_OPERAND_SCALAR : s->ops[i].rank == 0 ? FUSER_OPERAND_ZERO_DIM : FUSER_OPERAND_TENSOR;
  }
  const char *why = NULL;
  fuser_dtype r = fuser_promote_kinds(rule, n, dts, kinds, &why);
  if (r == FUSER_DTYPE_INVALID) fuser_message(s->err, s->errlen, "%s", why ? why : "operand dtypes cannot be promoted");
  return r;
}

static bool infer_shaped(infer_state *s, MlirType *res) {
  const fuser_op_desc *d = s->desc;
  operand_info *in = &s->ops[0];
  if (!need_tensor(s, 0, "input") || !need_i64_scalars(s, 1, "shape")) return false;
  int rank = d->hint_rank;
  if (rank < 0 || rank > FUSER_MAX_RANK || !d->hint_shape) return fuser_message(s->err, s->errlen, "needs a result shape of rank <= %d", FUSER_MAX_RANK);
  const int64_t *out = d->hint_shape;
  int ndyn = 0;
  for (int i = 0; i < rank; i++) {
    if (is_dyn(out[i])) ndyn++;
    else if (out[i] < 0) return fuser_message(s->err, s->errlen, "result extent %lld of dim %d is negative", (long long)out[i], i);
  }
  if (ndyn != d->num_operands - 1)
    return fuser_message(s->err, s->errlen, "result has %d symbolic dims but %d shape operands", ndyn, d->num_operands - 1);

  if (d->id == FUSER_OP_reshape) {
    /* the element count: a requirement below */
  } else if (d->id == FUSER_OP_expand) {
    if (rank != in->rank) return fuser_message(s->err, s->errlen, "expand keeps the rank (%d), result has rank %d", in->rank, rank);
  } else { /* broadcast_in_dim */
    int64_t bd[FUSER_MAX_RANK + 1];
    int n;
    if (!need_array(s, "broadcast_dims", bd, FUSER_MAX_RANK, &n, false)) return false;
    if (n != in->rank) return fuser_message(s->err, s->errlen, "broadcast_dims has %d entries for an input of rank %d", n, in->rank);
    for (int i = 0; i < n; i++) {
      if (bd[i] < 0 || bd[i] >= rank) return fuser_message(s->err, s->errlen, "broadcast_dims[%d] = %lld is out of range [0, %d)", i, (long long)bd[i], rank);
      if (i > 0 && bd[i] <= bd[i - 1]) return fuser_message(s->err, s->errlen, "broadcast_dims must be strictly increasing");
    }
  }
  return check_requirements(s) && rule_type(s, in->dtype, res); /* expand, broadcast_in_dim: inputs broadcast */
}

static bool infer_meta(infer_state *s, MlirType *res) {
  const fuser_op_desc *d = s->desc;
  if (d->num_operands != 1) return fuser_message(s->err, s->errlen, "expects 1 operand");
  if (!need_tensor(s, 0, "input")) return false;
  operand_info *in = &s->ops[0];
  int rank = in->rank;
  int64_t a[FUSER_MAX_RANK + 1], b[FUSER_MAX_RANK + 1], c[FUSER_MAX_RANK + 1];
  int n, m, k;
  switch (d->id) {
  case FUSER_OP_broadcast: {
    if (!need_array(s, "is_broadcast_dim", a, FUSER_MAX_RANK, &n, true)) return false;
    int kept = 0;
    for (int i = 0; i < n; i++) kept += !a[i];
    if (kept != in->rank) return fuser_message(s->err, s->errlen, "is_broadcast_dim keeps %d dims of an input of rank %d", kept, in->rank);
    break;
  }
  case FUSER_OP_permute: {
    if (!need_array(s, "dims", a, FUSER_MAX_RANK, &n, false)) return false;
    bool seen[FUSER_MAX_RANK] = {0};
    if (n != rank) return fuser_message(s->err, s->errlen, "dims has %d entries for an input of rank %d", n, rank);
    for (int i = 0; i < n; i++) {
      if (a[i] < 0 || a[i] >= rank || seen[a[i]]) return fuser_message(s->err, s->errlen, "dims is not a permutation of [0, %d)", rank);
      seen[a[i]] = true;
    }
    break;
  }
  case FUSER_OP_slice: {
    if (!need_array(s, "start_indices", a, FUSER_MAX_RANK, &n, false) ||
        !need_array(s, "end_indices", b, FUSER_MAX_RANK, &m, false) ||
        !need_array(s, "strides", c, FUSER_MAX_RANK, &k, false))
      return false;
    if (n != rank || m != rank || k != rank)
      return fuser_message(s->err, s->errlen, "start_indices, end_indices and strides need %d entries each", rank);
    for (int i = 0; i < rank; i++) {
      if (c[i] != 1) return fuser_message(s->err, s->errlen, "slice stride %lld in dim %d is not supported (only 1)", (long long)c[i], i);
      if (a[i] < 0 || b[i] < a[i])
        return fuser_message(s->err, s->errlen, "slice [%lld, %lld) is out of bounds for dim %d", (long long)a[i], (long long)b[i], i);
    }
    if (!check_requirements(s)) return false; /* the end inside the input */
    break;
  }
  case FUSER_OP_squeeze: {
    if (!need_array(s, "dims", a, FUSER_MAX_RANK, &n, false)) return false;
    bool drop[FUSER_MAX_RANK] = {0};
    for (int i = 0; i < n; i++) {
      if (a[i] < 0 || a[i] >= rank || drop[a[i]]) return fuser_message(s->err, s->errlen, "squeeze dims must be distinct dims in [0, %d)", rank);
      if (in->shape[a[i]] != 1) return fuser_message(s->err, s->errlen, "squeeze of dim %lld whose extent is not 1", (long long)a[i]);
      drop[a[i]] = true;
    }
    break;
  }
  default: /* set, segment_set */
    break;
  }
  return rule_type(s, in->dtype, res);
}

static bool infer_pad(infer_state *s, MlirType *res) {
  if (s->desc->num_operands != 2) return fuser_message(s->err, s->errlen, "expects 2 operands");
  if (!need_tensor(s, 0, "input")) return false;
  if (s->ops[1].tensor) return fuser_message(s->err, s->errlen, "pad value must be a scalar");
  operand_info *in = &s->ops[0];
  int64_t w[2 * FUSER_MAX_RANK + 1], sum;
  int n;
  if (!need_array(s, "pad_widths", w, 2 * FUSER_MAX_RANK, &n, false)) return false;
  if (n % 2 || n > 2 * in->rank)
    return fuser_message(s->err, s->errlen, "pad_widths needs an even number of entries, at most %d", 2 * in->rank);
  for (int p = 0; p < n / 2; p++) /* the rule adds each pair: it must fit */
    if (__builtin_add_overflow(w[2 * p], w[2 * p + 1], &sum))
      return fuser_message(s->err, s->errlen, "pad widths overflow the extent of dim %d", in->rank - 1 - p);
  return rule_type(s, in->dtype, res);
}

static bool infer_cat(infer_state *s, MlirType *res) {
  if (s->desc->num_operands != 2) return fuser_message(s->err, s->errlen, "expects 2 operands");
  if (!need_tensor(s, 0, "lhs") || !need_tensor(s, 1, "rhs")) return false;
  operand_info *a = &s->ops[0], *b = &s->ops[1];
  int64_t dim;
  if (!need_int(s, "dim", &dim)) return false;
  if (a->rank != b->rank) return fuser_message(s->err, s->errlen, "cat operands have ranks %d and %d", a->rank, b->rank);
  if (dim < 0 || dim >= a->rank) return fuser_message(s->err, s->errlen, "cat dim %lld is out of range [0, %d)", (long long)dim, a->rank);
  if (a->dtype != b->dtype)
    return fuser_message(s->err, s->errlen, "cat operands have dtypes %s and %s", fuser_dtype_mlir_name(a->dtype), fuser_dtype_mlir_name(b->dtype));
  return rule_type(s, a->dtype, res);
}

/* Checks a reduction's dims; its shape is the extent rule's. */
static bool reduced_shape(infer_state *s, int64_t *shape, int *rank) {
  operand_info *in = &s->ops[0];
  int64_t dims[FUSER_MAX_RANK + 1], keep;
  int n;
  if (!need_array(s, "dims", dims, FUSER_MAX_RANK, &n, false) || !need_int(s, "keepdim", &keep)) return false;
  bool red[FUSER_MAX_RANK] = {0};
  for (int i = 0; i < n; i++) {
    if (dims[i] < 0 || dims[i] >= in->rank || red[dims[i]])
      return fuser_message(s->err, s->errlen, "reduction dims must be distinct dims in [0, %d)", in->rank);
    red[dims[i]] = true;
  }
  return rule_shape(s, shape, rank);
}

static bool infer_reduction(infer_state *s, MlirType *res) {
  if (s->desc->num_operands != 1) return fuser_message(s->err, s->errlen, "expects 1 operand");
  if (!need_tensor(s, 0, "input")) return false;
  int64_t shape[FUSER_MAX_RANK];
  int rank = 0;
  if (!reduced_shape(s, shape, &rank)) return false;
  if (s->desc->id == FUSER_OP_var_mean) {
    int64_t corr;
    if (!need_int(s, "correction", &corr)) return false;
    if (corr < 0) return fuser_message(s->err, s->errlen, "correction must be >= 0");
    fuser_dtype dt = promoted(s, FUSER_RULE_FLOAT);
    if (dt == FUSER_DTYPE_INVALID) return false;
    res[0] = res[1] = tensor_type(s, rank, shape, dt);
    return true;
  }
  if (s->desc->hint_dtype == FUSER_DTYPE_INVALID) return fuser_message(s->err, s->errlen, "needs a result dtype");
  res[0] = tensor_type(s, rank, shape, s->desc->hint_dtype);
  return true;
}

static bool infer_factory(infer_state *s, MlirType *res) {
  const fuser_op_desc *d = s->desc;
  if (d->hint_dtype == FUSER_DTYPE_INVALID) return fuser_message(s->err, s->errlen, "needs a result dtype");
  if (d->num_operands < 1 || s->ops[0].tensor) return fuser_message(s->err, s->errlen, "first operand must be a scalar");
  if (d->id == FUSER_OP_iota) {
    if (d->num_operands != 3 || s->ops[0].dtype != FUSER_DTYPE_I64 || s->ops[1].tensor || s->ops[2].tensor)
      return fuser_message(s->err, s->errlen, "iota takes (length: i64, start, step) scalars");
    if (d->hint_rank != 1) return fuser_message(s->err, s->errlen, "iota produces a 1-D tensor");
    return rule_type(s, d->hint_dtype, res);
  }
  if (!need_i64_scalars(s, 1, "shape")) return false;
  int ndyn = 0;
  for (int i = 0; i < d->hint_rank; i++) ndyn += is_dyn(d->hint_shape[i]);
  if (ndyn != d->num_operands - 1)
    return fuser_message(s->err, s->errlen, "result has %d symbolic dims but %d shape operands", ndyn, d->num_operands - 1);
  return rule_type(s, d->hint_dtype, res);
}

/* uniform/normal(a, b, rng_seed, rng_offset, shape...): a and b scalars,
 * seed and offset i64 scalars, one i64 operand per `?` result dim; the
 * result is floating point (nvFuser's RNGOp). */
static bool infer_rng(infer_state *s, MlirType *res) {
  const fuser_op_desc *d = s->desc;
  if (d->hint_dtype == FUSER_DTYPE_INVALID) return fuser_message(s->err, s->errlen, "needs a result dtype");
  if (!fuser_dtype_is_float(d->hint_dtype)) return fuser_message(s->err, s->errlen, "random numbers are floating point");
  if (d->num_operands < 4 || s->ops[0].tensor || s->ops[1].tensor) return fuser_message(s->err, s->errlen, "takes two scalars, rng_seed, rng_offset and the shape");
  if (!need_i64_scalars(s, 2, "rng_seed, rng_offset and shape")) return false;
  int ndyn = 0;
  for (int i = 0; i < d->hint_rank; i++) ndyn += is_dyn(d->hint_shape[i]);
  if (ndyn != d->num_operands - 4)
    return fuser_message(s->err, s->errlen, "result has %d symbolic dims but %d shape operands", ndyn, d->num_operands - 4);
  return rule_type(s, d->hint_dtype, res);
}

/* view: the result type gives sizes; static_offset/static_strides give the
 * layout; each kDynamic offset, `?` size and kDynamic stride takes one i64
 * operand, in that order. */
static bool infer_view(infer_state *s, MlirType *res) {
  const fuser_op_desc *d = s->desc;
  if (d->num_operands < 1 || !need_tensor(s, 0, "input") || !need_i64_scalars(s, 1, "dynamic")) return false;
  int64_t offset, strides[FUSER_MAX_RANK + 1];
  int n;
  if (!need_int(s, "static_offset", &offset) || !need_array(s, "static_strides", strides, FUSER_MAX_RANK, &n, false))
    return false;
  if (d->hint_rank < 0 || !d->hint_shape) return fuser_message(s->err, s->errlen, "needs a result shape");
  if (n != d->hint_rank) return fuser_message(s->err, s->errlen, "static_strides has %d entries for a result of rank %d", n, d->hint_rank);
  int ndyn = is_dyn(offset);
  if (!is_dyn(offset) && offset < 0) return fuser_message(s->err, s->errlen, "static_offset %lld is negative", (long long)offset);
  for (int i = 0; i < n; i++) {
    ndyn += is_dyn(d->hint_shape[i]) + is_dyn(strides[i]);
    if (!is_dyn(strides[i]) && strides[i] < 0) return fuser_message(s->err, s->errlen, "stride %lld of dim %d is negative", (long long)strides[i], i);
  }
  if (ndyn != d->num_operands - 1)
    return fuser_message(s->err, s->errlen, "view has %d dynamic offset/size/stride entries but %d operands", ndyn, d->num_operands - 1);
  return rule_type(s, s->ops[0].dtype, res);
}

static bool infer_query(infer_state *s, MlirType *res) {
  if (s->desc->num_operands != 1 || !need_tensor(s, 0, "input")) return false;
  int64_t dim;
  if (!need_int(s, "dim", &dim)) return false;
  if (dim < 0 || dim >= s->ops[0].rank) return fuser_message(s->err, s->errlen, "dim %lld is out of range [0, %d)", (long long)dim, s->ops[0].rank);
  res[0] = fuser_dtype_to_type(s->ctx, FUSER_DTYPE_I64);
  return true;
}

/* fuser.check: an i1 scalar condition and the message the call is refused
 * with; no results. */
static bool infer_check(infer_state *s) {
  if (s->desc->num_operands != 1 || s->ops[0].tensor || s->ops[0].dtype != FUSER_DTYPE_I1)
    return fuser_message(s->err, s->errlen, "the condition must be one i1 scalar");
  MlirAttribute m = find_attr(s->desc, "message");
  if (mlirAttributeIsNull(m) || !mlirAttributeIsAString(m) || mlirStringAttrGetValue(m).length == 0)
    return fuser_message(s->err, s->errlen, "requires a non-empty string attribute 'message'");
  return true;
}

static bool infer_scalar(infer_state *s, MlirType *res) {
  MlirAttribute v = find_attr(s->desc, "value");
  if (mlirAttributeIsNull(v)) return fuser_message(s->err, s->errlen, "requires attribute 'value'");
  if (!mlirAttributeIsAInteger(v) && !mlirAttributeIsAFloat(v) && !mlirAttributeIsABool(v))
    return fuser_message(s->err, s->errlen, "attribute 'value' must be an integer, float or bool");
  MlirType t = mlirAttributeGetType(v);
  if (fuser_dtype_of_type(t) == FUSER_DTYPE_INVALID) return fuser_message(s->err, s->errlen, "attribute 'value' has an unsupported type");
  res[0] = t;
  return true;
}

/* matmul(a, b): torch.matmul. A 1-D a is a row [1, K] whose M dim is
 * dropped, a 1-D b a column [K, 1] whose N dim is dropped; the dims before
 * the last two are batch dims, broadcast NumPy-style (right-aligned).
 * linear(input, weight, bias): input [..., K] @ weight.T (weight [N, K], or
 * [K] dropping N) + bias (0-dim, or [N] with a 2-D weight). Every operand
 * has one dtype, bf16, f16 or f32, which the result keeps (cuBLAS
 * accumulates in f32 and rounds once). The dims and the K and bias
 * requirements are the extent rules'. */
static bool infer_matmul(infer_state *s, MlirType *res) {
  bool linear = s->desc->id == FUSER_OP_linear;
  int n = s->desc->num_operands;
  if (n < 2 || n > (linear ? 3 : 2)) return fuser_message(s->err, s->errlen, "expects %d operands", linear && n > 2 ? 3 : 2);
  fuser_dtype dt = s->ops[0].dtype;
  for (int i = 0; i < n; i++) {
    if (!need_tensor(s, i, i == 0 ? "first operand" : i == 1 ? "second operand" : "bias")) return false;
    if (s->ops[i].dtype != dt) return fuser_message(s->err, s->errlen, "operands must have one dtype (operand #%d differs)", i);
  }
  if (dt != FUSER_DTYPE_BF16 && dt != FUSER_DTYPE_F16 && dt != FUSER_DTYPE_F32)
    return fuser_message(s->err, s->errlen, "supports bf16, f16 and f32 operands, not %s", fuser_dtype_mlir_name(dt));
  const operand_info *a = &s->ops[0], *b = &s->ops[1];
  if (a->rank < 1 || b->rank < 1) return fuser_message(s->err, s->errlen, "operands must have at least one dim");
  if (linear) {
    if (b->rank > 2) return fuser_message(s->err, s->errlen, "weight must be 1-D or 2-D");
    const operand_info *bias = &s->ops[2];
    if (n == 3 && (bias->rank > 1 || (bias->rank == 1 && b->rank != 2)))
      return fuser_message(s->err, s->errlen, "bias must be 0-dim, or 1-D [N] with a 2-D weight");
  }
  /* rank <= FUSER_MAX_RANK: at most max(ranks) - 2 batch dims, M and N */
  return check_requirements(s) && rule_type(s, dt, res);
}

/* index_select / gather / take_along_axis (arg, index), attribute dim in
 * [0, rank): an integer index tensor (i32 or i64); extents by
 * fuser_index_dims_of, with nvFuser's checks on the static ones. */
static bool infer_index(infer_state *s, MlirType *res) {
  fuser_op_id id = s->desc->id;
  if (s->desc->num_operands != 2) return fuser_message(s->err, s->errlen, "expects 2 operands");
  if (!need_tensor(s, 0, "arg") || !need_tensor(s, 1, "index")) return false;
  operand_info *a = &s->ops[0], *x = &s->ops[1];
  int64_t dim;
  if (!need_int(s, "dim", &dim)) return false;
  if (a->rank == 0) return fuser_message(s->err, s->errlen, "arg must not be a 0-dim tensor");
  if (dim < 0 || dim >= a->rank) return fuser_message(s->err, s->errlen, "dim %lld is out of range [0, %d)", (long long)dim, a->rank);
  if (x->dtype != FUSER_DTYPE_I64 && x->dtype != FUSER_DTYPE_I32)
    return fuser_message(s->err, s->errlen, "index must be an integer tensor (i64 or i32), not %s", fuser_dtype_mlir_name(x->dtype));
  if (id == FUSER_OP_index_select ? x->rank != 1 : x->rank != a->rank)
    return fuser_message(s->err, s->errlen, id == FUSER_OP_index_select ? "index must be 1-D (it has rank %d)" : "index has rank %d but arg has rank %d",
                x->rank, a->rank);
  return check_requirements(s) && rule_type(s, a->dtype, res);
}

bool fuser_infer_result_types(MlirContext ctx, const fuser_op_desc *desc, MlirType *results, char *err,
                              size_t errlen) {
  infer_state s = {.ctx = ctx, .desc = desc, .err = err, .errlen = errlen};
  if (desc->num_operands > 8) return fuser_message(s.err, s.errlen, "too many operands");
  for (int i = 0; i < desc->num_operands; i++) {
    MlirType t = mlirValueGetType(desc->operands[i]);
    operand_info *o = &s.ops[i];
    o->tensor = mlirTypeIsARankedTensor(t);
    o->dtype = fuser_dtype_of_type(o->tensor ? mlirShapedTypeGetElementType(t) : t);
    if (o->dtype == FUSER_DTYPE_INVALID) return fuser_message(s.err, s.errlen, "operand #%d has an unsupported type", i);
    if (o->tensor) {
      o->rank = (int)mlirShapedTypeGetRank(t);
      if (o->rank > FUSER_MAX_RANK) return fuser_message(s.err, s.errlen, "operand #%d has rank > %d", i, FUSER_MAX_RANK);
      for (int d = 0; d < o->rank; d++) o->shape[d] = mlirShapedTypeGetDimSize(t, d);
    }
  }
  fuser_op_kind kind = fuser_op_kind_of(desc->id);
  switch (kind) {
  case FUSER_KIND_NONE:
  case FUSER_KIND_LAUNCH: break; /* "unknown op kind" below: a launch is the plan verifier's (verify_plan.c) */
  case FUSER_KIND_SCALAR: return infer_scalar(&s, results);
  case FUSER_KIND_UNARY:
  case FUSER_KIND_BINARY:
  case FUSER_KIND_TERNARY: {
    int want = kind == FUSER_KIND_UNARY ? 1 : kind == FUSER_KIND_BINARY ? 2 : 3;
    if (desc->num_operands != want) return fuser_message(s.err, s.errlen, "expects %d operands", want);
    int64_t diagonal;
    if (fuser_is_triangle_op(desc->id)) {
      const char *name = fuser_op_mnemonic(desc->id);
      if (!need_int(&s, "diagonal", &diagonal) || !need_tensor(&s, 0, desc->id == FUSER_OP_triu ? "triu input" : "tril input"))
        return false;
      if (s.ops[0].rank < 2) return fuser_message(s.err, s.errlen, "%s needs a tensor of rank >= 2 (rank %d)", name, s.ops[0].rank);
    }
    if (desc->id == FUSER_OP_where && s.ops[0].dtype != FUSER_DTYPE_I1)
      return fuser_message(s.err, s.errlen, "where condition must be i1 (bool)");
    fuser_dtype dt;
    if (desc->id == FUSER_OP_cast) {
      dt = desc->hint_dtype;
      if (dt == FUSER_DTYPE_INVALID) return fuser_message(s.err, s.errlen, "cast needs a result dtype");
    } else {
      dt = promoted(&s, fuser_op_rule_of(desc->id));
      if (dt == FUSER_DTYPE_INVALID) return false;
    }
    return infer_elementwise(&s, results, dt);
  }
  case FUSER_KIND_SHAPED: return infer_shaped(&s, results);
  case FUSER_KIND_META: return infer_meta(&s, results);
  case FUSER_KIND_PAD: return infer_pad(&s, results);
  case FUSER_KIND_CAT: return infer_cat(&s, results);
  case FUSER_KIND_REDUCTION:
  case FUSER_KIND_VAR_MEAN: return infer_reduction(&s, results);
  case FUSER_KIND_FULL:
  case FUSER_KIND_IOTA: return infer_factory(&s, results);
  case FUSER_KIND_RNG: return infer_rng(&s, results);
  case FUSER_KIND_VIEW: return infer_view(&s, results);
  case FUSER_KIND_QUERY: return infer_query(&s, results);
  case FUSER_KIND_CHECK: return infer_check(&s);
  case FUSER_KIND_HOST:    /* ceildiv (i64, i64) -> i64 */
  case FUSER_KIND_ADDRESS: /* address (tensor), bits (scalar), index_flag () -> i64: IRDL states the operands */
    if (desc->id == FUSER_OP_bits && s.ops[0].tensor)
      return fuser_message(s.err, s.errlen, "bits is a scalar's parameter word: the operand must be a scalar (a tensor's is its address)");
    results[0] = fuser_dtype_to_type(s.ctx, FUSER_DTYPE_I64);
    return true;
  case FUSER_KIND_MATMUL: return infer_matmul(&s, results);
  case FUSER_KIND_INDEX: return infer_index(&s, results);
  }
  return fuser_message(s.err, s.errlen, "unknown op kind");
}
