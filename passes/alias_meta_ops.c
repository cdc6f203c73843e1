/* fuser-alias-meta-ops: meta ops on fusion inputs become strided views.
 *
 * Follows every chain of set, segment_set, permute, slice, squeeze,
 * broadcast, broadcast_in_dim, expand and reshape (when the reshape is
 * expressible as a view) that starts at a fusion input, computes where the
 * result's elements live in the input's buffer (element offset and strides,
 * static or symbolic), and replaces the chain by one `fuser.view` that
 * consumers read directly: no kernel, no copy. A fusion output that is such
 * a view (or an input itself) is marked `fuser.alias_of = <argument>`: the
 * host makes it by pointer arithmetic. A reshape that merges dims which are
 * not contiguous in memory is not a view and stays a real op. Extents of `?`
 * input dims that the fusion pins to a static value (a broadcast_in_dim to
 * 1024) are recorded as `fuser.known_extents` on the argument (-1: unknown):
 * views use them, and the runtime checks them. What else the views rely on
 * at run time (a slice of a `?` dim stays inside it, a reshape of `?` dims
 * keeps the element count, dims mapped onto each other have equal extents)
 * becomes host SSA ending in a `fuser.check` (i64 sizes, a compare, the
 * message naming the op; see store_checks), which the runtime checks
 * before any launch.
 *
 * Before:
 *   %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
 *   %1 = "fuser.slice"(%0) {start_indices = array<i64: 2, 0>, end_indices = array<i64: 6, 4>,
 *                           strides = array<i64: 1, 1>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
 *   %2 = "fuser.neg"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
 * After:
 *   %0 = "fuser.view"(%arg0) {static_offset = 2 : i64, static_strides = array<i64: 1, 8>}
 *        : (tensor<4x8xf32>) -> tensor<4x4xf32>
 *   %1 = "fuser.neg"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/dim_graph.h"
#include "passes/input_checks.h"
#include "passes/ir_util.h"
#include "passes/layout.h"
#include "passes/pass.h"
#include "passes/ptr_map.h"
#include "support/location.h"

typedef struct {
  MlirOperation func;
  MlirBlock body;
  fuser_ptr_map index; /* value -> index into layouts */
  fuser_layout *layouts;
  int count, cap;
  /* run-time checks on the inputs that the views rely on (slices within
   * extents, reshapes keeping the element count, equal mapped extents):
   * fuser.check ops at the end of the fusion (store_checks) */
  fuser_input_check *checks;
  int nchecks;
} alias_state;

/* Records that lhs `rel` rhs must hold at run time (once; the first
 * message is kept), with a message saying what needs it (printf-style;
 * `op`, when not null, puts its location and name in front); false when
 * a side overflowed the polynomial capacity: the view then cannot be
 * relied on and is not made. */
static bool add_check(alias_state *st, MlirOperation op, fuser_check_relation rel, fuser_poly lhs, fuser_poly rhs,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static bool add_check(alias_state *st, MlirOperation op, fuser_check_relation rel, fuser_poly lhs, fuser_poly rhs,
                      const char *fmt, ...) {
  if (lhs.overflow || rhs.overflow) return false;
  for (int i = 0; i < st->nchecks; i++)
    if (st->checks[i].rel == rel && fuser_poly_equal(&st->checks[i].lhs, &lhs) && fuser_poly_equal(&st->checks[i].rhs, &rhs))
      return true;
  st->checks = realloc(st->checks, sizeof *st->checks * (st->nchecks + 1));
  fuser_input_check *c = &st->checks[st->nchecks++];
  *c = (fuser_input_check){.rel = rel, .lhs = lhs, .rhs = rhs};
  size_t used = 0;
  if (!mlirOperationIsNull(op)) {
    char where[160];
    fuser_location_text(mlirOperationGetLocation(op), where, sizeof where);
    const char *name = fuser_op_mnemonic(fuser_op_id_of(op)); /* "reshape", "slice": nvFuser's names */
    int n = snprintf(c->message, sizeof c->message, "%s: %s ", where, name);
    used = n < 0 ? 0 : (size_t)n < sizeof c->message ? (size_t)n : sizeof c->message - 1;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->message + used, sizeof c->message - used, fmt, ap);
  va_end(ap);
  return true;
}

static const fuser_layout *layout_of(alias_state *st, MlirValue v) {
  intptr_t i;
  return fuser_ptr_map_get(&st->index, v.ptr, &i) ? &st->layouts[i] : NULL;
}

static void set_layout(alias_state *st, MlirValue v, const fuser_layout *l) {
  if (st->count == st->cap) st->layouts = realloc(st->layouts, sizeof *st->layouts * (st->cap = st->cap ? st->cap * 2 : 32));
  st->layouts[st->count] = *l;
  fuser_ptr_map_put(&st->index, v.ptr, st->count++);
}

/* Meta ops that can be views; a set with its own stride order
 * (fd.ops.stride_order) is a copy into that layout. */
static bool is_view_op(MlirOperation op) {
  if (fuser_op_is_layout_set(op)) return false;
  switch (fuser_op_id_of(op)) {
  case FUSER_OP_set: case FUSER_OP_segment_set: case FUSER_OP_permute: case FUSER_OP_slice:
  case FUSER_OP_squeeze: case FUSER_OP_broadcast: case FUSER_OP_broadcast_in_dim: case FUSER_OP_expand:
  case FUSER_OP_reshape:
    return true;
  default:
    return false;
  }
}

/* The value of a shape operand: a constant, or a scalar argument. */
static bool scalar_poly(alias_state *st, MlirValue v, fuser_poly *out) {
  if (mlirValueIsABlockArgument(v)) {
    if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), st->body)) return false;
    *out = fuser_poly_sym(FUSER_SYM_SCALAR, (int)mlirBlockArgumentGetArgNumber(v), 0);
    return true;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  int64_t value;
  if (fuser_op_id_of(def) != FUSER_OP_scalar || !fuser_get_i64(def, "value", &value)) return false;
  *out = fuser_poly_const(value);
  return true;
}

/* Sizes of the result: static from its type; `?` dims of shape-taking ops
 * from their shape operands, of the others from the input layout. */
static bool result_sizes(alias_state *st, MlirOperation op, const fuser_poly *fallback, fuser_poly *out) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int rank = (int)mlirShapedTypeGetRank(t), next = 1;
  bool shaped = fuser_op_kind_of(fuser_op_id_of(op)) == FUSER_KIND_SHAPED;
  for (int d = 0; d < rank; d++) {
    if (!mlirShapedTypeIsDynamicDim(t, d)) out[d] = fuser_poly_const(mlirShapedTypeGetDimSize(t, d));
    else if (shaped) {
      if (!scalar_poly(st, mlirOperationGetOperand(op, next++), &out[d])) return false;
    } else if (fallback) out[d] = fallback[d];
    else return false;
  }
  return true;
}

static bool const_sizes(const fuser_poly *p, int n, int64_t *out) {
  for (int i = 0; i < n; i++)
    if (!fuser_poly_is_const(&p[i], &out[i])) return false;
  return true;
}

static fuser_poly scaled(fuser_poly p, int64_t k) { return fuser_poly_mul(p, fuser_poly_const(k)); }

/* Row-major strides of `size` times `base`. */
static void row_major(int rank, const fuser_poly *size, fuser_poly base, fuser_poly *stride) {
  fuser_poly inner = base;
  for (int d = rank - 1; d >= 0; d--) {
    stride[d] = inner;
    inner = fuser_poly_mul(inner, size[d]);
  }
}

static bool is_one(const fuser_poly *p) {
  int64_t v;
  return fuser_poly_is_const(p, &v) && v == 1;
}

/* Is the layout dense row-major over its non-size-1 dims, with innermost
 * stride `*base`? */
static bool dense(const fuser_layout *in, fuser_poly *base) {
  int last = -1;
  for (int d = in->rank - 1; d >= 0; d--) {
    if (is_one(&in->size[d])) continue;
    if (last < 0) *base = in->stride[d];
    else {
      fuser_poly want = fuser_poly_mul(in->stride[last], in->size[last]);
      if (!fuser_poly_equal(&in->stride[d], &want)) return false;
    }
    last = d;
  }
  if (last < 0) *base = fuser_poly_const(1);
  return true;
}

/* A reshape as a view (PyTorch's view rule): each group of input dims that
 * is contiguous in memory maps onto a group of output dims with the same
 * element count. */
static bool reshape_layout(const fuser_layout *in, int out_rank, const fuser_poly *out_size, fuser_layout *out) {
  fuser_poly base;
  if (dense(in, &base)) {
    row_major(out_rank, out_size, base, out->stride);
    return true;
  }
  int64_t isz[FUSER_MAX_RANK], osz[FUSER_MAX_RANK];
  if (!const_sizes(in->size, in->rank, isz) || !const_sizes(out_size, out_rank, osz)) return false;
  for (int d = 0; d < out_rank; d++)
    if (osz[d] == 0) { /* empty: any strides do */
      row_major(out_rank, out_size, fuser_poly_const(1), out->stride);
      return true;
    }
  int view_d = out_rank - 1;
  fuser_poly chunk_base = in->rank ? in->stride[in->rank - 1] : fuser_poly_const(1);
  int64_t tensor_numel = 1, view_numel = 1;
  for (int td = in->rank - 1; td >= 0; td--) {
    tensor_numel *= isz[td];
    bool chunk_ends = td == 0;
    if (!chunk_ends && isz[td - 1] != 1) {
      fuser_poly want = scaled(chunk_base, tensor_numel);
      chunk_ends = !fuser_poly_equal(&in->stride[td - 1], &want);
    }
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || osz[view_d] == 1)) {
      out->stride[view_d] = scaled(chunk_base, view_numel);
      view_numel *= osz[view_d--];
    }
    if (view_numel != tensor_numel) return false;
    if (td > 0) {
      chunk_base = in->stride[td - 1];
      tensor_numel = view_numel = 1;
    }
  }
  return view_d == -1;
}

/* The layout of a meta op's result from its input's. */
static bool transfer(alias_state *st, MlirOperation op, const fuser_layout *in, fuser_layout *out) {
  fuser_op_id id = fuser_op_id_of(op);
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t a[FUSER_MAX_RANK], b[FUSER_MAX_RANK];
  *out = *in;
  out->rank = rank;
  switch (id) {
  case FUSER_OP_set:
  case FUSER_OP_segment_set:
    return true;
  case FUSER_OP_permute:
    fuser_get_i64_array(op, "dims", a, FUSER_MAX_RANK);
    for (int d = 0; d < rank; d++) out->size[d] = in->size[a[d]], out->stride[d] = in->stride[a[d]];
    return true;
  case FUSER_OP_slice:
    fuser_get_i64_array(op, "start_indices", a, FUSER_MAX_RANK);
    fuser_get_i64_array(op, "end_indices", b, FUSER_MAX_RANK);
    for (int d = 0; d < rank; d++) {
      int64_t extent;
      if (!fuser_poly_is_const(&in->size[d], &extent) && b[d] > 0 && /* the slice must stay inside */
          !add_check(st, op, FUSER_CHECK_GE, in->size[d], fuser_poly_const(b[d]), "ends at %lld in dim %d", (long long)b[d], d))
        return false;
      out->offset = fuser_poly_add(out->offset, scaled(in->stride[d], a[d]));
      out->size[d] = fuser_poly_const(b[d] - a[d]);
    }
    return !out->offset.overflow;
  case FUSER_OP_squeeze: {
    int n = fuser_get_i64_array(op, "dims", a, FUSER_MAX_RANK), k = 0;
    for (int d = 0; d < in->rank; d++) {
      bool drop = false;
      for (int i = 0; i < n; i++) drop |= a[i] == d;
      if (!drop) out->size[k] = in->size[d], out->stride[k++] = in->stride[d];
    }
    return true;
  }
  case FUSER_OP_broadcast: {
    fuser_get_i64_array(op, "is_broadcast_dim", a, FUSER_MAX_RANK);
    for (int d = 0, j = 0; d < rank; d++) {
      if (a[d]) out->size[d] = fuser_poly_const(1), out->stride[d] = fuser_poly_const(0);
      else out->size[d] = in->size[j], out->stride[d] = in->stride[j], j++;
    }
    return true;
  }
  case FUSER_OP_broadcast_in_dim:
  case FUSER_OP_expand: {
    fuser_poly size[FUSER_MAX_RANK];
    if (!result_sizes(st, op, NULL, size)) return false;
    int n = in->rank;
    if (id == FUSER_OP_broadcast_in_dim) fuser_get_i64_array(op, "broadcast_dims", a, FUSER_MAX_RANK);
    else for (int i = 0; i < n; i++) a[i] = i;
    for (int d = 0; d < rank; d++) out->size[d] = size[d], out->stride[d] = fuser_poly_const(0);
    for (int i = 0; i < n; i++)
      if (!is_one(&in->size[i])) out->stride[a[i]] = in->stride[i]; /* a real dim keeps its stride */
    return true;
  }
  case FUSER_OP_reshape: {
    fuser_poly size[FUSER_MAX_RANK];
    if (!result_sizes(st, op, NULL, size)) return false;
    for (int d = 0; d < rank; d++) out->size[d] = size[d];
    if (!reshape_layout(in, rank, size, out)) return false;
    fuser_poly n_in = fuser_poly_const(1), n_out = fuser_poly_const(1);
    for (int d = 0; d < in->rank; d++) n_in = fuser_poly_mul(n_in, in->size[d]);
    for (int d = 0; d < rank; d++) n_out = fuser_poly_mul(n_out, size[d]);
    /* symbolic: the run-time count must match */
    return fuser_poly_equal(&n_in, &n_out) || add_check(st, op, FUSER_CHECK_EQ, n_in, n_out, "keeps the element count");
  }
  default:
    return false;
  }
}

static bool has_layout_free_use(alias_state *st, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    bool viewed = is_view_op(user) && mlirOpOperandGetOperandNumber(u) == 0 &&
                  layout_of(st, mlirOperationGetResult(user, 0));
    if (!viewed) return true;
  }
  return false;
}

/* Emits `fuser.view` of the layout's argument before `anchor`. */
static MlirValue emit_view(alias_state *st, const fuser_layout *l, MlirType type, MlirOperation anchor) {
  MlirContext ctx = mlirOperationGetContext(anchor);
  int64_t dyn = mlirShapedTypeGetDynamicSize(), offset, strides[FUSER_MAX_RANK];
  MlirValue ops[1 + 3 * FUSER_MAX_RANK];
  int n = 0;
  ops[n++] = mlirBlockGetArgument(st->body, l->arg);
  if (!fuser_poly_is_const(&l->offset, &offset)) {
    offset = dyn;
    ops[n++] = fuser_poly_emit(&l->offset, anchor, st->body);
  }
  for (int d = 0; d < l->rank; d++)
    if (mlirShapedTypeIsDynamicDim(type, d)) ops[n++] = fuser_poly_emit(&l->size[d], anchor, st->body);
  for (int d = 0; d < l->rank; d++)
    if (!fuser_poly_is_const(&l->stride[d], &strides[d])) {
      strides[d] = dyn;
      ops[n++] = fuser_poly_emit(&l->stride[d], anchor, st->body);
    }
  MlirNamedAttribute attrs[2] = {
      fuser_named(ctx, "static_offset", fuser_i64_attr(ctx, offset)),
      fuser_named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, l->rank, strides)),
  };
  MlirOperation view = fuser_create_op(mlirOperationGetLocation(anchor), "fuser.view", n, ops, 1, &type, 2, attrs);
  fuser_insert_before(anchor, view);
  return mlirOperationGetResult(view, 0);
}

static void mark_aliases(alias_state *st) {
  MlirOperation ret = mlirBlockGetTerminator(st->body);
  MlirContext ctx = mlirOperationGetContext(st->func);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    int arg = -1;
    if (mlirValueIsABlockArgument(v)) arg = (int)mlirBlockArgumentGetArgNumber(v);
    else if (fuser_op_id_of(mlirOpResultGetOwner(v)) == FUSER_OP_view)
      arg = (int)mlirBlockArgumentGetArgNumber(mlirOperationGetOperand(mlirOpResultGetOwner(v), 0));
    if (arg >= 0) fuser_func_set_result_attr(st->func, (int)i, "fuser.alias_of", fuser_i64_attr(ctx, arg));
  }
}

/* Input dims the fusion maps onto each other must have equal extents at
 * run time: one check per `?` dim against the first such dim of its class. */
static void add_extent_checks(alias_state *st, fuser_dim_graph *g) {
  int nargs = (int)mlirBlockGetNumArguments(st->body);
  for (int i = 0; i < nargs; i++) {
    MlirValue a = mlirBlockGetArgument(st->body, i);
    MlirType t = mlirValueGetType(a);
    if (!mlirTypeIsARankedTensor(t)) continue;
    for (int d = 0; d < mlirShapedTypeGetRank(t); d++) {
      if (!mlirShapedTypeIsDynamicDim(t, d)) continue;
      int cls = fuser_dim_class(g, fuser_dim_node(g, a, d));
      if (fuser_dim_static_extent(g, fuser_dim_node(g, a, d)) != mlirShapedTypeGetDynamicSize()) continue;
      for (int j = 0; j <= i; j++) { /* the first dynamic dim of the class */
        MlirValue b = mlirBlockGetArgument(st->body, j);
        MlirType u = mlirValueGetType(b);
        if (!mlirTypeIsARankedTensor(u)) continue;
        int found = -1;
        for (int e = 0; e < mlirShapedTypeGetRank(u) && (j < i || e < d) && found < 0; e++)
          if (mlirShapedTypeIsDynamicDim(u, e) && fuser_dim_class(g, fuser_dim_node(g, b, e)) == cls) found = e;
        if (found >= 0) {
          add_check(st, (MlirOperation){NULL}, FUSER_CHECK_EQ, fuser_poly_sym(FUSER_SYM_SIZE, i, d),
                    fuser_poly_sym(FUSER_SYM_SIZE, j, found), "the fusion maps dim %d of input %d onto dim %d of input %d", d, i,
                    found, j);
          j = i + 1; /* one check per dim */
        }
      }
    }
  }
}

/* Each check becomes host SSA at the start of the fusion (it reads only
 * the inputs' sizes), so the plan and the reference refuse the call before
 * anything reads a view that relies on it:
 *   %0 = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
 *   %1 = "fuser.scalar"() {value = 4 : i64} : () -> i64
 *   %2 = "fuser.ge"(%0, %1) : (i64, i64) -> i1
 *   "fuser.check"(%2) {message = "f.py:2:8: slice ends at 4 in dim 0"} : (i1) -> ()
 */
static void store_checks(alias_state *st) {
  if (!st->nchecks) return;
  MlirContext ctx = mlirOperationGetContext(st->func);
  MlirOperation first = mlirBlockGetFirstOperation(st->body);
  MlirLocation loc = mlirOperationGetLocation(st->func);
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  for (int i = 0; i < st->nchecks; i++) { /* no overflow: add_check */
    const fuser_input_check *c = &st->checks[i];
    MlirValue sides[2] = {fuser_poly_emit(&c->lhs, first, st->body), fuser_poly_emit(&c->rhs, first, st->body)};
    MlirOperation cmp = fuser_create_op(loc, c->rel == FUSER_CHECK_GE ? "fuser.ge" : "fuser.eq", 2, sides, 1, &i1, 0, NULL);
    fuser_insert_before(first, cmp);
    MlirValue cond = mlirOperationGetResult(cmp, 0);
    MlirNamedAttribute msg =
        fuser_named(ctx, "message", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(c->message[0] ? c->message : "input check")));
    fuser_insert_before(first, fuser_create_op(loc, "fuser.check", 1, &cond, 0, NULL, 1, &msg));
  }
  free(st->checks);
}

static bool alias_fusion(MlirOperation func, void *ud) {
  alias_state st = {.func = func, .body = fuser_func_body(func)};
  fuser_ptr_map_init(&st.index);
  /* Extents the fusion pins down (a `?` input dim broadcast to a static
   * extent has that extent) make more strides static. */
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, func);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(st.body); i++) {
    MlirValue arg = mlirBlockGetArgument(st.body, i);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(arg))) continue;
    int64_t known[FUSER_MAX_RANK], recorded[FUSER_MAX_RANK];
    int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(arg));
    bool refined = false;
    for (int d = 0; d < rank; d++) {
      known[d] = fuser_dim_static_extent(&g, fuser_dim_node(&g, arg, d));
      bool was_dynamic = mlirShapedTypeIsDynamicDim(mlirValueGetType(arg), d);
      recorded[d] = was_dynamic && known[d] != mlirShapedTypeGetDynamicSize() ? known[d] : -1;
      refined |= recorded[d] >= 0;
    }
    /* The run-time inputs must have these extents: the plan checks them. */
    if (refined)
      fuser_func_set_arg_attr(func, (int)i, "fuser.known_extents", mlirDenseI64ArrayGet(mlirOperationGetContext(func), rank, recorded));
    fuser_layout l;
    if (fuser_arg_layout(func, (int)i, known, &l)) set_layout(&st, arg, &l);
  }
  add_extent_checks(&st, &g);
  fuser_dim_graph_free(&g);
  /* Forward: layouts of meta-op results. */
  for (MlirOperation op = mlirBlockGetFirstOperation(st.body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_view_op(op)) continue;
    const fuser_layout *in = layout_of(&st, mlirOperationGetOperand(op, 0));
    fuser_layout out;
    if (in && transfer(&st, op, in, &out)) set_layout(&st, mlirOperationGetResult(op, 0), &out);
  }
  /* Replace each viewed value that something other than a meta op reads. */
  for (MlirOperation op = mlirBlockGetFirstOperation(st.body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_view_op(op)) continue;
    MlirValue v = mlirOperationGetResult(op, 0);
    const fuser_layout *l = layout_of(&st, v);
    if (!l || !has_layout_free_use(&st, v)) continue;
    MlirValue view = emit_view(&st, l, mlirValueGetType(v), op);
    mlirValueReplaceAllUsesOfWith(v, view);
  }
  fuser_erase_dead_ops(st.body);
  mark_aliases(&st);
  store_checks(&st);
  fuser_ptr_map_free(&st.index);
  free(st.layouts);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  return fuser_for_each_fusion(op, alias_fusion, NULL);
}

const fuser_pass_info fuser_alias_meta_ops_pass = {
    .argument = "fuser-alias-meta-ops",
    .description = "Turn meta-op chains on fusion inputs into strided views; mark output aliases",
    .anchor = "builtin.module",
    .run = run,
};
