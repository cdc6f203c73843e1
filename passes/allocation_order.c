/* fuser-allocation-order: every intermediate and output gets a stride order
 * inferred from the inputs, with nvFuser's rule after PR #2630.
 *
 * References are the tensors the computation reads from memory: the fusion's
 * tensor arguments, and the `fuser.view` results that fuser-alias-meta-ops
 * made of them (the pass runs after it). An argument's allocation order is
 * its `fuser.stride_order`, its broadcast dims those with contiguity None or
 * extent 1. A view's allocation order is its dims sorted by stride, largest
 * outermost, ties in logical order; dims with stride 0 or extent 1 are its
 * broadcast dims. Symbolic strides are compared at a generic point: every
 * `?` extent and scalar argument 2^16, arguments strided densely in their
 * stride_order (what the view's stride polynomials mean for a large input).
 * So a view of a 3-D input in the layout (2, 16, 1024, 16) : (589824, 32,
 * 576, 1) is allocated {0, 2, 1, 3}, exactly as an as_strided argument with
 * stride_order [3, 1, 2, 0]: the two forms of nvFuser #2613 get one order.
 *
 * For a tensor T: the reference is the one T depends on with the most
 * non-broadcast dims. Walk the reference's allocation order from its
 * innermost dim outward and carry over only the consecutive run of dims
 * that T has (exact-mapped, dim_graph.h); stop at the first one it lacks.
 * Those dims go innermost in T, in the reference's order; T's other dims
 * keep their logical order outside them. No mapping: row-major. Ties
 * between references that map differently: row-major. A matmul/linear
 * result is a new row-major tensor that no reference reaches (nvFuser
 * leaves Linear/Matmul outputs out of the inference). An explicit
 * `add_output(..., stride_order=)` (a `fuser.stride_order` result attribute
 * already present) wins, and so does the order of an `fd.ops.stride_order`
 * (a `fuser.set` that carries its own `fuser.stride_order`).
 *
 * The order is written as `fuser.stride_order` on the op producing each
 * tensor and on the function results. Views get none (their layout is
 * given). Run alone on IR with meta ops of inputs still in it, those are
 * left alone too (they become views) and map dims through the dim graph.
 *
 * Before (a column-major input, and a view of it with the dims swapped):
 *   func.func @f(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>,
 *                                        fuser.stride_order = array<i64: 0, 1>}) ... {
 *     %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
 *     %1 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 4, 1>}
 *          : (tensor<4x8xf32>) -> tensor<8x4xf32>
 *     %2 = "fuser.exp"(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
 * After:
 *     %0 = "fuser.neg"(%arg0) {fuser.stride_order = array<i64: 0, 1>} : ...
 *     %1 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 4, 1>} ...
 *     %2 = "fuser.exp"(%1) {fuser.stride_order = array<i64: 1, 0>} : ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/allocation_order.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

/* The extent assumed for `?` dims and scalar arguments when symbolic
 * strides are compared. */
#define GENERIC_EXTENT 65536.0

typedef struct {
  MlirValue value; /* a tensor argument or a fuser.view result */
  int rank;
  int order[FUSER_MAX_RANK]; /* allocation order: logical dims, outermost first */
  bool broadcast[FUSER_MAX_RANK];
  int real_dims;
  double generic_stride[FUSER_MAX_RANK]; /* arguments: strides at the generic point */
} reference;

static double generic_extent(MlirType t, int d) {
  if (mlirShapedTypeIsDynamicDim(t, d)) return GENERIC_EXTENT;
  int64_t e = mlirShapedTypeGetDimSize(t, d);
  return e > 1 ? (double)e : 1.0;
}

static void read_arg(MlirOperation func, MlirValue arg, int index, reference *a) {
  MlirType t = mlirValueGetType(arg);
  a->value = arg;
  a->rank = (int)mlirShapedTypeGetRank(t);
  int64_t so[FUSER_MAX_RANK], contig[FUSER_MAX_RANK];
  int n = a->rank;
  for (int d = 0; d < n; d++) {
    so[d] = n - 1 - d;
    contig[d] = 1;
  }
  MlirAttribute s = fuser_func_arg_attr(func, index, "fuser.stride_order");
  if (!mlirAttributeIsNull(s) && mlirDenseArrayGetNumElements(s) == n)
    for (int d = 0; d < n; d++) so[d] = mlirDenseI64ArrayGetElement(s, d);
  MlirAttribute c = fuser_func_arg_attr(func, index, "fuser.contiguity");
  if (!mlirAttributeIsNull(c) && mlirDenseArrayGetNumElements(c) == n)
    for (int p = 0; p < n; p++) contig[p] = mlirDenseI64ArrayGetElement(c, p);
  a->real_dims = 0;
  for (int d = 0; d < n; d++) {
    int pos = n - 1 - (int)so[d];
    a->order[pos] = d;
    a->broadcast[d] = contig[pos] < 0 || mlirShapedTypeGetDimSize(t, d) == 1;
    a->real_dims += !a->broadcast[d];
  }
  double inner = 1.0;
  for (int pos = n - 1; pos >= 0; pos--) {
    int d = a->order[pos];
    a->generic_stride[d] = a->broadcast[d] && contig[pos] < 0 ? 0.0 : inner;
    inner *= generic_extent(t, d);
  }
}

typedef struct {
  MlirOperation func;
  MlirBlock body;
  fuser_dim_graph g;
  reference *refs;
  int nrefs, cap;
  fuser_ptr_map ref_of_arg; /* block argument -> index into refs */
  int words;                /* 64-bit words per dependency set */
  uint64_t *sets;           /* dependency sets, `words` each */
  int nsets, set_cap;
  fuser_ptr_map deps;       /* value -> index of its dependency set */
  fuser_ptr_map input_view; /* value -> 1 when it is an input or a meta op chain of one */
} order_state;

/* The value of an i64 host expression (the symbolic operands of a view) at
 * the generic point. */
static double generic_value(order_state *st, MlirValue v, int depth) {
  if (depth > 64 || mlirValueIsABlockArgument(v)) return GENERIC_EXTENT; /* a scalar argument */
  MlirOperation op = mlirOpResultGetOwner(v);
  int64_t value;
  switch (fuser_op_id_of(op)) {
  case FUSER_OP_scalar:
    return fuser_get_i64(op, "value", &value) ? (double)value : GENERIC_EXTENT;
  case FUSER_OP_add:
  case FUSER_OP_mul: {
    double x = generic_value(st, mlirOperationGetOperand(op, 0), depth + 1);
    double y = generic_value(st, mlirOperationGetOperand(op, 1), depth + 1);
    return fuser_op_id_of(op) == FUSER_OP_add ? x + y : x * y;
  }
  case FUSER_OP_size:
  case FUSER_OP_stride: {
    MlirValue t = mlirOperationGetOperand(op, 0);
    intptr_t r;
    if (!fuser_get_i64(op, "dim", &value) || value < 0 || !mlirTypeIsARankedTensor(mlirValueGetType(t)) ||
        value >= mlirShapedTypeGetRank(mlirValueGetType(t)))
      return GENERIC_EXTENT;
    if (fuser_op_id_of(op) == FUSER_OP_size) return generic_extent(mlirValueGetType(t), (int)value);
    if (!fuser_ptr_map_get(&st->ref_of_arg, t.ptr, &r)) return GENERIC_EXTENT;
    return st->refs[r].generic_stride[value];
  }
  default:
    return GENERIC_EXTENT;
  }
}

/* A view's allocation order: its dims by stride, largest outermost, ties in
 * logical order (a stable insertion sort). */
static void read_view(order_state *st, MlirOperation view, reference *a) {
  MlirValue v = mlirOperationGetResult(view, 0);
  MlirType t = mlirValueGetType(v);
  int n = (int)mlirShapedTypeGetRank(t);
  int64_t dyn = mlirShapedTypeGetDynamicSize(), offset = 0, strides[FUSER_MAX_RANK];
  double stride[FUSER_MAX_RANK];
  fuser_get_i64(view, "static_offset", &offset);
  int got = fuser_get_i64_array(view, "static_strides", strides, FUSER_MAX_RANK);
  /* Operands: the input, the offset if dynamic, the `?` sizes, the dynamic strides. */
  intptr_t next = 1 + (offset == dyn);
  for (int d = 0; d < n; d++) next += mlirShapedTypeIsDynamicDim(t, d);
  a->value = v;
  a->rank = n;
  a->real_dims = 0;
  for (int d = 0; d < n; d++) {
    if (d >= got) stride[d] = 0.0;
    else if (strides[d] != dyn) stride[d] = (double)strides[d];
    else if (next < mlirOperationGetNumOperands(view)) stride[d] = generic_value(st, mlirOperationGetOperand(view, next++), 0);
    else stride[d] = GENERIC_EXTENT;
    a->broadcast[d] = stride[d] == 0.0 || mlirShapedTypeGetDimSize(t, d) == 1;
    a->real_dims += !a->broadcast[d];
    a->generic_stride[d] = stride[d];
    int pos = d;
    while (pos > 0 && stride[a->order[pos - 1]] < stride[d]) {
      a->order[pos] = a->order[pos - 1];
      pos--;
    }
    a->order[pos] = d;
  }
}

static int add_reference(order_state *st) {
  if (st->nrefs == st->cap) st->refs = realloc(st->refs, sizeof *st->refs * (st->cap = st->cap ? st->cap * 2 : 16));
  memset(&st->refs[st->nrefs], 0, sizeof *st->refs);
  return st->nrefs++;
}

static uint64_t *new_set(order_state *st, int *index) {
  if (st->nsets == st->set_cap)
    st->sets = realloc(st->sets, sizeof *st->sets * st->words * (st->set_cap = st->set_cap ? st->set_cap * 2 : 64));
  uint64_t *s = st->sets + (size_t)st->nsets * st->words;
  memset(s, 0, sizeof *s * st->words);
  *index = st->nsets++;
  return s;
}

static const uint64_t *deps_of(order_state *st, MlirValue v) {
  intptr_t i;
  return fuser_ptr_map_get(&st->deps, v.ptr, &i) ? st->sets + (size_t)i * st->words : NULL;
}

static bool depends_on(const uint64_t *deps, int ref) { return deps && (deps[ref / 64] >> (ref % 64) & 1); }

/* The dims of T (innermost first) that the reference's innermost run maps to. */
static int map_innermost(fuser_dim_graph *g, const reference *a, MlirValue t, int *mapped) {
  int trank = (int)mlirShapedTypeGetRank(mlirValueGetType(t)), n = 0;
  for (int pos = a->rank - 1; pos >= 0; pos--) {
    int rd = a->order[pos];
    if (a->broadcast[rd]) continue;
    int cls = fuser_dim_class(g, fuser_dim_node(g, a->value, rd)), found = -1;
    for (int td = 0; td < trank && found < 0; td++)
      if (fuser_dim_class(g, fuser_dim_node(g, t, td)) == cls) found = td;
    if (found < 0) break;
    bool dup = false;
    for (int i = 0; i < n; i++) dup |= mapped[i] == found;
    if (!dup) mapped[n++] = found;
  }
  return n;
}

/* stride_order of T given its mapped innermost dims. */
static void stride_order_of(int rank, const int *mapped, int n, int64_t *so) {
  int order[FUSER_MAX_RANK], k = 0; /* outermost first */
  for (int d = 0; d < rank; d++) {
    bool is_mapped = false;
    for (int i = 0; i < n; i++) is_mapped |= mapped[i] == d;
    if (!is_mapped) order[k++] = d;
  }
  for (int i = n - 1; i >= 0; i--) order[k++] = mapped[i];
  for (int pos = 0; pos < rank; pos++) so[order[pos]] = rank - 1 - pos;
}

static void infer_order(order_state *st, MlirValue t, int64_t *so) {
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(t));
  const uint64_t *deps = deps_of(st, t);
  int best = -1;
  for (int i = 0; i < st->nrefs; i++)
    if (depends_on(deps, i) && (best < 0 || st->refs[i].real_dims > st->refs[best].real_dims)) best = i;
  int mapped[FUSER_MAX_RANK], n = 0;
  if (best >= 0) {
    n = map_innermost(&st->g, &st->refs[best], t, mapped);
    for (int i = 0; i < st->nrefs && n > 0; i++) { /* ties must agree */
      if (i == best || !depends_on(deps, i) || st->refs[i].real_dims != st->refs[best].real_dims) continue;
      int other[FUSER_MAX_RANK];
      int m = map_innermost(&st->g, &st->refs[i], t, other);
      if (m != n || memcmp(other, mapped, sizeof(int) * n) != 0) n = 0;
    }
  }
  stride_order_of(rank, mapped, n, so);
}

static bool is_meta(fuser_op_id id) {
  fuser_op_kind k = fuser_op_kind_of(id);
  return k == FUSER_KIND_META || k == FUSER_KIND_SHAPED;
}

/* Every reference the body can have: one per tensor argument and view. */
static int count_references(MlirBlock body) {
  int n = 0;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++)
    n += mlirTypeIsARankedTensor(mlirValueGetType(mlirBlockGetArgument(body, i)));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n += fuser_op_id_of(op) == FUSER_OP_view;
  return n;
}

static void set_single_dep(order_state *st, MlirValue v, int ref) {
  int index;
  uint64_t *s = new_set(st, &index);
  s[ref / 64] |= 1ull << (ref % 64);
  fuser_ptr_map_put(&st->deps, v.ptr, index);
}

static bool order_fusion(MlirOperation func, void *ud) {
  order_state st = {.func = func, .body = fuser_func_body(func)};
  MlirContext ctx = mlirOperationGetContext(func);
  fuser_dim_graph_build(&st.g, func);
  fuser_ptr_map_init(&st.ref_of_arg);
  fuser_ptr_map_init(&st.deps);
  fuser_ptr_map_init(&st.input_view);
  st.words = (count_references(st.body) + 63) / 64 + 1;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(st.body); i++) {
    MlirValue a = mlirBlockGetArgument(st.body, i);
    fuser_ptr_map_put(&st.input_view, a.ptr, 1);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(a))) continue;
    int r = add_reference(&st);
    read_arg(func, a, (int)i, &st.refs[r]);
    fuser_ptr_map_put(&st.ref_of_arg, a.ptr, r);
    set_single_dep(&st, a, r);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(st.body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_NONE || mlirOperationGetNumResults(op) == 0) continue;
    MlirValue r0 = mlirOperationGetResult(op, 0);
    if (id == FUSER_OP_view) { /* a reference of its own */
      int r = add_reference(&st);
      read_view(&st, op, &st.refs[r]);
      set_single_dep(&st, r0, r);
      continue;
    }
    int index;
    uint64_t *deps = new_set(&st, &index);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      const uint64_t *d = deps_of(&st, mlirOperationGetOperand(op, i));
      for (int w = 0; d && w < st.words; w++) deps[w] |= d[w];
    }
    bool view = is_meta(id) && fuser_ptr_map_get(&st.input_view, mlirOperationGetOperand(op, 0).ptr, NULL);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue v = mlirOperationGetResult(op, r);
      fuser_ptr_map_put(&st.deps, v.ptr, index);
      if (view) fuser_ptr_map_put(&st.input_view, v.ptr, 1);
    }
    if (view || !mlirTypeIsARankedTensor(mlirValueGetType(r0))) continue;
    int64_t so[FUSER_MAX_RANK];
    int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(r0));
    if (fuser_op_is_layout_set(op)) continue; /* fd.ops.stride_order: its order is given */
    if (fuser_op_kind_of(id) == FUSER_KIND_MATMUL) { /* a new row-major tensor, as nvFuser (ATen) makes it */
      for (int d = 0; d < rank; d++) so[d] = rank - 1 - d;
      memset(deps, 0, sizeof *deps * st.words);
    } else {
      infer_order(&st, r0, so);
    }
    mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.stride_order"),
                                               mlirDenseI64ArrayGet(ctx, rank, so));
  }
  /* Outputs: the producer's order unless add_output gave one. */
  MlirOperation ret = mlirBlockGetTerminator(st.body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (!mlirAttributeIsNull(fuser_func_result_attr(func, (int)i, "fuser.stride_order"))) continue;
    if (mlirValueIsABlockArgument(v)) continue;
    MlirAttribute so = mlirOperationGetDiscardableAttributeByName(mlirOpResultGetOwner(v),
                                                                  mlirStringRefCreateFromCString("fuser.stride_order"));
    if (!mlirAttributeIsNull(so)) fuser_func_set_result_attr(func, (int)i, "fuser.stride_order", so);
  }
  fuser_ptr_map_free(&st.ref_of_arg);
  fuser_ptr_map_free(&st.deps);
  fuser_ptr_map_free(&st.input_view);
  fuser_dim_graph_free(&st.g);
  free(st.refs);
  free(st.sets);
  return true;
}

bool fuser_allocation_order_fusion(MlirOperation func) { return order_fusion(func, NULL); }

static bool run(MlirOperation op, const fuser_pass_options *options) {
  return fuser_for_each_fusion(op, order_fusion, NULL);
}

const fuser_pass_info fuser_allocation_order_pass = {
    .argument = "fuser-allocation-order",
    .description = "Give intermediates and outputs nvFuser's inferred allocation order (stride_order)",
    .anchor = "builtin.module",
    .run = run,
};
