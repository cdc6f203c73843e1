/* fuser-allocation-order: every intermediate and output gets a stride order
 * inferred from the inputs, with nvFuser's rule after PR #2630.
 *
 * For a tensor T: the reference is the fusion input T depends on with the
 * most non-broadcast dims. Walk the reference's allocation order from its
 * innermost dim outward and carry over only the consecutive run of dims
 * that T has (exact-mapped, dim_graph.h); stop at the first one it lacks.
 * Those dims go innermost in T, in the reference's order; T's other dims
 * keep their logical order outside them. No mapping: row-major. Ties
 * between references that map differently: row-major. An explicit
 * `add_output(..., stride_order=)` (a `fuser.stride_order` result attribute
 * already present) wins.
 *
 * The order is written as `fuser.stride_order` on the op producing each
 * tensor and on the function results. Meta ops of inputs are left alone:
 * they become views, whose layout is the input's.
 *
 * Before (input allocated column-major):
 *   func.func @f(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>,
 *                                        fuser.stride_order = array<i64: 0, 1>}) ... {
 *     %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
 * After:
 *     %0 = "fuser.neg"(%arg0) {fuser.stride_order = array<i64: 0, 1>} : ...
 */
#include <stdint.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

#define MAX_ARGS 64

typedef struct {
  int rank;
  int order[FUSER_MAX_RANK]; /* allocation order: logical dims, outermost first */
  bool broadcast[FUSER_MAX_RANK];
  int real_dims;
} arg_alloc;

static void read_arg(MlirOperation func, MlirValue arg, int index, arg_alloc *a) {
  MlirType t = mlirValueGetType(arg);
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
}

/* The dims of T (innermost first) that the reference's innermost run maps to. */
static int map_innermost(fuser_dim_graph *g, MlirValue ref, const arg_alloc *a, MlirValue t, int *mapped) {
  int trank = (int)mlirShapedTypeGetRank(mlirValueGetType(t)), n = 0;
  for (int pos = a->rank - 1; pos >= 0; pos--) {
    int rd = a->order[pos];
    if (a->broadcast[rd]) continue;
    int cls = fuser_dim_class(g, fuser_dim_node(g, ref, rd)), found = -1;
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

typedef struct {
  MlirOperation func;
  MlirBlock body;
  fuser_dim_graph g;
  arg_alloc args[MAX_ARGS];
  bool is_tensor_arg[MAX_ARGS];
  int nargs;
  fuser_ptr_map deps;       /* value -> bitmask of arguments it depends on */
  fuser_ptr_map input_view; /* value -> 1 when it is an input or a meta op chain of one */
} order_state;

static uint64_t deps_of(order_state *st, MlirValue v) {
  intptr_t m = 0;
  fuser_ptr_map_get(&st->deps, v.ptr, &m);
  return (uint64_t)m;
}

static bool infer_order(order_state *st, MlirValue t, int64_t *so) {
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(t));
  uint64_t deps = deps_of(st, t);
  int best = -1;
  for (int i = 0; i < st->nargs; i++)
    if (st->is_tensor_arg[i] && (deps >> i & 1) && (best < 0 || st->args[i].real_dims > st->args[best].real_dims))
      best = i;
  int mapped[FUSER_MAX_RANK], n = 0;
  if (best >= 0) {
    n = map_innermost(&st->g, mlirBlockGetArgument(st->body, best), &st->args[best], t, mapped);
    for (int i = 0; i < st->nargs && n > 0; i++) { /* ties must agree */
      if (i == best || !st->is_tensor_arg[i] || !(deps >> i & 1) || st->args[i].real_dims != st->args[best].real_dims)
        continue;
      int other[FUSER_MAX_RANK];
      int m = map_innermost(&st->g, mlirBlockGetArgument(st->body, i), &st->args[i], t, other);
      if (m != n || memcmp(other, mapped, sizeof(int) * n) != 0) n = 0;
    }
  }
  stride_order_of(rank, mapped, n, so);
  return true;
}

static bool is_meta(fuser_op_id id) {
  fuser_op_kind k = fuser_op_kind_of(id);
  return k == FUSER_KIND_META || k == FUSER_KIND_SHAPED;
}

static bool order_fusion(MlirOperation func, void *ud) {
  order_state st = {.func = func, .body = fuser_func_body(func)};
  MlirContext ctx = mlirOperationGetContext(func);
  fuser_dim_graph_build(&st.g, func);
  fuser_ptr_map_init(&st.deps);
  fuser_ptr_map_init(&st.input_view);
  st.nargs = (int)mlirBlockGetNumArguments(st.body);
  if (st.nargs > MAX_ARGS) st.nargs = MAX_ARGS; /* later arguments never serve as references */
  for (int i = 0; i < st.nargs; i++) {
    MlirValue a = mlirBlockGetArgument(st.body, i);
    st.is_tensor_arg[i] = mlirTypeIsARankedTensor(mlirValueGetType(a));
    if (st.is_tensor_arg[i]) read_arg(func, a, i, &st.args[i]);
    fuser_ptr_map_put(&st.deps, a.ptr, (intptr_t)(1ull << i));
    fuser_ptr_map_put(&st.input_view, a.ptr, 1);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(st.body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_NONE) continue;
    uint64_t deps = 0;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) deps |= deps_of(&st, mlirOperationGetOperand(op, i));
    bool view = is_meta(id) && fuser_ptr_map_get(&st.input_view, mlirOperationGetOperand(op, 0).ptr, NULL);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue v = mlirOperationGetResult(op, r);
      fuser_ptr_map_put(&st.deps, v.ptr, (intptr_t)deps);
      if (view) fuser_ptr_map_put(&st.input_view, v.ptr, 1);
    }
    MlirValue r0 = mlirOperationGetResult(op, 0);
    if (view || !mlirTypeIsARankedTensor(mlirValueGetType(r0))) continue;
    int64_t so[FUSER_MAX_RANK];
    infer_order(&st, r0, so);
    int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(r0));
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
  fuser_ptr_map_free(&st.deps);
  fuser_ptr_map_free(&st.input_view);
  fuser_dim_graph_free(&st.g);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  return fuser_for_each_fusion(op, order_fusion, NULL);
}

const fuser_pass_info fuser_allocation_order_pass = {
    .argument = "fuser-allocation-order",
    .description = "Give intermediates and outputs nvFuser's inferred allocation order (stride_order)",
    .anchor = "builtin.module",
    .run = run,
};
