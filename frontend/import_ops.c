/* fd.ops.* -> fuser ops. Each op's arguments are bound by nvFuser's
 * parameter names (positional or keyword, defaults as nvFuser's), negative
 * dims and slice indices are normalized as nvFuser/PyTorch do, and every
 * result type comes from fuser_infer_result_types, so nvFuser's promotion
 * and shape rules hold by construction. */
#include <stdio.h>
#include <string.h>

#include "frontend/import_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef struct {
  importer *imp;
  const py_stmt *stmt;
  const py_expr *call;
  fuser_op_id id;
  char what[64]; /* "fd.ops.<name>" */
  MlirValue operands[FUSER_MAX_RANK + 4];
  int n_operands;
  MlirNamedAttribute attrs[4];
  int n_attrs;
  int64_t hint_shape[FUSER_MAX_RANK];
  int hint_rank;
  fuser_dtype hint_dtype;
  bool var_only; /* fd.ops.var: a var_mean binding only its variance */
} op_call;

static int64_t dynamic(void) { return mlirShapedTypeGetDynamicSize(); }

static int rank_of(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }
static int64_t extent_of(MlirValue v, int d) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), d); }

static void add_attr(op_call *c, const char *name, MlirAttribute a) { c->attrs[c->n_attrs++] = imp_named(c->imp, name, a); }

/* Infers the result types and appends the op; `loc` names it. */
static MlirOperation emit(op_call *c, MlirLocation loc, int n_results) {
  fuser_op_desc d = {.id = c->id, .num_operands = c->n_operands, .operands = c->operands, .num_attrs = c->n_attrs,
                     .attrs = c->attrs, .hint_rank = c->hint_rank, .hint_shape = c->hint_shape,
                     .hint_dtype = c->hint_dtype};
  MlirType types[2];
  char why[256];
  if (!fuser_infer_result_types(c->imp->ctx, &d, types, why, sizeof why)) {
    imp_error(c->imp, c->call->line, c->call->col, "%s: %s", c->what, why);
    return (MlirOperation){NULL};
  }
  return imp_append_op(c->imp, fuser_op_full_name(c->id), loc, c->n_operands, c->operands, n_results, types,
                       c->n_attrs, c->attrs);
}

/* The location of the statement's results: NameLoc(target, call site); two
 * targets (var_mean) give a fused location of two NameLocs. */
static MlirLocation result_loc(op_call *c) {
  const py_stmt *s = c->stmt;
  if (s->n_names == 1) return imp_named_loc(c->imp, s->names[0], c->call->line, c->call->col);
  MlirLocation locs[2];
  for (int i = 0; i < 2; i++) locs[i] = imp_named_loc(c->imp, s->names[i], c->call->line, c->call->col);
  return mlirLocationFusedGet(c->imp->ctx, 2, locs, mlirAttributeGetNull());
}

static bool bind_results(op_call *c, MlirOperation op) {
  if (mlirOperationIsNull(op)) return false;
  for (int i = 0; i < c->stmt->n_names; i++) {
    binding *b = imp_bind(c->imp, c->stmt->names[i]);
    b->kind = BIND_VALUE;
    b->value = mlirOperationGetResult(op, i);
  }
  return true;
}

static bool finish(op_call *c) {
  int want = fuser_op_kind_of(c->id) == FUSER_KIND_VAR_MEAN ? 2 : 1;
  if (c->stmt->n_names != want)
    return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns %d value%s but %d name%s assigned", c->what, want,
                     want == 1 ? "" : "s", c->stmt->n_names, c->stmt->n_names == 1 ? " is" : "s are");
  return bind_results(c, emit(c, result_loc(c), want));
}

static bool push_operand(op_call *c, const py_expr *e, const char *what) {
  return imp_eval_value(c->imp, e, what, &c->operands[c->n_operands++]);
}

static bool push_tensor(op_call *c, const py_expr *e) {
  char what[80];
  snprintf(what, sizeof what, "%s input", c->what);
  return imp_eval_tensor(c->imp, e, what, &c->operands[c->n_operands++]);
}

/* Normalizes a dim index against `rank` like nvFuser (wrapping negatives). */
static bool normalize_dim(op_call *c, const py_expr *at, int64_t *dim, int rank, const char *what) {
  if (*dim < -rank || *dim >= rank)
    return imp_error(c->imp, at->line, at->col, "%s: %s %lld is out of range for rank %d", c->what, what,
                     (long long)*dim, rank);
  if (*dim < 0) *dim += rank;
  return true;
}

static bool dims_list(op_call *c, const py_expr *e, int rank, int64_t *dims, int *n, const char *what) {
  if (e->kind == PY_INT || e->kind == PY_NEG) { /* one dim given as an int */
    if (!imp_eval_int(c->imp, e, what, &dims[0])) return false;
    *n = 1;
  } else if (!imp_eval_int_list(c->imp, e, what, dims, FUSER_MAX_RANK, n)) {
    return false;
  }
  for (int i = 0; i < *n; i++)
    if (!normalize_dim(c, e, &dims[i], rank, what)) return false;
  return true;
}

/* ---- element-wise ------------------------------------------------------------- */

/* Appends `name` (a cast or a broadcast) on operand `i`, replacing it. */
static bool wrap_operand(op_call *c, int i, fuser_op_id id, int n_attrs, MlirNamedAttribute *attrs, fuser_dtype to) {
  MlirValue v = c->operands[i];
  fuser_op_desc d = {.id = id, .num_operands = 1, .operands = &v, .num_attrs = n_attrs, .attrs = attrs,
                     .hint_rank = -1, .hint_dtype = to};
  MlirType t;
  char why[256];
  if (!fuser_infer_result_types(c->imp->ctx, &d, &t, why, sizeof why))
    return imp_error(c->imp, c->call->line, c->call->col, "%s: broadcasting operand %d: %s", c->what, i + 1, why);
  MlirOperation op = imp_append_op(c->imp, fuser_op_full_name(id), imp_loc(c->imp, c->call->line, c->call->col), 1, &v,
                                   1, &t, n_attrs, attrs);
  c->operands[i] = mlirOperationGetResult(op, 0);
  return true;
}

/* Tensor operands of different ranks: nvFuser (ops::maybeBroadcast)
 * broadcasts the lower-rank ones on their leading dims to the highest rank,
 * aligning trailing dims as NumPy does, after casting every operand to the
 * common dtype (promoteValues), where a 0-dim tensor ranks between scalars
 * and tensors with dims. Made explicit here (fuser.cast of a 0-dim operand to
 * that dtype, fuser.broadcast), so the element-wise op itself sees one rank
 * and promotes to the same dtype. */
static bool broadcast_ranks(op_call *c) {
  int rank = 0, n = c->n_operands, kinds[4];
  fuser_dtype dts[4];
  bool zero_dim = false;
  for (int i = 0; i < n; i++) {
    MlirValue v = c->operands[i];
    dts[i] = fuser_value_dtype(v);
    kinds[i] = !fuser_value_is_tensor(v) ? FUSER_OPERAND_SCALAR : rank_of(v) == 0 ? FUSER_OPERAND_ZERO_DIM : FUSER_OPERAND_TENSOR;
    if (kinds[i] == FUSER_OPERAND_TENSOR && rank_of(v) > rank) rank = rank_of(v);
    zero_dim |= kinds[i] == FUSER_OPERAND_ZERO_DIM;
  }
  fuser_dtype target = FUSER_DTYPE_INVALID; /* what a 0-dim value operand is cast to */
  fuser_rule rule = fuser_op_rule_of(c->id);
  if (zero_dim && rank > 0) {
    if (rule == FUSER_RULE_WHERE) target = fuser_common_dtype(n - 1, dts + 1, kinds + 1);
    else if (rule == FUSER_RULE_COMPARE || rule == FUSER_RULE_BOOL) target = fuser_common_dtype(n, dts, kinds);
    else target = fuser_promote_kinds(rule, n, dts, kinds, NULL);
  }
  for (int i = 0; i < n; i++) {
    MlirValue v = c->operands[i];
    if (kinds[i] == FUSER_OPERAND_SCALAR || rank_of(v) == rank) continue;
    bool condition = rule == FUSER_RULE_WHERE && i == 0;
    if (kinds[i] == FUSER_OPERAND_ZERO_DIM && !condition && target != FUSER_DTYPE_INVALID && dts[i] != target &&
        !wrap_operand(c, i, FUSER_OP_cast, 0, NULL, target))
      return false;
    int flags[FUSER_MAX_RANK], lead = rank - rank_of(v);
    for (int d = 0; d < rank; d++) flags[d] = d < lead;
    MlirNamedAttribute attr = imp_named(c->imp, "is_broadcast_dim", mlirDenseBoolArrayGet(c->imp->ctx, rank, flags));
    if (!wrap_operand(c, i, FUSER_OP_broadcast, 1, &attr, FUSER_DTYPE_INVALID)) return false;
  }
  return true;
}

static bool elementwise(op_call *c, int arity) {
  static const char *const names[3][3] = {{"arg"}, {"arg1", "arg2"}, {"arg1", "arg2", "arg3"}};
  bool is_cast = c->id == FUSER_OP_cast;
  const char *cast_params[] = {"arg", "dtype"};
  py_expr *a[3];
  if (is_cast) {
    if (!imp_bind_args(c->imp, c->call, c->what, cast_params, 2, 2, a)) return false;
    if (!imp_eval_dtype(c->imp, a[1], "cast dtype", false, &c->hint_dtype)) return false;
    return push_operand(c, a[0], "cast input") && finish(c);
  }
  if (!imp_bind_args(c->imp, c->call, c->what, names[arity - 1], arity, arity, a)) return false;
  for (int i = 0; i < arity; i++) {
    char what[80];
    snprintf(what, sizeof what, "%s operand %d", c->what, i + 1);
    if (!push_operand(c, a[i], what)) return false;
  }
  return broadcast_ranks(c) && finish(c);
}

/* fd.ops.triu(arg, diagonal=0), fd.ops.tril(arg, diagonal=0) */
static bool triangle(op_call *c) {
  static const char *const params[] = {"arg", "diagonal"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 1, a) || !push_tensor(c, a[0])) return false;
  int64_t diagonal = 0;
  if (a[1] && !imp_eval_int(c->imp, a[1], "diagonal", &diagonal)) return false;
  add_attr(c, "diagonal", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), diagonal));
  return finish(c);
}

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

static bool broadcast_in_dim(op_call *c) {
  static const char *const params[] = {"arg", "shape", "broadcast_dims"};
  py_expr *a[3];
  int64_t bd[FUSER_MAX_RANK];
  int n;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a) || !push_tensor(c, a[0])) return false;
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
  return target_shape(c, a[1], "shape", src) && finish(c);
}

static bool expand(op_call *c) {
  static const char *const params[] = {"arg", "shape"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_tensor(c, a[0])) return false;
  int src[FUSER_MAX_RANK];
  for (int i = 0; i < FUSER_MAX_RANK; i++) src[i] = i < rank_of(c->operands[0]) ? i : -1;
  return target_shape(c, a[1], "shape", src) && finish(c);
}

static bool reshape(op_call *c) {
  static const char *const params[] = {"arg", "new_shape"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_tensor(c, a[0])) return false;
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
  return finish(c);
}

/* ---- meta ops ------------------------------------------------------------------ */

static bool broadcast(op_call *c) {
  static const char *const params[] = {"arg", "is_broadcast_dim"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_tensor(c, a[0])) return false;
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
  return finish(c);
}

static bool permute_or_squeeze(op_call *c) {
  static const char *const params[] = {"arg", "dims", "squeeze_expanded"};
  bool squeeze = c->id == FUSER_OP_squeeze;
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, squeeze ? 3 : 2, 2, a) || !push_tensor(c, a[0])) return false;
  if (squeeze && a[2]) {
    bool v;
    if (!imp_eval_bool(c->imp, a[2], "squeeze_expanded", &v)) return false;
    if (v) return imp_error(c->imp, a[2]->line, a[2]->col, "%s: squeeze_expanded=True is not supported", c->what);
  }
  int64_t dims[FUSER_MAX_RANK];
  int n;
  if (!dims_list(c, a[1], rank_of(c->operands[0]), dims, &n, "dims")) return false;
  add_attr(c, "dims", mlirDenseI64ArrayGet(c->imp->ctx, n, dims));
  return finish(c);
}

static bool slice(op_call *c) {
  static const char *const params[] = {"arg", "start_indices", "end_indices", "strides", "manual_normalization"};
  py_expr *a[5];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 5, 3, a) || !push_tensor(c, a[0])) return false;
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
  return finish(c);
}

static bool copy_op(op_call *c) {
  static const char *const params[] = {"arg"};
  py_expr *a[1];
  return imp_bind_args(c->imp, c->call, c->what, params, 1, 1, a) && push_tensor(c, a[0]) && finish(c);
}

/* fd.ops.stride_order(arg, stride_order): nvFuser's layout-only copy, a
 * `fuser.set` whose result carries `fuser.stride_order` (the order its
 * allocation takes where it is stored: a fusion output). */
static bool stride_order_op(op_call *c) {
  static const char *const params[] = {"arg", "stride_order"};
  py_expr *a[2];
  c->id = FUSER_OP_set;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_tensor(c, a[0])) return false;
  int rank = rank_of(c->operands[0]);
  int64_t order[FUSER_MAX_RANK];
  if (!imp_eval_stride_order(c->imp, a[1], "stride_order", "the input", rank, order)) return false;
  add_attr(c, "fuser.stride_order", mlirDenseI64ArrayGet(c->imp->ctx, rank, order));
  return finish(c);
}

static bool pad(op_call *c) {
  static const char *const params[] = {"arg", "pad_widths", "value"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 2, a) || !push_tensor(c, a[0])) return false;
  int64_t w[2 * FUSER_MAX_RANK];
  int n;
  if (!imp_eval_int_list(c->imp, a[1], "pad pad_widths", w, 2 * FUSER_MAX_RANK, &n)) return false;
  if (a[2] && a[2]->kind != PY_NONE) {
    if (!push_operand(c, a[2], "pad value")) return false;
  } else { /* nvFuser pads with zero of the input's dtype */
    fuser_dtype dt = fuser_value_dtype(c->operands[0]);
    c->operands[c->n_operands] =
        imp_scalar(c->imp, imp_loc(c->imp, c->call->line, c->call->col), dt, false, 0, 0.0, c->call->line, c->call->col);
    if (mlirValueIsNull(c->operands[c->n_operands++])) return false;
  }
  add_attr(c, "pad_widths", mlirDenseI64ArrayGet(c->imp->ctx, n, w));
  return finish(c);
}

/* cat of N tensors: the left-nested chain cat(cat(a, b), c) (the IR's cat is
 * binary); only the last link carries the target's name. */
static bool cat(op_call *c) {
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
  if (c->stmt->n_names != 1) return finish(c); /* reports the target count */
  MlirValue acc;
  if (!push_tensor(c, l->items[0])) return false;
  acc = c->operands[0];
  int64_t dim = 0;
  if (a[1] && !imp_eval_int(c->imp, a[1], "cat dim", &dim)) return false;
  if (!normalize_dim(c, a[1] ? a[1] : l, &dim, rank_of(acc), "dim")) return false;
  add_attr(c, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), dim));
  for (int i = 1; i < l->n; i++) {
    c->n_operands = 1;
    c->operands[0] = acc;
    if (!push_tensor(c, l->items[i])) return false;
    bool last = i == l->n - 1;
    MlirOperation op = emit(c, last ? result_loc(c) : imp_loc(c->imp, c->call->line, c->call->col), 1);
    if (mlirOperationIsNull(op)) return false;
    acc = mlirOperationGetResult(op, 0);
    if (last) return bind_results(c, op);
  }
  return false;
}

/* ---- data-dependent reads ------------------------------------------------------- */

/* fd.ops.index_select(arg, index, dim), fd.ops.gather(arg, index, dim),
 * fd.ops.take_along_axis(arg, index, dim): dim wrapped against arg's rank. */
static bool index_op(op_call *c) {
  static const char *const params[] = {"arg", "index", "dim"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a) || !push_tensor(c, a[0]) || !push_tensor(c, a[1]))
    return false;
  int64_t dim;
  if (!imp_eval_int(c->imp, a[2], "dim", &dim) || !normalize_dim(c, a[2], &dim, rank_of(c->operands[0]), "dim"))
    return false;
  add_attr(c, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), dim));
  return finish(c);
}

/* ---- reductions ------------------------------------------------------------------ */

static bool reduction(op_call *c) {
  bool var_mean = c->id == FUSER_OP_var_mean;
  static const char *const red_params[] = {"arg", "dims", "keepdim", "dtype"};
  static const char *const vm_params[] = {"arg", "dims", "correction", "keepdim"};
  py_expr *a[4];
  if (!imp_bind_args(c->imp, c->call, c->what, var_mean ? vm_params : red_params, 4, 2, a) || !push_tensor(c, a[0]))
    return false;
  MlirValue in = c->operands[0];
  int64_t dims[FUSER_MAX_RANK];
  int n;
  if (!dims_list(c, a[1], rank_of(in), dims, &n, "dims")) return false;
  bool keepdim = false;
  const py_expr *kd = var_mean ? a[3] : a[2];
  if (kd && !imp_eval_bool(c->imp, kd, "keepdim", &keepdim)) return false;
  add_attr(c, "dims", mlirDenseI64ArrayGet(c->imp->ctx, n, dims));
  add_attr(c, "keepdim", mlirBoolAttrGet(c->imp->ctx, keepdim));
  if (var_mean) {
    int64_t corr = 1;
    if (a[2] && !imp_eval_int(c->imp, a[2], "correction", &corr)) return false;
    add_attr(c, "correction", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), corr));
    if (!c->var_only) return finish(c);
    /* fd.ops.var: the variance of a var_mean (whose mean nothing reads) */
    if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
    MlirOperation op = emit(c, result_loc(c), 2);
    if (mlirOperationIsNull(op)) return false;
    binding *b = imp_bind(c->imp, c->stmt->names[0]);
    b->kind = BIND_VALUE;
    b->value = mlirOperationGetResult(op, 0);
    return true;
  }
  fuser_dtype dt = FUSER_DTYPE_INVALID;
  if (a[3] && !imp_eval_dtype(c->imp, a[3], "reduction dtype", true, &dt)) return false;
  if (dt == FUSER_DTYPE_INVALID) { /* DataType.Null: the input's dtype; sum/prod of bool/int give Int */
    dt = fuser_value_dtype(in);
    if ((c->id == FUSER_OP_sum || c->id == FUSER_OP_prod) && !fuser_dtype_is_float(dt)) dt = FUSER_DTYPE_I64;
  }
  c->hint_dtype = dt;
  return finish(c);
}

static MlirValue extent_value(op_call *c, MlirValue t, int64_t d, MlirLocation loc);

/* Appends op `id` on `n` operands at `loc` (the call's attributes and hints
 * reset); its result #res, or null after a located error. */
static MlirValue emit_value(op_call *c, fuser_op_id id, int n, const MlirValue *operands, MlirLocation loc, int n_results,
                            int res) {
  c->id = id;
  c->n_operands = n;
  for (int i = 0; i < n; i++) c->operands[i] = operands[i];
  MlirOperation op = emit(c, loc, n_results);
  c->n_attrs = 0;
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : mlirOperationGetResult(op, res);
}

static void bind_name(op_call *c, int i, MlirValue v) {
  binding *b = imp_bind(c->imp, c->stmt->names[i]);
  b->kind = BIND_VALUE;
  b->value = v;
}

/* fd.ops.truediv(arg1, arg2): nvFuser's div that promotes integer operands
 * to float (float_op_config): when no operand is floating point, each is
 * cast first (to Float when a tensor takes part, to Double for scalars
 * alone), then a plain fuser.div; exported as those ops (the round trip
 * gives the same IR). */
static bool truediv(op_call *c) {
  static const char *const params[] = {"arg1", "arg2"};
  py_expr *a[2];
  c->id = FUSER_OP_div;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_operand(c, a[0], "fd.ops.truediv operand 1") ||
      !push_operand(c, a[1], "fd.ops.truediv operand 2"))
    return false;
  bool any_float = false, any_tensor = false;
  for (int i = 0; i < 2; i++) {
    any_float |= fuser_dtype_is_float(fuser_value_dtype(c->operands[i]));
    any_tensor |= fuser_value_is_tensor(c->operands[i]);
  }
  for (int i = 0; i < 2 && !any_float; i++)
    if (!wrap_operand(c, i, FUSER_OP_cast, 0, NULL, any_tensor ? FUSER_DTYPE_F32 : FUSER_DTYPE_F64)) return false;
  return broadcast_ranks(c) && finish(c);
}

/* fd.ops.add_alpha(arg1, arg2, arg3) / sub_alpha (classic nvFuser):
 * arg1 + arg2 * arg3 / arg1 - arg2 * arg3, imported as the mul and the
 * add/sub they compute (each with nvFuser's promotion and rank
 * broadcasting); exported as those ops (the same IR on re-import). */
static bool alpha_op(op_call *c, fuser_op_id outer) {
  static const char *const params[] = {"arg1", "arg2", "arg3"};
  py_expr *a[3];
  MlirValue x;
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a) || !imp_eval_value(c->imp, a[0], "operand 1", &x)) return false;
  c->id = FUSER_OP_mul;
  if (!push_operand(c, a[1], "operand 2") || !push_operand(c, a[2], "operand 3") || !broadcast_ranks(c)) return false;
  MlirValue product = emit_value(c, FUSER_OP_mul, 2, c->operands, imp_loc(c->imp, c->call->line, c->call->col), 1, 0);
  if (mlirValueIsNull(product)) return false;
  c->operands[0] = x, c->operands[1] = product, c->n_operands = 2, c->id = outer;
  return broadcast_ranks(c) && finish(c);
}

/* fd.ops.welford(arg, dims) -> (avg, var_sum, n), nvFuser's WelfordRaw,
 * imported as what it computes: avg the mean of var_mean(arg, dims,
 * correction=0), var_sum = var * N and n = full(N) of the reduced shape
 * (Int), N the product of the reduced extents (fuser.size when symbolic, a
 * host scalar). So the kernels are var_mean's and pointwise ones, and the
 * export prints these ops (the round trip gives the same IR). */
static bool welford(op_call *c) {
  static const char *const params[] = {"arg", "dims"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_tensor(c, a[0])) return false;
  if (c->stmt->n_names != 3)
    return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns 3 values but %d name%s assigned", c->what,
                     c->stmt->n_names, c->stmt->n_names == 1 ? " is" : "s are");
  MlirValue in = c->operands[0];
  int64_t dims[FUSER_MAX_RANK];
  int n;
  if (!dims_list(c, a[1], rank_of(in), dims, &n, "dims")) return false;
  MlirLocation loc = imp_loc(c->imp, c->call->line, c->call->col);
  /* N: the symbolic extents' product first (fuser.size, scalar mul), then
   * the static product, a constant made at its first use (as a re-import
   * of the export makes it) */
  MlirValue count = {NULL};
  int64_t fixed = 1;
  for (int i = 0; i < n; i++) {
    if (extent_of(in, (int)dims[i]) != dynamic()) {
      fixed *= extent_of(in, (int)dims[i]);
      continue;
    }
    MlirValue e = extent_value(c, in, dims[i], loc);
    if (mlirValueIsNull(e)) return false;
    MlirValue f[2] = {count, e};
    count = mlirValueIsNull(count) ? e : emit_value(c, FUSER_OP_mul, 2, f, loc, 1, 0);
    if (mlirValueIsNull(count)) return false;
  }
  add_attr(c, "dims", mlirDenseI64ArrayGet(c->imp->ctx, n, dims));
  add_attr(c, "keepdim", mlirBoolAttrGet(c->imp->ctx, false));
  add_attr(c, "correction", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), 0));
  MlirValue var = emit_value(c, FUSER_OP_var_mean, 1, &in, loc, 2, 0);
  if (mlirValueIsNull(var)) return false;
  if (fixed != 1 || mlirValueIsNull(count)) {
    MlirValue k = imp_scalar(c->imp, loc, FUSER_DTYPE_I64, false, fixed, 0.0, c->call->line, c->call->col);
    MlirValue f[2] = {count, k};
    count = mlirValueIsNull(count) ? k : emit_value(c, FUSER_OP_mul, 2, f, loc, 1, 0);
    if (mlirValueIsNull(count)) return false;
  }
  MlirValue avg = mlirOperationGetResult(mlirOpResultGetOwner(var), 1);
  MlirValue vs[2] = {var, count};
  MlirValue var_sum = emit_value(c, FUSER_OP_mul, 2, vs, imp_named_loc(c->imp, c->stmt->names[1], c->call->line, c->call->col), 1, 0);
  if (mlirValueIsNull(var_sum)) return false;
  /* n: the count in the reduced shape (the kept dims' extents) */
  MlirValue ops[FUSER_MAX_RANK + 1] = {count};
  int nops = 1;
  c->hint_rank = 0;
  c->hint_dtype = FUSER_DTYPE_I64;
  for (int d = 0; d < rank_of(in); d++) {
    bool reduced = false;
    for (int i = 0; i < n; i++) reduced |= dims[i] == d;
    if (reduced) continue;
    c->hint_shape[c->hint_rank++] = extent_of(in, d);
    if (extent_of(in, d) != dynamic()) continue;
    ops[nops] = extent_value(c, in, d, loc);
    if (mlirValueIsNull(ops[nops++])) return false;
  }
  MlirValue nv = emit_value(c, FUSER_OP_full, nops, ops, imp_named_loc(c->imp, c->stmt->names[2], c->call->line, c->call->col), 1, 0);
  if (mlirValueIsNull(nv)) return false;
  bind_name(c, 0, avg);
  bind_name(c, 1, var_sum);
  bind_name(c, 2, nv);
  return true;
}

/* ---- factories ------------------------------------------------------------------- */

static bool full(op_call *c) {
  static const char *const params[] = {"shape", "fill_value", "dtype"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 3, a)) return false;
  if (!imp_eval_dtype(c->imp, a[2], "full dtype", false, &c->hint_dtype)) return false;
  if (!push_operand(c, a[1], "full fill_value")) return false;
  if (fuser_value_is_tensor(c->operands[0]))
    return imp_error(c->imp, a[1]->line, a[1]->col, "%s: fill_value must be a scalar", c->what);
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn;
  if (!imp_eval_shape(c->imp, a[0], "full shape", c->hint_shape, &c->hint_rank, dyn, &n_dyn)) return false;
  for (int i = 0; i < c->hint_rank; i++)
    if (c->hint_shape[i] < 0 && c->hint_shape[i] != dynamic())
      return imp_error(c->imp, a[0]->line, a[0]->col, "%s: shape entry %d is %lld; extents must be >= 0", c->what, i,
                       (long long)c->hint_shape[i]);
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return finish(c);
}

static bool iota(op_call *c) {
  static const char *const params[] = {"length", "start", "step", "dtype"};
  py_expr *a[4];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 4, 1, a)) return false;
  c->hint_dtype = FUSER_DTYPE_I64;
  if (a[3] && !imp_eval_dtype(c->imp, a[3], "iota dtype", false, &c->hint_dtype)) return false;
  /* a constant length gives a static extent */
  c->hint_rank = 1;
  c->hint_shape[0] = dynamic();
  bool is_float, is_bool;
  int64_t i;
  double f;
  const py_expr *len = a[0];
  if (imp_literal_number(len, &is_float, &is_bool, &i, &f) && !is_float && !is_bool) {
    c->hint_shape[0] = i;
  } else if (len->kind == PY_NAME) {
    binding *b = imp_lookup(c->imp, len->name);
    if (b && b->kind == BIND_CONST && !b->is_float && b->dtype == FUSER_DTYPE_I64) c->hint_shape[0] = b->ival;
  }
  if (c->hint_shape[0] < 0 && c->hint_shape[0] != dynamic())
    return imp_error(c->imp, len->line, len->col, "%s: length %lld is negative", c->what, (long long)c->hint_shape[0]);
  if (!push_operand(c, len, "iota length")) return false;
  for (int k = 1; k <= 2; k++) {
    if (a[k] && a[k]->kind != PY_NONE) {
      if (!push_operand(c, a[k], k == 1 ? "iota start" : "iota step")) return false;
    } else { /* None: start 0, step 1, of the result dtype */
      c->operands[c->n_operands] = imp_scalar(c->imp, imp_loc(c->imp, c->call->line, c->call->col), c->hint_dtype,
                                              false, k == 1 ? 0 : 1, k == 1 ? 0.0 : 1.0, c->call->line, c->call->col);
      if (mlirValueIsNull(c->operands[c->n_operands++])) return false;
    }
  }
  return finish(c);
}

/* ---- random numbers --------------------------------------------------------------- */

/* rng_seed and rng_offset, as nvFuser takes them (keyword arguments, Int
 * scalars). Both are required: without them nvFuser draws from the
 * framework's generator at each run, a state fuser does not model yet. */
static bool push_rng_state(op_call *c, py_expr *seed, py_expr *offset) {
  if (!seed || seed->kind == PY_NONE || !offset || offset->kind == PY_NONE)
    return imp_error(c->imp, c->call->line, c->call->col,
                     "%s: rng_seed and rng_offset are required (fuser has no global generator state)", c->what);
  if (!push_operand(c, seed, "rng_seed") || !push_operand(c, offset, "rng_offset")) return false;
  for (int k = c->n_operands - 2; k < c->n_operands; k++)
    if (fuser_value_is_tensor(c->operands[k]) || fuser_value_dtype(c->operands[k]) != FUSER_DTYPE_I64)
      return imp_error(c->imp, (k == c->n_operands - 2 ? seed : offset)->line, (k == c->n_operands - 2 ? seed : offset)->col,
                       "%s: %s must be an Int scalar", c->what, k == c->n_operands - 2 ? "rng_seed" : "rng_offset");
  return true;
}

/* fd.ops.uniform(minval, maxval, shape, *, rng_seed, rng_offset, dtype=Float)
 * and fd.ops.normal(mean, std, shape, ...). */
static bool rng(op_call *c) {
  static const char *const uniform_params[] = {"minval", "maxval", "shape", "rng_seed", "rng_offset", "dtype"};
  static const char *const normal_params[] = {"mean", "std", "shape", "rng_seed", "rng_offset", "dtype"};
  py_expr *a[6];
  if (!imp_bind_args(c->imp, c->call, c->what, c->id == FUSER_OP_uniform ? uniform_params : normal_params, 6, 3, a))
    return false;
  c->hint_dtype = FUSER_DTYPE_F32;
  if (a[5] && !imp_eval_dtype(c->imp, a[5], "random dtype", false, &c->hint_dtype)) return false;
  if (!fuser_dtype_is_float(c->hint_dtype))
    return imp_error(c->imp, a[5]->line, a[5]->col, "%s: dtype must be a floating-point type", c->what);
  for (int k = 0; k < 2; k++) {
    if (!push_operand(c, a[k], k ? "second parameter" : "first parameter")) return false;
    if (fuser_value_is_tensor(c->operands[k]))
      return imp_error(c->imp, a[k]->line, a[k]->col, "%s: %s must be a scalar", c->what,
                       c->id == FUSER_OP_uniform ? (k ? "maxval" : "minval") : (k ? "std" : "mean"));
  }
  if (!push_rng_state(c, a[3], a[4])) return false;
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn;
  if (!imp_eval_shape(c->imp, a[2], "random shape", c->hint_shape, &c->hint_rank, dyn, &n_dyn)) return false;
  for (int i = 0; i < c->hint_rank; i++)
    if (c->hint_shape[i] < 0 && c->hint_shape[i] != dynamic())
      return imp_error(c->imp, a[2]->line, a[2]->col, "%s: shape entry %d is %lld; extents must be >= 0", c->what, i,
                       (long long)c->hint_shape[i]);
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return finish(c);
}

/* fd.ops.rand_like(arg, *, rng_seed, rng_offset) and randn_like: uniform(0,
 * 1) and normal(0, 1) of arg's shape and (floating-point) dtype, imported as
 * the factories themselves (arg's extents through fuser.size), so the
 * kernel does not read arg. */
static bool rng_like(op_call *c, bool normal) {
  static const char *const params[] = {"arg", "rng_seed", "rng_offset"};
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 3, 1, a)) return false;
  MlirValue arg;
  char what[80];
  snprintf(what, sizeof what, "%s input", c->what);
  if (!imp_eval_tensor(c->imp, a[0], what, &arg)) return false;
  c->id = normal ? FUSER_OP_normal : FUSER_OP_uniform;
  c->hint_dtype = fuser_value_dtype(arg);
  if (!fuser_dtype_is_float(c->hint_dtype))
    return imp_error(c->imp, a[0]->line, a[0]->col, "%s: the input must be a floating-point tensor", c->what);
  MlirLocation loc = imp_loc(c->imp, c->call->line, c->call->col);
  /* the extents first, then the bounds: the order the exporter's
   * fd.ops.size lines and define_scalar lines re-import in */
  MlirValue dyn[FUSER_MAX_RANK];
  int n_dyn = 0;
  c->hint_rank = rank_of(arg);
  for (int d = 0; d < c->hint_rank; d++) {
    c->hint_shape[d] = extent_of(arg, d);
    if (c->hint_shape[d] != dynamic()) continue;
    dyn[n_dyn] = extent_value(c, arg, d, loc);
    if (mlirValueIsNull(dyn[n_dyn++])) return false;
  }
  for (int k = 0; k < 2; k++) {
    c->operands[c->n_operands] = imp_scalar(c->imp, loc, FUSER_DTYPE_F64, true, k, k ? 1.0 : 0.0, c->call->line, c->call->col);
    if (mlirValueIsNull(c->operands[c->n_operands++])) return false;
  }
  if (!push_rng_state(c, a[1], a[2])) return false;
  for (int i = 0; i < n_dyn; i++) c->operands[c->n_operands++] = dyn[i];
  return finish(c);
}

/* ---- sizes ------------------------------------------------------------------------ */

/* The extent of dim `d` of `t` as an i64 value: a constant when static,
 * else fuser.size (which the plan evaluates on the host). */
static MlirValue extent_value(op_call *c, MlirValue t, int64_t d, MlirLocation loc) {
  int64_t e = extent_of(t, (int)d);
  if (e != dynamic()) return imp_scalar(c->imp, loc, FUSER_DTYPE_I64, false, e, 0.0, c->call->line, c->call->col);
  MlirNamedAttribute a = imp_named(c->imp, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(c->imp->ctx, 64), d));
  MlirType i64 = mlirIntegerTypeGet(c->imp->ctx, 64);
  return mlirOperationGetResult(imp_append_op(c->imp, "fuser.size", loc, 1, &t, 1, &i64, 1, &a), 0);
}

/* fd.ops.size(arg, dim): an Int scalar. */
static bool size_op(op_call *c) {
  static const char *const params[] = {"arg", "dim"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a) || !push_tensor(c, a[0])) return false;
  if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
  int64_t dim;
  if (!imp_eval_int(c->imp, a[1], "size dim", &dim) || !normalize_dim(c, a[1], &dim, rank_of(c->operands[0]), "dim"))
    return false;
  MlirValue v = extent_value(c, c->operands[0], dim, result_loc(c));
  if (mlirValueIsNull(v)) return false;
  binding *b = imp_bind(c->imp, c->stmt->names[0]);
  b->kind = BIND_VALUE;
  b->value = v;
  return true;
}

/* fd.ops.shape(arg): a vector of its extents (for shapes, as define_vector). */
static bool shape_op(op_call *c) {
  static const char *const params[] = {"arg"};
  py_expr *a[1];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 1, 1, a) || !push_tensor(c, a[0])) return false;
  if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
  MlirValue t = c->operands[0];
  int rank = rank_of(t);
  vector_elem *elems = py_arena_alloc(c->imp->arena, sizeof *elems * (rank ? rank : 1));
  for (int d = 0; d < rank; d++) {
    elems[d].is_const = extent_of(t, d) != dynamic();
    if (elems[d].is_const) elems[d].value = extent_of(t, d);
    else elems[d].dyn = extent_value(c, t, d, imp_loc(c->imp, c->call->line, c->call->col));
  }
  binding *b = imp_bind(c->imp, c->stmt->names[0]);
  b->kind = BIND_VECTOR;
  b->n_elems = rank;
  b->elems = elems;
  return true;
}

/* fd.ops.at(arg, index) (classic): element `index` of a vector (negative
 * counts from the end): a static extent is an Int constant (a
 * define_scalar), a symbolic one its fuser.size; exported as what it is. */
static bool at_op(op_call *c) {
  static const char *const params[] = {"arg", "index"};
  py_expr *a[2];
  if (!imp_bind_args(c->imp, c->call, c->what, params, 2, 2, a)) return false;
  if (c->stmt->n_names != 1) return imp_error(c->imp, c->stmt->line, c->stmt->col, "%s returns one value", c->what);
  binding *v = a[0]->kind == PY_NAME ? imp_lookup(c->imp, a[0]->name) : NULL;
  if (!v || v->kind != BIND_VECTOR)
    return imp_error(c->imp, a[0]->line, a[0]->col, "%s arg must be a vector (fd.define_vector, fd.ops.shape)", c->what);
  int64_t i;
  if (!imp_eval_int(c->imp, a[1], "at index", &i)) return false;
  if (i < 0) i += v->n_elems;
  if (i < 0 || i >= v->n_elems)
    return imp_error(c->imp, a[1]->line, a[1]->col, "%s index is out of range for a vector of %d", c->what, v->n_elems);
  vector_elem e = v->elems[i];
  binding *b = imp_bind(c->imp, c->stmt->names[0]);
  if (e.is_const) {
    b->kind = BIND_CONST, b->dtype = FUSER_DTYPE_I64, b->is_float = false, b->ival = e.value, b->fval = 0;
    b->value = (MlirValue){NULL};
    b->loc = imp_named_loc(c->imp, c->stmt->names[0], c->call->line, c->call->col);
  } else {
    b->kind = BIND_VALUE, b->value = e.dyn;
  }
  return true;
}

/* ---- matrix products ------------------------------------------------------------- */

/* fd.ops.matmul(arg1, arg2) and fd.ops.linear(arg1, arg2, bias=None):
 * tensors only; shapes and dtypes are checked by the inference. */
static bool matmul(op_call *c) {
  static const char *const params[] = {"arg1", "arg2", "bias"};
  bool linear = c->id == FUSER_OP_linear;
  py_expr *a[3];
  if (!imp_bind_args(c->imp, c->call, c->what, params, linear ? 3 : 2, 2, a)) return false;
  if (!push_tensor(c, a[0]) || !push_tensor(c, a[1])) return false;
  if (linear && a[2] && a[2]->kind != PY_NONE && !push_tensor(c, a[2])) return false;
  return finish(c);
}

bool imp_fd_op(importer *imp, const py_stmt *s, const py_expr *call, py_str op_name) {
  op_call c = {.imp = imp, .stmt = s, .call = call, .hint_rank = -1, .hint_dtype = FUSER_DTYPE_INVALID};
  c.id = fuser_op_from_mnemonic(op_name.data, op_name.len);
  snprintf(c.what, sizeof c.what, "fd.ops.%.*s", (int)(op_name.len > 40 ? 40 : op_name.len), op_name.data);
  if (c.id == FUSER_OP_size) return size_op(&c);
  if (py_str_eq(op_name, "var")) c.id = FUSER_OP_var_mean, c.var_only = true;
  if (py_str_eq(op_name, "shape") || py_str_eq(op_name, "tensor_sizes")) return shape_op(&c); /* tensor_sizes: classic */
  if (py_str_eq(op_name, "at")) return at_op(&c);
  if (py_str_eq(op_name, "welford")) return welford(&c);
  if (py_str_eq(op_name, "stride_order")) return stride_order_op(&c);
  if (py_str_eq(op_name, "truediv")) return truediv(&c);
  if (py_str_eq(op_name, "add_alpha") || py_str_eq(op_name, "sub_alpha"))
    return alpha_op(&c, py_str_eq(op_name, "add_alpha") ? FUSER_OP_add : FUSER_OP_sub);
  if (py_str_eq(op_name, "rand_like") || py_str_eq(op_name, "randn_like")) return rng_like(&c, py_str_eq(op_name, "randn_like"));
  if (c.id == FUSER_OP_NONE || c.id == FUSER_OP_scalar)
    return imp_error(imp, call->base->name_line, call->base->name_col, "unsupported op '%s' (not in the fuser dialect)", c.what);
  switch (fuser_op_kind_of(c.id)) {
  case FUSER_KIND_UNARY: return fuser_is_triangle_op(c.id) ? triangle(&c) : elementwise(&c, 1);
  case FUSER_KIND_BINARY: return elementwise(&c, 2);
  case FUSER_KIND_TERNARY: return elementwise(&c, 3);
  case FUSER_KIND_SHAPED:
    if (c.id == FUSER_OP_broadcast_in_dim) return broadcast_in_dim(&c);
    if (c.id == FUSER_OP_expand) return expand(&c);
    return reshape(&c);
  case FUSER_KIND_META:
    if (c.id == FUSER_OP_broadcast) return broadcast(&c);
    if (c.id == FUSER_OP_permute || c.id == FUSER_OP_squeeze) return permute_or_squeeze(&c);
    if (c.id == FUSER_OP_slice) return slice(&c);
    return copy_op(&c);
  case FUSER_KIND_PAD: return pad(&c);
  case FUSER_KIND_CAT: return cat(&c);
  case FUSER_KIND_REDUCTION:
  case FUSER_KIND_VAR_MEAN: return reduction(&c);
  case FUSER_KIND_FULL: return full(&c);
  case FUSER_KIND_IOTA: return iota(&c);
  case FUSER_KIND_RNG: return rng(&c);
  case FUSER_KIND_MATMUL: return matmul(&c);
  case FUSER_KIND_INDEX: return index_op(&c);
  case FUSER_KIND_SCALAR:
  case FUSER_KIND_VIEW:
  case FUSER_KIND_QUERY: /* made by passes: no fd.ops spelling */
  case FUSER_KIND_NONE:
    break;
  }
  return imp_error(imp, call->line, call->col, "unsupported op '%s'", c.what);
}
