/* extent.c: the extent rules of the fuser ops (extent.h). */
#include "dialects/extent.h"

#include <stdio.h>
#include <string.h>

#include "support/error.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

MlirAttribute fuser_desc_attr(const fuser_op_desc *d, const char *name) {
  size_t len = strlen(name);
  for (int i = 0; i < d->num_attrs; i++) {
    MlirStringRef n = mlirIdentifierStr(d->attrs[i].name);
    if (n.length == len && memcmp(n.data, name, len) == 0) return d->attrs[i].attribute;
  }
  return mlirAttributeGetNull();
}

static int desc_array(const fuser_op_desc *d, const char *name, int64_t *out, int cap) {
  int n = fuser_attr_i64_array(fuser_desc_attr(d, name), out, cap);
  return n > cap ? -1 : n;
}

static bool desc_int(const fuser_op_desc *d, const char *name, int64_t *out) {
  return fuser_attr_i64(fuser_desc_attr(d, name), out);
}

static bool is_tensor(const fuser_op_desc *d, int i) { return mlirTypeIsARankedTensor(mlirValueGetType(d->operands[i])); }

static int rank_of(const fuser_op_desc *d, int i) {
  return is_tensor(d, i) ? (int)mlirShapedTypeGetRank(mlirValueGetType(d->operands[i])) : -1;
}

int64_t fuser_extent_operand_static(const fuser_op_desc *d, fuser_extent_ref r) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(d->operands[r.operand]), r.dim);
}

static fuser_extent fixed(int64_t v) { return (fuser_extent){.kind = FUSER_EXTENT_STATIC, .value = v}; }

static fuser_extent dim_of(int operand, int dim, int64_t add) {
  return (fuser_extent){.kind = FUSER_EXTENT_DIM, .value = add, .nrefs = 1, .ref = {{operand, dim}}};
}

static fuser_extent scalar(int operand) {
  return (fuser_extent){.kind = FUSER_EXTENT_SCALAR, .nrefs = 1, .ref = {{operand, 0}}};
}

/* Ops whose result shape is requested (its type): a static dim is itself,
 * the k-th `?` dim the scalar operand first + k. */
static int requested(const fuser_op_desc *d, int first, fuser_extent *out) {
  if (d->hint_rank < 0 || d->hint_rank > FUSER_MAX_RANK || !d->hint_shape) return -1;
  for (int i = 0; i < d->hint_rank; i++)
    out[i] = d->hint_shape[i] == mlirShapedTypeGetDynamicSize() ? scalar(first++) : fixed(d->hint_shape[i]);
  return first <= d->num_operands ? d->hint_rank : -1;
}

/* Element-wise: every tensor operand has the result's rank (the importer
 * makes nvFuser's implicit broadcasts explicit); dim d broadcasts over them. */
static int elementwise(const fuser_op_desc *d, const int *ranks, fuser_extent *out) {
  int rank = -1;
  for (int i = 0; i < d->num_operands && rank < 0; i++) rank = ranks[i];
  for (int j = 0; j < rank; j++) {
    out[j].kind = FUSER_EXTENT_BROADCAST;
    out[j].value = 0;
    out[j].nrefs = 0;
    for (int i = 0; i < d->num_operands; i++)
      if (ranks[i] == rank) out[j].ref[out[j].nrefs++] = (fuser_extent_ref){i, j};
  }
  return rank;
}

static bool listed(const int64_t *list, int n, int value, int rank) {
  for (int q = 0; q < n; q++)
    if ((list[q] < 0 ? list[q] + rank : list[q]) == value) return true;
  return false;
}

/* broadcast, permute, slice, squeeze, set, segment_set. */
static int meta(const fuser_op_desc *d, fuser_extent *out) {
  int rank = rank_of(d, 0), n;
  int64_t a[FUSER_MAX_RANK], b[FUSER_MAX_RANK];
  if (rank < 0) return -1;
  switch (d->id) {
  case FUSER_OP_broadcast: { /* kept input dims in order, the others 1 */
    if ((n = desc_array(d, "is_broadcast_dim", a, FUSER_MAX_RANK)) < 0) return -1;
    for (int j = 0, i = 0; j < n; j++) out[j] = a[j] ? fixed(1) : dim_of(0, i++, 0);
    return n;
  }
  case FUSER_OP_permute: /* result dim j is input dim dims[j] */
    if (desc_array(d, "dims", a, FUSER_MAX_RANK) != rank) return -1;
    for (int j = 0; j < rank; j++) out[j] = dim_of(0, (int)a[j], 0);
    return rank;
  case FUSER_OP_slice: /* [start, end) with stride 1: static whatever the input */
    if (desc_array(d, "start_indices", a, FUSER_MAX_RANK) != rank || desc_array(d, "end_indices", b, FUSER_MAX_RANK) != rank)
      return -1;
    for (int j = 0; j < rank; j++) out[j] = fixed(b[j] - a[j]);
    return rank;
  case FUSER_OP_squeeze: { /* the kept input dims in order */
    if ((n = desc_array(d, "dims", a, FUSER_MAX_RANK)) < 0) return -1;
    int j = 0;
    for (int i = 0; i < rank; i++)
      if (!listed(a, n, i, rank)) out[j++] = dim_of(0, i, 0);
    return j;
  }
  default: /* set, segment_set */
    for (int j = 0; j < rank; j++) out[j] = dim_of(0, j, 0);
    return rank;
  }
}

/* pad_widths: (left, right) pairs starting from the last dim. */
static int pad(const fuser_op_desc *d, fuser_extent *out) {
  int rank = rank_of(d, 0);
  int64_t w[2 * FUSER_MAX_RANK];
  int n = desc_array(d, "pad_widths", w, 2 * FUSER_MAX_RANK);
  if (rank < 0 || n < 0 || n % 2 || n > 2 * rank) return -1;
  for (int j = 0; j < rank; j++) {
    int p = rank - 1 - j;
    int64_t add = 0;
    if (2 * p + 1 < n && __builtin_add_overflow(w[2 * p], w[2 * p + 1], &add)) return -1;
    out[j] = dim_of(0, j, add);
  }
  return rank;
}

static int cat(const fuser_op_desc *d, fuser_extent *out) {
  int rank = rank_of(d, 0);
  int64_t dim;
  if (rank < 0 || rank_of(d, 1) != rank || !desc_int(d, "dim", &dim) || dim < 0 || dim >= rank) return -1;
  for (int j = 0; j < rank; j++)
    out[j] = (fuser_extent){.kind = j == dim ? FUSER_EXTENT_SUM : FUSER_EXTENT_EQUAL, .nrefs = 2, .ref = {{0, j}, {1, j}}};
  return rank;
}

/* The kept dims in order; a reduced dim is 1 with keepdim, else dropped. */
static int reduction(const fuser_op_desc *d, fuser_extent *out) {
  int rank = rank_of(d, 0), n;
  int64_t dims[FUSER_MAX_RANK], keep = 0;
  if (rank < 0 || (n = desc_array(d, "dims", dims, FUSER_MAX_RANK)) < 0 || !desc_int(d, "keepdim", &keep)) return -1;
  int j = 0;
  for (int i = 0; i < rank; i++) {
    if (!listed(dims, n, i, rank)) out[j++] = dim_of(0, i, 0);
    else if (keep) out[j++] = fixed(1);
  }
  return j;
}

/* fuser_matmul_dims_of: each result dim from its operand dim, a batch dim
 * from both (broadcast). */
static int matmul(const fuser_op_desc *d, fuser_extent *out) {
  fuser_matmul_dims m;
  if (d->num_operands < 2 || !fuser_matmul_dims_of(d->id, rank_of(d, 0), rank_of(d, 1), &m)) return -1;
  for (int j = 0; j < m.rank; j++) {
    if (m.a_dim[j] >= 0 && m.b_dim[j] >= 0)
      out[j] = (fuser_extent){.kind = FUSER_EXTENT_BROADCAST, .nrefs = 2, .ref = {{0, m.a_dim[j]}, {1, m.b_dim[j]}}};
    else out[j] = m.a_dim[j] >= 0 ? dim_of(0, m.a_dim[j], 0) : dim_of(1, m.b_dim[j], 0);
  }
  return m.rank;
}

/* fuser_index_dims_of, on the operands' static extents. */
static int index_op(const fuser_op_desc *d, fuser_extent *out) {
  int rank = rank_of(d, 0), xrank = rank_of(d, 1);
  int64_t dim, as[FUSER_MAX_RANK], xs[FUSER_MAX_RANK];
  if (rank < 1 || xrank < 1 || !desc_int(d, "dim", &dim) || dim < 0 || dim >= rank) return -1;
  for (int i = 0; i < rank; i++) as[i] = fuser_extent_operand_static(d, (fuser_extent_ref){0, i});
  for (int i = 0; i < xrank; i++) xs[i] = fuser_extent_operand_static(d, (fuser_extent_ref){1, i});
  for (int j = 0; j < rank; j++) {
    int src, sd;
    fuser_index_dims_of(d->id, (int)dim, as, xs, j, &src, &sd);
    if (sd >= (src ? xrank : rank)) return -1;
    out[j] = dim_of(src, sd, 0);
  }
  return rank;
}

/* view: the result type gives the sizes; a kDynamic offset takes the first
 * dynamic operand, then each `?` size one. */
static int view(const fuser_op_desc *d, fuser_extent *out) {
  int64_t offset;
  if (!desc_int(d, "static_offset", &offset)) return -1;
  return requested(d, offset == mlirShapedTypeGetDynamicSize() ? 2 : 1, out);
}

int fuser_extent_rules(const fuser_op_desc *d, fuser_extent *out) {
  int ranks[8];
  if (d->num_operands > 8) return -1;
  for (int i = 0; i < d->num_operands; i++)
    if ((ranks[i] = rank_of(d, i)) > FUSER_MAX_RANK) return -1;
  switch (fuser_op_kind_of(d->id)) {
  case FUSER_KIND_UNARY:
  case FUSER_KIND_BINARY:
  case FUSER_KIND_TERNARY: return elementwise(d, ranks, out);
  case FUSER_KIND_SHAPED:
  case FUSER_KIND_FULL: return requested(d, 1, out);
  case FUSER_KIND_RNG: return requested(d, 4, out);
  case FUSER_KIND_IOTA:
    if (d->hint_rank != 1 || !d->hint_shape || d->num_operands < 1) return -1;
    out[0] = d->hint_shape[0] == mlirShapedTypeGetDynamicSize() ? scalar(0) : fixed(d->hint_shape[0]);
    return 1;
  case FUSER_KIND_META: return meta(d, out);
  case FUSER_KIND_PAD: return pad(d, out);
  case FUSER_KIND_CAT: return cat(d, out);
  case FUSER_KIND_REDUCTION:
  case FUSER_KIND_VAR_MEAN: return reduction(d, out);
  case FUSER_KIND_MATMUL: return matmul(d, out);
  case FUSER_KIND_INDEX: return index_op(d, out);
  case FUSER_KIND_VIEW: return view(d, out);
  case FUSER_KIND_SCALAR:
  case FUSER_KIND_QUERY:
  case FUSER_KIND_CHECK:
  case FUSER_KIND_HOST:
  case FUSER_KIND_ADDRESS:
  case FUSER_KIND_LAUNCH:
  case FUSER_KIND_NONE: break;
  }
  return -1;
}

static fuser_extent_requirement relation(fuser_extent_relation rel, int a, int ad, int b, int bd, int64_t value) {
  return (fuser_extent_requirement){.rel = rel, .a = {a, ad}, .b = {b, bd}, .value = value};
}

int fuser_extent_requirements(const fuser_op_desc *d, fuser_extent_requirement *out) {
  int n = 0, rank = d->num_operands ? rank_of(d, 0) : -1;
  int64_t dim, a[FUSER_MAX_RANK];
  if (fuser_op_kind_of(d->id) == FUSER_KIND_MATMUL && d->num_operands >= 2) {
    fuser_matmul_dims m;
    if (!fuser_matmul_dims_of(d->id, rank, rank_of(d, 1), &m)) return 0;
    out[n] = relation(FUSER_EXTENT_EQ, 0, m.a_k, 1, m.b_k, 0);
    snprintf(out[n++].what, sizeof out->what, "contraction (K)");
    if (d->id == FUSER_OP_linear && d->num_operands == 3 && rank_of(d, 2) == 1 && m.b_n >= 0) {
      out[n] = relation(FUSER_EXTENT_EQ, 2, 0, 1, m.b_n, 0);
      snprintf(out[n++].what, sizeof out->what, "bias and weight N");
    }
  } else if (d->id == FUSER_OP_reshape && rank >= 0) {
    out[n] = relation(FUSER_EXTENT_SAME_COUNT, 0, FUSER_EXTENT_COUNT, FUSER_EXTENT_RESULT, FUSER_EXTENT_COUNT, 0);
    snprintf(out[n++].what, sizeof out->what, "reshape");
  } else if ((d->id == FUSER_OP_expand || d->id == FUSER_OP_broadcast_in_dim) && rank >= 0) {
    /* input dim i becomes result dim i (expand) or broadcast_dims[i]: it is
     * 1 or the requested extent, a static one or a shape operand */
    fuser_extent e[FUSER_MAX_RANK];
    int out_rank = requested(d, 1, e);
    if (d->id == FUSER_OP_broadcast_in_dim ? desc_array(d, "broadcast_dims", a, FUSER_MAX_RANK) != rank : out_rank != rank)
      return 0;
    for (int i = 0; i < rank; i++) {
      int j = d->id == FUSER_OP_expand ? i : (int)a[i];
      if (j < 0 || j >= out_rank) return 0;
      out[n] = e[j].kind == FUSER_EXTENT_STATIC ? relation(FUSER_EXTENT_BROADCASTS_TO, 0, i, -1, 0, e[j].value)
                                                : relation(FUSER_EXTENT_BROADCASTS_TO, 0, i, e[j].ref[0].operand, -1, 0);
      snprintf(out[n++].what, sizeof out->what, d->id == FUSER_OP_expand ? "expand of dim %d" : "input dim %d", i);
    }
  } else if (d->id == FUSER_OP_slice && rank >= 0 && desc_array(d, "end_indices", a, FUSER_MAX_RANK) == rank) {
    for (int j = 0; j < rank; j++) { /* the end inside the input: so is the start, by the verifier */
      out[n] = relation(FUSER_EXTENT_AT_MOST, -1, 0, 0, j, a[j]);
      snprintf(out[n++].what, sizeof out->what, "slice end exceeds the extent of dim %d", j);
    }
  } else if ((d->id == FUSER_OP_gather || d->id == FUSER_OP_take_along_axis) && d->num_operands == 2 &&
             rank_of(d, 1) == rank && desc_int(d, "dim", &dim)) {
    /* off `dim`: gather's index is no longer than arg; take_along_axis's
     * arg and index agree unless one of them broadcasts */
    bool gather = d->id == FUSER_OP_gather;
    for (int j = 0; j < rank; j++) {
      if (j == dim) continue;
      out[n] = gather ? relation(FUSER_EXTENT_AT_MOST, 1, j, 0, j, 0) : relation(FUSER_EXTENT_EQ_OR_ONE, 0, j, 1, j, 0);
      snprintf(out[n++].what, sizeof out->what, gather ? "index extent exceeds arg extent in dim %d" : "arg and index dim %d", j);
    }
  }
  return n;
}

bool fuser_op_desc_of(MlirOperation op, fuser_op_desc_storage *s, char *err, size_t errlen) {
  int nops = (int)mlirOperationGetNumOperands(op), nattrs = (int)mlirOperationGetNumDiscardableAttributes(op);
  if (nops > 8) return fuser_message(err, errlen, "has too many operands (%d)", nops);
  if (nattrs > 32) return fuser_message(err, errlen, "has too many attributes (%d)", nattrs);
  for (int i = 0; i < nops; i++) s->operands[i] = mlirOperationGetOperand(op, i);
  for (int i = 0; i < nattrs; i++) s->attrs[i] = mlirOperationGetDiscardableAttribute(op, i);
  s->desc = (fuser_op_desc){.id = fuser_op_id_of(op), .num_operands = nops, .operands = s->operands, .num_attrs = nattrs,
                            .attrs = s->attrs, .hint_rank = -1, .hint_shape = s->hint_shape,
                            .hint_dtype = FUSER_DTYPE_INVALID};
  if (mlirOperationGetNumResults(op) < 1) return true;
  MlirType r0 = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(r0)) {
    s->desc.hint_dtype = fuser_dtype_of_type(r0);
    return true;
  }
  int rank = (int)mlirShapedTypeGetRank(r0);
  if (rank > FUSER_MAX_RANK) return fuser_message(err, errlen, "result rank %d exceeds %d", rank, FUSER_MAX_RANK);
  s->desc.hint_rank = rank;
  for (int i = 0; i < rank; i++) s->hint_shape[i] = mlirShapedTypeGetDimSize(r0, i);
  s->desc.hint_dtype = fuser_dtype_of_type(mlirShapedTypeGetElementType(r0));
  return true;
}
