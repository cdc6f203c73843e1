/* Meta ops as views: broadcast_in_dim, broadcast, expand, reshape, permute,
 * slice, squeeze, set, segment_set, and the passes' explicit strided
 * `fuser.view`. Each result shares its operand's data with new sizes,
 * strides and offset (broadcast and expanded dims get stride 0); only a
 * reshape of a non-row-major input copies. Also the layout queries
 * fuser.size and fuser.stride, and the plan's run-time fuser.check. */
#include <string.h>

#include "driver/checked_math.h"
#include "mlir-c/BuiltinAttributes.h"
#include "reference/ops.h"

static bool broadcast_in_dim(ref_ctx *c, const ref_tensor *in, const int64_t *sizes, int rank, ref_tensor *v) {
  int64_t bd[FUSER_MAX_RANK + 1];
  int n;
  if (!ref_attr_i64_array(c, "broadcast_dims", bd, FUSER_MAX_RANK, &n)) return false;
  if (n != in->rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "broadcast_dims has %d entries for an input of rank %d", n, in->rank);
  v->rank = rank;
  for (int d = 0; d < rank; d++) v->sizes[d] = sizes[d], v->strides[d] = 0;
  for (int i = 0; i < n; i++) {
    int64_t d = bd[i], e = in->sizes[i];
    if (d < 0 || d >= rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "broadcast_dims[%d] is out of range", i);
    if (e == sizes[d]) v->strides[d] = in->strides[i];
    else if (e != 1)
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "input dim %d of extent %lld cannot broadcast to extent %lld", i,
                      (long long)e, (long long)sizes[d]);
  }
  return true;
}

static bool expand(ref_ctx *c, const ref_tensor *in, const int64_t *sizes, int rank, ref_tensor *v) {
  if (rank != in->rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "expand changes the rank");
  for (int d = 0; d < rank; d++) {
    if (sizes[d] == -1 || sizes[d] == in->sizes[d]) continue; /* -1 keeps the extent, as torch */
    if (in->sizes[d] != 1)
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "expand of dim %d: extent %lld is not 1 and cannot become %lld", d,
                      (long long)in->sizes[d], (long long)sizes[d]);
    v->sizes[d] = sizes[d];
    v->strides[d] = 0;
  }
  return true;
}

static bool reshape(ref_ctx *c, const ref_tensor *in, const int64_t *want, int rank, ref_tensor *v) {
  int64_t sizes[FUSER_MAX_RANK], known = 1, numel = ref_numel(in);
  int infer = -1;
  for (int d = 0; d < rank; d++) {
    sizes[d] = want[d];
    if (want[d] == -1) {
      if (infer >= 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "reshape with more than one -1 extent");
      infer = d;
    } else if (want[d] < 0) {
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "reshape to negative extent %lld", (long long)want[d]);
    } else if (!fuser_mul_i64(known, want[d], &known)) {
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "reshape to extents whose product overflows 64 bits");
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known)
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "reshape cannot infer dim %d from %lld elements", infer, (long long)numel);
    sizes[infer] = numel / known;
    known *= sizes[infer]; /* == numel: cannot overflow */
  }
  if (known != numel)
    return ref_fail(c, FUSER_REF_ERR_SHAPE, "reshape of %lld elements into %lld", (long long)numel, (long long)known);
  ref_tensor base;
  if (ref_is_row_major(in)) {
    base = *in;
    ref_retain(&base);
  } else if (!ref_copy(c, in, in->dtype, NULL, &base)) {
    return false;
  }
  ref_release(v); /* v held a reference to the input; it now views base */
  *v = base;
  v->rank = rank;
  memcpy(v->sizes, sizes, sizeof sizes);
  ref_row_major_strides(rank, sizes, v->strides);
  return true;
}

static bool permute(ref_ctx *c, const ref_tensor *in, ref_tensor *v) {
  int64_t dims[FUSER_MAX_RANK + 1];
  int n;
  bool seen[FUSER_MAX_RANK] = {0};
  if (!ref_attr_i64_array(c, "dims", dims, FUSER_MAX_RANK, &n)) return false;
  if (n != in->rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "dims has %d entries for rank %d", n, in->rank);
  for (int i = 0; i < n; i++) {
    if (dims[i] < 0 || dims[i] >= n || seen[dims[i]])
      return ref_fail(c, FUSER_REF_ERR_FUSION, "dims is not a permutation of [0, %d)", n);
    seen[dims[i]] = true;
    v->sizes[i] = in->sizes[dims[i]];
    v->strides[i] = in->strides[dims[i]];
  }
  return true;
}

/* torch's t[start:end:step]: negative indices count from the end, then both
 * are clamped to [0, extent] and an empty range gives extent 0. */
static bool slice(ref_ctx *c, const ref_tensor *in, ref_tensor *v) {
  int64_t start[FUSER_MAX_RANK + 1], end[FUSER_MAX_RANK + 1], step[FUSER_MAX_RANK + 1];
  int n1, n2, n3;
  if (!ref_attr_i64_array(c, "start_indices", start, FUSER_MAX_RANK, &n1) ||
      !ref_attr_i64_array(c, "end_indices", end, FUSER_MAX_RANK, &n2) ||
      !ref_attr_i64_array(c, "strides", step, FUSER_MAX_RANK, &n3))
    return false;
  if (n1 != in->rank || n2 != in->rank || n3 != in->rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "slice needs %d start, end and stride entries", in->rank);
  for (int d = 0; d < in->rank; d++) {
    int64_t e = in->sizes[d], s = start[d], t = end[d];
    if (step[d] <= 0) return ref_fail(c, FUSER_REF_ERR_FUSION, "slice step %lld in dim %d is not positive", (long long)step[d], d);
    if (s < 0) s += e;
    if (t < 0) t += e;
    s = s < 0 ? 0 : s > e ? e : s;
    t = t < s ? s : t > e ? e : t;
    v->offset += s * in->strides[d];
    v->sizes[d] = (t - s + step[d] - 1) / step[d];
    v->strides[d] = in->strides[d] * step[d];
  }
  return true;
}

static bool squeeze(ref_ctx *c, const ref_tensor *in, ref_tensor *v) {
  int64_t dims[FUSER_MAX_RANK + 1];
  int n;
  bool drop[FUSER_MAX_RANK] = {0};
  if (!ref_attr_i64_array(c, "dims", dims, FUSER_MAX_RANK, &n)) return false;
  for (int i = 0; i < n; i++) {
    int64_t d = dims[i] < 0 ? dims[i] + in->rank : dims[i];
    if (d < 0 || d >= in->rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "squeeze dim %lld is out of range", (long long)dims[i]);
    if (in->sizes[d] != 1)
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "squeeze of dim %lld whose extent is %lld, not 1", (long long)d,
                      (long long)in->sizes[d]);
    drop[d] = true;
  }
  int r = 0;
  for (int d = 0; d < in->rank; d++)
    if (!drop[d]) v->sizes[r] = in->sizes[d], v->strides[r] = in->strides[d], r++;
  v->rank = r;
  return true;
}

static bool broadcast(ref_ctx *c, const ref_tensor *in, ref_tensor *v) {
  int64_t is_bcast[FUSER_MAX_RANK + 1];
  int n, kept = 0;
  if (!ref_attr_i64_array(c, "is_broadcast_dim", is_bcast, FUSER_MAX_RANK, &n)) return false;
  for (int i = 0; i < n; i++) kept += !is_bcast[i];
  if (kept != in->rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "is_broadcast_dim keeps %d dims of a rank-%d input", kept, in->rank);
  for (int i = 0, j = 0; i < n; i++) {
    v->sizes[i] = is_bcast[i] ? 1 : in->sizes[j];
    v->strides[i] = is_bcast[i] ? 0 : in->strides[j];
    j += !is_bcast[i];
  }
  v->rank = n;
  return true;
}

/* fuser.view: element idx of the result is element
 *   offset + sum(idx[d] * strides[d])
 * of the input's memory, counted from the input's first element (its data
 * pointer plus storage offset), in elements. The dynamic operands give, in
 * order, a kDynamic offset, the result's `?` sizes and kDynamic strides. */
static bool strided_view(ref_ctx *c, const ref_tensor *ops, int n, const ref_type *rt, ref_tensor *v) {
  int64_t offset, strides[FUSER_MAX_RANK + 1];
  int ns, k = 1;
  if (!ref_attr_i64(c, "static_offset", &offset) || !ref_attr_i64_array(c, "static_strides", strides, FUSER_MAX_RANK, &ns))
    return false;
  if (ns != rt->rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "static_strides has %d entries for rank %d", ns, rt->rank);
  int64_t dyn = INT64_MIN; /* mlir::ShapedType::kDynamic */
  if (offset == dyn) {
    if (k >= n) return ref_fail(c, FUSER_REF_ERR_FUSION, "view: no operand for the dynamic offset");
    offset = ref_scalar_i64(&ops[k++]);
  }
  int64_t sizes[FUSER_MAX_RANK];
  for (int d = 0; d < rt->rank; d++) {
    sizes[d] = rt->sizes[d];
    if (sizes[d] < 0) {
      if (k >= n) return ref_fail(c, FUSER_REF_ERR_FUSION, "view: no operand for the size of dim %d", d);
      sizes[d] = ref_scalar_i64(&ops[k++]);
    }
  }
  for (int d = 0; d < rt->rank; d++)
    if (strides[d] == dyn) {
      if (k >= n) return ref_fail(c, FUSER_REF_ERR_FUSION, "view: no operand for the stride of dim %d", d);
      strides[d] = ref_scalar_i64(&ops[k++]);
    }
  if (k != n) return ref_fail(c, FUSER_REF_ERR_FUSION, "view has %d operands, its layout uses %d", n, k);
  /* stay inside the input's memory: [first, last] element of the view within
   * the span the input itself covers */
  int64_t lo, hi, in_lo, in_hi, first;
  bool empty, in_empty;
  for (int d = 0; d < rt->rank; d++)
    if (sizes[d] < 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "view extent %lld is negative", (long long)sizes[d]);
  if (!fuser_view_span(offset, sizes, strides, rt->rank, &lo, &hi, &empty) ||
      !fuser_view_span(0, ops[0].sizes, ops[0].strides, ops[0].rank, &in_lo, &in_hi, &in_empty) ||
      !fuser_add_i64(ops[0].offset, offset, &first))
    return ref_fail(c, FUSER_REF_ERR_SHAPE, "view offset, extents or strides overflow 64 bits");
  if (!empty && (in_empty || lo < in_lo || hi > in_hi))
    return ref_fail(c, FUSER_REF_ERR_SHAPE, "view reaches elements [%lld, %lld] outside its input's [%lld, %lld]",
                    (long long)lo, (long long)hi, (long long)in_lo, (long long)in_hi);
  v->rank = rt->rank;
  v->offset = first;
  for (int d = 0; d < rt->rank; d++) v->sizes[d] = sizes[d], v->strides[d] = strides[d];
  return true;
}

bool ref_view_knows(fuser_op_id id) {
  switch (id) {
  case FUSER_OP_broadcast_in_dim: case FUSER_OP_expand: case FUSER_OP_reshape: case FUSER_OP_permute:
  case FUSER_OP_slice: case FUSER_OP_squeeze: case FUSER_OP_broadcast: case FUSER_OP_view: case FUSER_OP_set:
  case FUSER_OP_segment_set: case FUSER_OP_size: case FUSER_OP_stride:
    return true;
  default:
    return false;
  }
}

/* fuser.size / fuser.stride: a tensor's runtime extent / stride (elements)
 * of dim `dim`, as an i64 scalar. */
bool ref_eval_query(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  int64_t dim;
  if (!ref_attr_i64(c, "dim", &dim)) return false;
  if (n != 1 || dim < 0 || dim >= ops[0].rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "'%s' of dim %lld of a rank-%d tensor", fuser_op_full_name(id), (long long)dim,
                    n ? ops[0].rank : 0);
  if (id != FUSER_OP_size && id != FUSER_OP_stride)
    return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "no query semantics for '%s'", fuser_op_full_name(id));
  int64_t v = id == FUSER_OP_size ? ops[0].sizes[dim] : ops[0].strides[dim];
  return ref_make_scalar(c, FUSER_DTYPE_I64, (double)v, v, &res[0]);
}

/* fuser.check: the plan's run-time check; the call is refused with the
 * check's message when its i1 condition is false. No results. */
bool ref_eval_check(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  (void)res;
  MlirAttribute m = mlirOperationGetAttributeByName(c->op, mlirStringRefCreateFromCString("message"));
  if (n != 1 || ops[0].rank != 0 || mlirAttributeIsNull(m) || !mlirAttributeIsAString(m))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "'fuser.check' needs one i1 scalar and a string 'message'");
  if (ref_scalar_i64(&ops[0])) return true;
  MlirStringRef s = mlirStringAttrGetValue(m);
  return ref_fail(c, FUSER_REF_ERR_SHAPE, "%.*s", (int)s.length, s.data);
}

/* fuser.ceildiv: ceil(x / y) for y > 0, as the runtime's CEILDIV computes
 * it (x / y plus one when the remainder is positive, no x + y - 1 to
 * overflow). */
bool ref_eval_host(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  if (n != 2 || ops[0].rank != 0 || ops[1].rank != 0)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "'fuser.ceildiv' needs two i64 scalars");
  int64_t x = ref_scalar_i64(&ops[0]), y = ref_scalar_i64(&ops[1]);
  if (y <= 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "ceildiv by a non-positive divisor (%lld)", (long long)y);
  int64_t r = x / y + (x % y > 0);
  return ref_make_scalar(c, FUSER_DTYPE_I64, (double)r, r, &res[0]);
}

/* The parameter words: fuser.address, the byte address of the tensor's
 * first element in the evaluator's memory (what an alignment condition of
 * the plan reads); fuser.bits, an integer scalar's value (a float's words
 * only a launch reads, and the evaluator skips launches: 0); fuser.index_flag,
 * 0 (the evaluator reports an index out of range itself). */
bool ref_eval_address(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  int64_t a = 0;
  switch (fuser_op_id_of(c->op)) {
  case FUSER_OP_address:
    if (n != 1 || !ops[0].buf) return ref_fail(c, FUSER_REF_ERR_FUSION, "'fuser.address' needs a tensor");
    a = (int64_t)(uintptr_t)((char *)ops[0].buf->data + ops[0].offset * (int64_t)fuser_dtype_size(ops[0].dtype));
    break;
  case FUSER_OP_bits:
    if (n != 1 || ops[0].rank != 0) return ref_fail(c, FUSER_REF_ERR_FUSION, "'fuser.bits' needs a scalar");
    if (!fuser_dtype_is_float(ops[0].dtype)) a = ref_scalar_i64(&ops[0]);
    break;
  default: break;
  }
  return ref_make_scalar(c, FUSER_DTYPE_I64, (double)a, a, &res[0]);
}

/* fuser.launch: how the compiled plan runs the kernel its func.call names;
 * the evaluator runs the call's kernel function instead, so a launch does
 * nothing here. */
bool ref_eval_launch(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  (void)c, (void)ops, (void)n, (void)res;
  return true;
}

bool ref_eval_view(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  if (n < 1 || (ops[0].rank == 0 && rt.rank > 0 && id != FUSER_OP_broadcast_in_dim && id != FUSER_OP_broadcast &&
                    id != FUSER_OP_reshape))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "'%s' needs a tensor operand", fuser_op_full_name(id));
  const ref_tensor *in = &ops[0];
  ref_tensor v = *in;
  ref_retain(&v);
  int64_t sizes[FUSER_MAX_RANK];
  bool ok;
  switch (id) {
  case FUSER_OP_broadcast_in_dim:
    ok = ref_shape_from_operands(c, &rt, ops, 1, n, sizes) && broadcast_in_dim(c, in, sizes, rt.rank, &v);
    break;
  case FUSER_OP_expand: ok = ref_shape_from_operands(c, &rt, ops, 1, n, sizes) && expand(c, in, sizes, rt.rank, &v); break;
  case FUSER_OP_reshape: ok = ref_shape_from_operands(c, &rt, ops, 1, n, sizes) && reshape(c, in, sizes, rt.rank, &v); break;
  case FUSER_OP_permute: ok = permute(c, in, &v); break;
  case FUSER_OP_slice: ok = slice(c, in, &v); break;
  case FUSER_OP_squeeze: ok = squeeze(c, in, &v); break;
  case FUSER_OP_broadcast: ok = broadcast(c, in, &v); break;
  case FUSER_OP_view: ok = strided_view(c, ops, n, &rt, &v); break;
  case FUSER_OP_set:
  case FUSER_OP_segment_set: ok = true; break;
  default: ok = ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "no view semantics for '%s'", fuser_op_full_name(id)); break;
  }
  int64_t count;
  if (ok && !fuser_numel_i64(v.sizes, v.rank, &count))
    ok = ref_fail(c, FUSER_REF_ERR_SHAPE, "'%s' makes a tensor of more than 2^63 elements", fuser_op_full_name(id));
  if (!ok) { /* (rank and extents are checked against the type by the caller) */
    ref_release(&v);
    return false;
  }
  res[0] = v;
  return true;
}
