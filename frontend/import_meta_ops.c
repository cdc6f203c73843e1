/* fd.ops.* shape-taking and meta ops -> fuser ops: broadcast_in_dim,
 * expand, reshape (target shapes, -1 and symbolic extents), broadcast,
 * permute, squeeze, slice (indices normalized as PyTorch does), set and
 * segment_set, stride_order, pad and cat. */
#include "frontend/import_op_call.h"
#include "mlir-c/BuiltinAttributes.h"

/* ---- shape-taking ops ------------------------------------------------------------ */

/* Reads a target shape into the hint (kDynamic + an operand for symbolic
 * extents). -1 keeps the extent of input dim `src[i]` (expand and
 * broadcast_in_dim) when that extent is static. */
static bool target_shape(op_call *c, const py_expr *e, const char *what, const int *src) {
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn;
  if (!imp_eval_shape(c->imp, e, what, c->hint_shape, &c->hint_rank, dyn, &n_dyn)) return false;
  MlirValue in = c->operands[0];
  for (int i = 0; i < c->hint_rank; i++) {
    int64_t x = c->hint_shape[i];
    if (x == dynamic() || x >= 0) continue;
    if (x == -1 && src && src[i] >= 0 && extent_of(in, src[i]) != dynamic()) {
      c->hint_shape[i] = extent_of(in, src[i]);
      continue;
    }
    if (x == -1 && src && src[i] >= 0)
      return imp_error(c->imp, e->line, e->col, "%s: %s entry %d is -1 for a symbolic input extent; give the extent as an Int scalar",
                       c->what, what, i);
    return imp_error(c->imp, e->line, e->col, "%s: %s entry %d is %lld; extents must be >= 0", c->what, what, i,
                     (long long)x);
  }
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return true;
}

bool imp_op_broadcast_in_dim(op_call *c) {
  static const char *const params[] = {"arg", "shape", "broadcast_dims"};
  py_expr *a[3];
  int64_t bd[FUSER_MAX_RANK];
  int n;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a) || !imp_op_push_tensor(c, a[0])) return false;
  if (!imp_eval_int_list(c->imp, a[2], "broadcast_in_dim broadcast_dims", bd, FUSER_MAX_RANK, &n)) return false;
  int src[FUSER_MAX_RANK];
  for (int i = 0; i < FUSER_MAX_RANK; i++) src[i] = -1;
  /* output dim bd[i] comes from input dim i */
  int in_rank = rank_of(c->operands[0]);
  if (n != in_rank)
    return imp_error(c->imp, c->call->line, c->call->col, "%s: broadcast_dims has %d entries for an input of rank %d",
                     c->what, n, in_rank);
  for (int i = 0; i < n; i++)
    if (bd[i] >= 0 && bd[i] < FUSER_MAX_RANK) src[bd[i]] = i;
  add_attr(c, "broadcast_dims", mlirDenseI64ArrayGet(c->imp->ctx, n, bd));
  return target_shape(c, a[1], "shape", src) && imp_op_finish(c);
}

bool imp_op_expand(op_call *c) {
  static const char *const params[] = {"arg", "shape"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  int src[FUSER_MAX_RANK];
  for (int i = 0; i < FUSER_MAX_RANK; i++) src[i] = i < rank_of(c->operands[0]) ? i : -1;
  return target_shape(c, a[1], "shape", src) && imp_op_finish(c);
}

bool imp_op_reshape(op_call *c) {
  static const char *const params[] = {"arg", "new_shape"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn, infer_at = -1;
  if (!imp_eval_shape(c->imp, a[1], "reshape new_shape", c->hint_shape, &c->hint_rank, dyn, &n_dyn)) return false;
  int64_t known = 1;
  for (int i = 0; i < c->hint_rank; i++) {
    int64_t x = c->hint_shape[i];
    if (x == -1 && infer_at < 0) infer_at = i;
    else if (x == -1) return imp_error(c->imp, a[1]->line, a[1]->col, "%s: new_shape has more than one -1", c->what);
    else if (x < 0 && x != dynamic())
      return imp_error(c->imp, a[1]->line, a[1]->col, "%s: new_shape entry %d is %lld", c->what, i, (long long)x);
    else if (x != dynamic()) known *= x;
  }
  if (infer_at >= 0) { /* -1: the element count divided by the other extents */
    MlirValue in = c->operands[0];
    int64_t total = 1;
    for (int d = 0; d < rank_of(in); d++) {
      if (extent_of(in, d) == dynamic() || n_dyn)
        return imp_error(c->imp, a[1]->line, a[1]->col, "%s: new_shape -1 needs a statically shaped input and new_shape", c->what);
      total *= extent_of(in, d);
    }
    if (known == 0 || total % known)
      return imp_error(c->imp, a[1]->line, a[1]->col, "%s: cannot infer the -1 extent (%lld elements, %lld per -1)",
                       c->what, (long long)total, (long long)known);
    c->hint_shape[infer_at] = total / known;
  }
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return imp_op_finish(c);
}

/* ---- meta ops ------------------------------------------------------------------ */

bool imp_op_broadcast(op_call *c) {
  static const char *const params[] = {"arg", "is_broadcast_dim"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  const py_expr *l = a[1];
  if (l->kind != PY_LIST && l->kind != PY_TUPLE)
    return imp_error(c->imp, l->line, l->col, "%s: is_broadcast_dim must be a list of bools", c->what);
  if (l->n > FUSER_MAX_RANK) return imp_error(c->imp, l->line, l->col, "%s: is_broadcast_dim has more than %d entries", c->what, FUSER_MAX_RANK);
  int flags[FUSER_MAX_RANK];
  for (int i = 0; i < l->n; i++) {
    bool v;
    if (!imp_eval_bool(c->imp, l->items[i], "is_broadcast_dim entry", &v)) return false;
    flags[i] = v;
  }
  add_attr(c, "is_broadcast_dim", mlirDenseBoolArrayGet(c->imp->ctx, l->n, flags));
  return imp_op_finish(c);
}

bool imp_op_permute_or_squeeze(op_call *c) {
  static const char *const params[] = {"arg", "dims", "squeeze_expanded"};
  bool squeeze = c->id == FUSER_OP_squeeze;
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, squeeze ? 3 : 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  if (squeeze && a[2]) {
    bool v;
    if (!imp_eval_bool(c->imp, a[2], "squeeze_expanded", &v)) return false;
    if (v) return imp_error(c->imp, a[2]->line, a[2]->col, "%s: squeeze_expanded=True is not supported", c->what);
  }
  int64_t dims[FUSER_MAX_RANK];
  int n;
  if (!imp_op_dims_list(c, a[1], rank_of(c->operands[0]), dims, &n, "dims")) return false;
  add_attr(c, "dims", mlirDenseI64ArrayGet(c->imp->ctx, n, dims));
  return imp_op_finish(c);
}

bool imp_op_slice(op_call *c) {
  static const char *const params[] = {"arg", "start_indices", "end_indices", "strides", "manual_normalization"};
  py_expr *a[5];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 5, 3, a) || !imp_op_push_tensor(c, a[0])) return false;
  bool manual = false; /* True: the script promises normalized indices */
  if (a[4] && !imp_eval_flag(c->imp, a[4], "slice manual_normalization", &manual)) return false;
  MlirValue in = c->operands[0];
  int rank = rank_of(in), ns, ne, nst = rank;
  int64_t start[FUSER_MAX_RANK], end[FUSER_MAX_RANK], step[FUSER_MAX_RANK];
  if (!imp_eval_int_list(c->imp, a[1], "slice start_indices", start, FUSER_MAX_RANK, &ns) ||
      !imp_eval_int_list(c->imp, a[2], "slice end_indices", end, FUSER_MAX_RANK, &ne))
    return false;
  for (int i = 0; i < rank; i++) step[i] = 1;
  if (a[3] && a[3]->kind != PY_NONE && !imp_eval_int_list(c->imp, a[3], "slice strides", step, FUSER_MAX_RANK, &nst))
    return false;
  if (ns != rank || ne != rank || nst != rank)
    return imp_error(c->imp, c->call->line, c->call->col,
                     "%s: start_indices, end_indices and strides need %d entries (the input's rank), got %d, %d and %d",
                     c->what, rank, ns, ne, nst);
  /* PyTorch's normalization: negative indices count from the end, then
   * clamp to [0, extent] and end >= start. */
  for (int d = 0; d < rank && manual; d++) {
    int64_t ext = extent_of(in, d);
    if (start[d] < 0 || end[d] < start[d] || (ext != dynamic() && end[d] > ext))
      return imp_error(c->imp, a[4]->line, a[4]->col,
                       "%s: manual_normalization=True but [%lld, %lld) is not a normalized range of dim %d",
                       c->what, (long long)start[d], (long long)end[d], d);
  }
  for (int d = 0; d < rank; d++) {
    int64_t ext = extent_of(in, d);
    int64_t *idx[2] = {&start[d], &end[d]};
    for (int k = 0; k < 2; k++) {
      if (*idx[k] < 0) {
        if (ext == dynamic())
          return imp_error(c->imp, a[1 + k]->line, a[1 + k]->col,
                           "%s: negative index %lld in dim %d of symbolic extent", c->what, (long long)*idx[k], d);
        *idx[k] += ext;
        if (*idx[k] < 0) *idx[k] = 0;
      }
      if (ext != dynamic() && *idx[k] > ext) *idx[k] = ext;
    }
    if (end[d] < start[d]) end[d] = start[d];
  }
  add_attr(c, "start_indices", mlirDenseI64ArrayGet(c->imp->ctx, rank, start));
  add_attr(c, "end_indices", mlirDenseI64ArrayGet(c->imp->ctx, rank, end));
  add_attr(c, "strides", mlirDenseI64ArrayGet(c->imp->ctx, rank, step));
  return imp_op_finish(c);
}

bool imp_op_copy(op_call *c) {
  static const char *const params[] = {"arg"};
  py_expr *a[1];
  return imp_bind_args(c->imp, c->call, c->what, params, 1, 1, a) && imp_op_push_tensor(c, a[0]) && imp_op_finish(c);
}

/* fd.ops.stride_order(arg, stride_order): nvFuser's layout-only copy, a
 * `fuser.set` whose result carries `fuser.stride_order` (the order its
 * allocation takes where it is stored: a fusion output). */
bool imp_op_stride_order(op_call *c) {
  static const char *const params[] = {"arg", "stride_order"};
  py_expr *a[2];
  c->id = FUSER_OP_set;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  int rank = rank_of(c->operands[0]);
  int64_t order[FUSER_MAX_RANK];
  if (!imp_eval_stride_order(c->imp, a[1], "stride_order", "the input", rank, order)) return false;
  add_attr(c, "fuser.stride_order", mlirDenseI64ArrayGet(c->imp->ctx, rank, order));
  return imp_op_finish(c);
}

bool imp_op_pad(op_call *c) {
  static const char *const params[] = {"arg", "pad_widths", "value"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 2, a) || !imp_op_push_tensor(c, a[0])) return false;
  int64_t w[2 * FUSER_MAX_RANK];
  int n;
  if (!imp_eval_int_list(c->imp, a[1], "pad pad_widths", w, 2 * FUSER_MAX_RANK, &n)) return false;
  if (a[2] && a[2]->kind != PY_NONE) {
    if (!imp_op_push_operand(c, a[2], "pad value")) return false;
  } else { /* nvFuser pads with zero of the input's dtype */
    fuser_dtype dt = fuser_value_dtype(c->operands[0]);
    c->operands[c->n_operands] =
        imp_scalar(c->imp, imp_loc(c->imp, c->call->line, c->call->col), dt, false, 0, 0.0, c->call->line, c->call->col);
    if (mlirValueIsNull(c->operands[c->n_operands++])) return false;
  }
  add_attr(c, "pad_widths", mlirDenseI64ArrayGet(c->imp->ctx, n, w));
  return imp_op_finish(c);
}

/* cat of N tensors: the left-nested chain cat(cat(a, b), c) (the IR's cat is
 * binary); only the last link carries the target's name. */
bool imp_op_cat(op_call *c) {
  static const char *const params[] = {"tensors", "dim", "manual_padding"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 1, a)) return false;
  if (a[2]) {
    bool v;
    if (!imp_eval_flag(c->imp, a[2], "manual_padding", &v)) return false;
    if (v) return imp_error(c->imp, a[2]->line, a[2]->col, "%s: manual_padding=True is not supported", c->what);
  }
  const py_expr *l = a[0];
  if (l->kind != PY_LIST && l->kind != PY_TUPLE)
    return imp_error(c->imp, l->line, l->col, "%s: tensors must be a list of tensors", c->what);
  if (l->n < 2) return imp_error(c->imp, l->line, l->col, "%s: needs at least two tensors, got %d", c->what, l->n);
  if (c->stmt->n_names != 1) return imp_op_finish(c); /* reports the target count */
  MlirValue acc;
  if (!imp_op_push_tensor(c, l->items[0])) return false;
  acc = c->operands[0];
  int64_t dim = 0;
  if (a[1] && !imp_eval_int(c->imp, a[1], "cat dim", &dim)) return false;
  if (!imp_op_normalize_dim(c, a[1] ? a[1] : l, &dim, rank_of(acc), "dim")) return false;
  add_attr(c, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), dim));
  for (int i = 1; i < l->n; i++) {
    c->n_operands = 1;
    c->operands[0] = acc;
    if (!imp_op_push_tensor(c, l->items[i])) return false;
    bool last = i == l->n - 1;
    MlirOperation op = imp_op_emit(c, last ? imp_op_result_loc(c) : imp_loc(c->imp, c->call->line, c->call->col), 1);
    if (mlirOperationIsNull(op)) return false;
    acc = mlirOperationGetResult(op, 0);
    if (last) return imp_op_bind_results(c, op);
  }
  return false;
}
