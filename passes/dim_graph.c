/* The exact dim map of a fusion (dim_graph.h). */
#include "passes/dim_graph.h"

#include <stdlib.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"

static int rank_of(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) ? (int)mlirShapedTypeGetRank(t) : -1;
}

static int64_t extent_of(MlirValue v, int d) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), d); }

static void add_value(fuser_dim_graph *g, MlirValue v) {
  int r = rank_of(v);
  if (r < 0) return;
  if (g->count + r > g->cap) {
    g->cap = (g->count + r) * 2 + 16;
    g->parent = realloc(g->parent, sizeof *g->parent * g->cap);
    g->extent = realloc(g->extent, sizeof *g->extent * g->cap);
  }
  fuser_ptr_map_put(&g->first, v.ptr, g->count);
  for (int d = 0; d < r; d++) {
    g->parent[g->count] = g->count;
    g->extent[g->count++] = extent_of(v, d);
  }
}

int fuser_dim_node(fuser_dim_graph *g, MlirValue v, int dim) {
  intptr_t first;
  if (!fuser_ptr_map_get(&g->first, v.ptr, &first)) return -1;
  return (int)first + dim;
}

int fuser_dim_class(fuser_dim_graph *g, int n) {
  while (g->parent[n] != n) n = g->parent[n] = g->parent[g->parent[n]];
  return n;
}

static void join(fuser_dim_graph *g, MlirValue a, int da, MlirValue b, int db) {
  int x = fuser_dim_node(g, a, da), y = fuser_dim_node(g, b, db);
  if (x < 0 || y < 0) return;
  x = fuser_dim_class(g, x);
  y = fuser_dim_class(g, y);
  if (x == y) return;
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  if (g->extent[x] == dyn) g->extent[x] = g->extent[y];
  g->parent[y] = x;
}

int64_t fuser_dim_static_extent(fuser_dim_graph *g, int node) { return g->extent[fuser_dim_class(g, node)]; }

/* An operand dim of extent 1 broadcasts: it is not the result's dim. */
static bool broadcasting(MlirValue operand, int d, MlirValue result) {
  return extent_of(operand, d) == 1 && extent_of(result, d) != 1;
}

static void join_op(fuser_dim_graph *g, MlirOperation op) {
  fuser_op_id id = fuser_op_id_of(op);
  if (id == FUSER_OP_NONE || mlirOperationGetNumResults(op) == 0) return;
  MlirValue r = mlirOperationGetResult(op, 0);
  int rank = rank_of(r);
  if (rank < 0) return;
  MlirValue in = mlirOperationGetOperand(op, 0);
  int64_t a[FUSER_MAX_RANK], b[FUSER_MAX_RANK];
  switch (fuser_op_kind_of(id)) {
  case FUSER_KIND_UNARY:
  case FUSER_KIND_BINARY:
  case FUSER_KIND_TERNARY:
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue o = mlirOperationGetOperand(op, i);
      if (rank_of(o) != rank) continue;
      for (int d = 0; d < rank; d++)
        if (!broadcasting(o, d, r)) join(g, o, d, r, d);
    }
    return;
  case FUSER_KIND_CAT: {
    int64_t dim = 0;
    fuser_get_i64(op, "dim", &dim);
    for (int i = 0; i < 2; i++)
      for (int d = 0; d < rank; d++)
        if (d != dim) join(g, mlirOperationGetOperand(op, i), d, r, d);
    return;
  }
  case FUSER_KIND_PAD: {
    int n = fuser_get_i64_array(op, "pad_widths", a, 2 * FUSER_MAX_RANK);
    for (int d = 0; d < rank; d++) {
      int p = rank - 1 - d; /* pairs start from the last dim */
      if (2 * p + 1 >= n || (a[2 * p] == 0 && a[2 * p + 1] == 0)) join(g, in, d, r, d);
    }
    return;
  }
  case FUSER_KIND_MATMUL: { /* result dims from their operand dims; the two K dims are one */
    MlirValue w = mlirOperationGetOperand(op, 1);
    fuser_matmul_dims m;
    if (!fuser_matmul_dims_of(id, rank_of(in), rank_of(w), &m)) return;
    join(g, in, m.a_k, w, m.b_k);
    for (int d = 0; d < m.rank; d++) {
      bool r_one = extent_of(r, d) == 1;
      if (m.a_dim[d] >= 0 && (r_one || extent_of(in, m.a_dim[d]) != 1)) join(g, in, m.a_dim[d], r, d);
      if (m.b_dim[d] >= 0 && (r_one || extent_of(w, m.b_dim[d]) != 1)) join(g, w, m.b_dim[d], r, d);
    }
    if (mlirOperationGetNumOperands(op) == 3 && rank_of(mlirOperationGetOperand(op, 2)) == 1 && m.n_dim >= 0)
      join(g, mlirOperationGetOperand(op, 2), 0, r, m.n_dim);
    return;
  }
  case FUSER_KIND_FULL:
  case FUSER_KIND_RNG: { /* a result dim given as fuser.size(t, k) is t's dim k (rand_like, full_like) */
    int first = fuser_op_kind_of(id) == FUSER_KIND_RNG ? 4 : 1;
    for (int d = 0; d < rank && first + d < mlirOperationGetNumOperands(op); d++) {
      MlirValue s = mlirOperationGetOperand(op, first + d);
      if (mlirValueIsABlockArgument(s)) continue;
      MlirOperation def = mlirOpResultGetOwner(s);
      int64_t k;
      if (fuser_op_id_of(def) != FUSER_OP_size || !fuser_get_i64(def, "dim", &k)) continue;
      MlirValue t = mlirOperationGetOperand(def, 0);
      if (k >= 0 && k < rank_of(t)) join(g, t, (int)k, r, d);
    }
    return;
  }
  case FUSER_KIND_REDUCTION:
  case FUSER_KIND_VAR_MEAN: {
    int n = fuser_get_i64_array(op, "dims", a, FUSER_MAX_RANK);
    int64_t keep = 0;
    fuser_get_i64(op, "keepdim", &keep);
    for (intptr_t res = 0; res < mlirOperationGetNumResults(op); res++) {
      MlirValue rr = mlirOperationGetResult(op, res);
      for (int d = 0, j = 0; d < rank_of(in); d++) {
        bool reduced = false;
        for (int i = 0; i < n; i++) reduced |= a[i] == d;
        if (!reduced) join(g, in, d, rr, j);
        if (!reduced || keep) j++;
      }
    }
    return;
  }
  default:
    break;
  }
  switch (id) {
  case FUSER_OP_set:
  case FUSER_OP_segment_set:
    for (int d = 0; d < rank; d++) join(g, in, d, r, d);
    return;
  case FUSER_OP_permute:
    fuser_get_i64_array(op, "dims", a, FUSER_MAX_RANK);
    for (int d = 0; d < rank; d++) join(g, in, (int)a[d], r, d);
    return;
  case FUSER_OP_broadcast_in_dim:
  case FUSER_OP_expand: {
    int n = rank_of(in);
    if (id == FUSER_OP_broadcast_in_dim) fuser_get_i64_array(op, "broadcast_dims", a, FUSER_MAX_RANK);
    else for (int i = 0; i < n; i++) a[i] = i;
    for (int i = 0; i < n; i++)
      if (!(extent_of(in, i) == 1 && extent_of(r, (int)a[i]) != 1)) join(g, in, i, r, (int)a[i]);
    return;
  }
  case FUSER_OP_broadcast:
    fuser_get_i64_array(op, "is_broadcast_dim", a, FUSER_MAX_RANK);
    for (int d = 0, j = 0; d < rank; d++)
      if (!a[d]) join(g, in, j++, r, d);
    return;
  case FUSER_OP_squeeze: {
    int n = fuser_get_i64_array(op, "dims", a, FUSER_MAX_RANK);
    for (int d = 0, j = 0; d < rank_of(in); d++) {
      bool drop = false;
      for (int i = 0; i < n; i++) drop |= a[i] == d;
      if (!drop) join(g, in, d, r, j++);
    }
    return;
  }
  case FUSER_OP_slice:
    fuser_get_i64_array(op, "start_indices", a, FUSER_MAX_RANK);
    fuser_get_i64_array(op, "end_indices", b, FUSER_MAX_RANK);
    for (int d = 0; d < rank; d++)
      if (a[d] == 0 && b[d] == extent_of(in, d)) join(g, in, d, r, d);
    return;
  default:
    return;
  }
}

void fuser_dim_graph_build(fuser_dim_graph *g, MlirOperation func) {
  *g = (fuser_dim_graph){0};
  fuser_ptr_map_init(&g->first);
  MlirBlock body = fuser_func_body(func);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) add_value(g, mlirBlockGetArgument(body, i));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) add_value(g, mlirOperationGetResult(op, i));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    join_op(g, op);
}

void fuser_dim_graph_free(fuser_dim_graph *g) {
  fuser_ptr_map_free(&g->first);
  free(g->parent);
  free(g->extent);
  *g = (fuser_dim_graph){0};
}
