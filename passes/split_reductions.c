/* fuser-split-reductions: a full reduction (every dim of a rank >= 2
 * input, keepdim false) becomes two: the innermost dim first (rows of the
 * inner schedule: every block reduces one row at the memory bandwidth),
 * then the rest of the rows (a small second kernel). Segmentation cuts
 * between them (a reduced value reduced again over other rows), so the
 * grid-wide reduction runs in two stages, deterministically, with no
 * atomics (nvFuser's grid reduction; amax for fp8 scaling, a loss sum).
 * Only for sum, prod, max and min (var_mean needs both moments: not split);
 * the intermediate keeps the accumulation type (f32 for bf16/f16/f32 sums,
 * f64 for f64, i64 for integers; max and min keep the input dtype: exact).
 * Repeats until every full reduction is of rank 1.
 *
 * Before:
 *   %1 = "fuser.max"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<f32>
 * After:
 *   %r = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
 *   %1 = "fuser.max"(%r) {dims = array<i64: 0>, keepdim = false} : (tensor<?xf32>) -> tensor<f32>
 */
#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "passes/schedule.h"
#include "passes/schedule_reduction.h"

/* The dtype the first stage keeps. */
static fuser_dtype stage_dtype(fuser_op_id id, fuser_dtype in, fuser_dtype out) {
  if (id == FUSER_OP_max || id == FUSER_OP_min) return in == out ? in : out;
  if (fuser_dtype_is_float(out) || fuser_dtype_is_float(in)) return out == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32;
  return FUSER_DTYPE_I64;
}

/* Whether the input's last dim is its innermost in allocation order. */
static bool last_dim_innermost(MlirValue in, int rank) {
  int64_t order[FUSER_MAX_RANK];
  int n = mlirValueIsABlockArgument(in) ? -1 : fuser_get_i64_array(mlirOpResultGetOwner(in), "fuser.stride_order", order, FUSER_MAX_RANK);
  if (mlirValueIsABlockArgument(in)) {
    MlirOperation f = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(in));
    MlirAttribute a = fuser_func_arg_attr(f, (int)mlirBlockArgumentGetArgNumber(in), "fuser.stride_order");
    if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a)) return true;
    return mlirDenseI64ArrayGetElement(a, rank - 1) == 0;
  }
  return n != rank || order[rank - 1] == 0;
}

static bool split_one(MlirOperation op) {
  fuser_op_id id = fuser_op_id_of(op);
  if (id != FUSER_OP_sum && id != FUSER_OP_prod && id != FUSER_OP_max && id != FUSER_OP_min) return false;
  MlirValue in = mlirOperationGetOperand(op, 0);
  MlirType it = mlirValueGetType(in);
  int rank = (int)mlirShapedTypeGetRank(it);
  int64_t dims[FUSER_MAX_RANK];
  int nd = fuser_get_i64_array(op, "dims", dims, FUSER_MAX_RANK);
  MlirAttribute keep = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("keepdim"));
  if (rank < 2 || nd != rank || (!mlirAttributeIsNull(keep) && mlirBoolAttrGetValue(keep))) return false;
  if (!last_dim_innermost(in, rank)) return false;
  MlirContext ctx = mlirOperationGetContext(op);
  fuser_dtype mid = stage_dtype(id, fuser_value_dtype(in), fuser_value_dtype(mlirOperationGetResult(op, 0)));
  int64_t shape[FUSER_MAX_RANK], first[1] = {rank - 1}, rest[FUSER_MAX_RANK];
  for (int d = 0; d < rank - 1; d++) shape[d] = mlirShapedTypeGetDimSize(it, d), rest[d] = d;
  MlirType rt = mlirRankedTensorTypeGet(rank - 1, shape, fuser_dtype_to_type(ctx, mid), mlirAttributeGetNull());
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirNamedAttribute a1[2] = {fuser_named(ctx, "dims", fuser_i64_array_attr(ctx, first, 1)),
                              fuser_named(ctx, "keepdim", mlirBoolAttrGet(ctx, 0))};
  MlirOperation r1 = fuser_create_op(loc, fuser_op_full_name(id), 1, &in, 1, &rt, 2, a1);
  fuser_insert_before(op, r1);
  mlirOperationSetOperand(op, 0, mlirOperationGetResult(r1, 0));
  mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("dims"), fuser_i64_array_attr(ctx, rest, rank - 1));
  return true;
}

/* ---- outer reductions over a batch (bias gradient over B, S) ------------- */

/* The extent of dim d of v: static, else that of an argument dim of the
 * same iteration dim in the script's example inputs (`fuser.inputs`), else
 * -1. Only the heuristic reads it: both forms are correct for every size. */
static int64_t example_extent(fuser_dim_graph *g, MlirOperation func, MlirValue v, int d) {
  int64_t e = fuser_dim_static_extent(g, fuser_dim_node(g, v, d));
  if (e >= 0) return e;
  MlirAttribute inputs = mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.inputs"));
  if (mlirAttributeIsNull(inputs) || !mlirAttributeIsAArray(inputs)) return -1;
  int cls = fuser_dim_class(g, fuser_dim_node(g, v, d));
  MlirBlock body = fuser_func_body(func);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body) && i < mlirArrayAttrGetNumElements(inputs); i++) {
    MlirValue a = mlirBlockGetArgument(body, i);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(a))) continue;
    MlirAttribute sizes = mlirDictionaryAttrGetElementByName(mlirArrayAttrGetElement(inputs, i), mlirStringRefCreateFromCString("sizes"));
    int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(a));
    if (mlirAttributeIsNull(sizes) || mlirDenseArrayGetNumElements(sizes) != rank) continue;
    for (int ad = 0; ad < rank; ad++)
      if (fuser_dim_class(g, fuser_dim_node(g, a, ad)) == cls) return mlirDenseI64ArrayGetElement(sizes, ad);
  }
  return -1;
}

/* The split heuristic (docs/passes.md). The outer schedule gives a block
 * 64 bytes of each row (4 vectors of 16 bytes) and all rows: with C
 * columns of E bytes that is C E / 64 blocks. Split when those are fewer
 * than 2 per SM (132 SMs on the H200) and each would read at least 1 MiB
 * (rows x 64 bytes: below that the second launch costs more than the idle
 * SMs), when the batch has at least 2 entries, and when the f32
 * intermediate (B x C x 4 bytes, written once and read once) is at most
 * 1/8 of the input (B x S x C x E): S x E >= 64. */
#define SPLIT_MIN_BLOCK_BYTES (1 << 20)
static bool worth_splitting(int64_t batch, int64_t rows_per_batch, int64_t cols, int64_t elem) {
  if (batch < 2 || rows_per_batch < 1 || cols < 1) return false;
  int64_t blocks = (cols * elem + 63) / 64;
  return blocks < 2 * FUSER_TARGET_SMS && batch * rows_per_batch * 64 >= SPLIT_MIN_BLOCK_BYTES && rows_per_batch * elem >= 64;
}

/* Whether the fusion also reduces the innermost dims [k, rank) of a value
 * over the same rows as `in` (dims [0, k) of the same iteration dims, all
 * static): a normalization backward, whose column sums fuser-fuse-inner-outer
 * turns into partials of the rows kernel over row groups; split here, they
 * would be a batched first stage that kernel cannot take. */
static bool rows_also_reduced_inner(MlirOperation func, fuser_dim_graph *g, MlirValue in, int k) {
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(in));
  for (int d = 0; d < k; d++)
    if (fuser_dim_static_extent(g, fuser_dim_node(g, in, d)) < 0) return false;
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(func)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    int kr = 0;
    fuser_op_kind kind = fuser_op_kind_of(fuser_op_id_of(op));
    if ((kind != FUSER_KIND_REDUCTION && kind != FUSER_KIND_VAR_MEAN) || !fuser_reduction_is_inner(op, &kr) || kr != rank - k) continue;
    MlirValue x = mlirOperationGetOperand(op, 0);
    if (mlirShapedTypeGetRank(mlirValueGetType(x)) != rank) continue;
    bool same = true;
    for (int d = 0; d < k && same; d++) same = fuser_dim_class(g, fuser_dim_node(g, x, d)) == fuser_dim_class(g, fuser_dim_node(g, in, d));
    if (same) return true;
  }
  return false;
}

/* An outer reduction over dims [0, k), k >= 2, of a rank > k input: the
 * first stage reduces dims [1, k) of each batch entry (dim 0; the batched
 * outer schedule: B times as many blocks), the second reduces the batch. */
static bool split_outer_one(MlirOperation func, fuser_dim_graph *g, MlirOperation op) {
  fuser_op_id id = fuser_op_id_of(op);
  if (id != FUSER_OP_sum && id != FUSER_OP_prod && id != FUSER_OP_max && id != FUSER_OP_min) return false;
  int k = 0;
  MlirAttribute keep = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("keepdim"));
  if (!mlirAttributeIsNull(keep) && mlirBoolAttrGetValue(keep)) return false;
  if (!fuser_reduction_is_outer(op, &k) || k < 2) return false;
  MlirValue in = mlirOperationGetOperand(op, 0);
  MlirType it = mlirValueGetType(in);
  int rank = (int)mlirShapedTypeGetRank(it);
  int64_t ext[FUSER_MAX_RANK], rows = 1, cols = 1;
  for (int d = 0; d < rank; d++) {
    ext[d] = example_extent(g, func, in, d);
    if (ext[d] < 0) return false;
    if (d >= 1 && d < k) rows *= ext[d];
    if (d >= k) cols *= ext[d];
  }
  if (!worth_splitting(ext[0], rows, cols, (int64_t)fuser_dtype_size(fuser_value_dtype(in)))) return false;
  if (rank == k + 1 && rows_also_reduced_inner(func, g, in, k)) return false;
  MlirContext ctx = mlirOperationGetContext(op);
  int64_t first[FUSER_MAX_RANK], kshape[FUSER_MAX_RANK], zero[1] = {0};
  int nk = 0;
  for (int d = 1; d < k; d++) first[d - 1] = d;
  for (int d = 0; d < rank; d++)
    if (d == 0 || d >= k) kshape[nk++] = mlirShapedTypeGetDimSize(it, d);
  fuser_dtype mid = stage_dtype(id, fuser_value_dtype(in), fuser_value_dtype(mlirOperationGetResult(op, 0)));
  MlirType rt = mlirRankedTensorTypeGet(nk, kshape, fuser_dtype_to_type(ctx, mid), mlirAttributeGetNull());
  MlirNamedAttribute a1[2] = {fuser_named(ctx, "dims", fuser_i64_array_attr(ctx, first, k - 1)),
                              fuser_named(ctx, "keepdim", mlirBoolAttrGet(ctx, 0))};
  MlirOperation r1 = fuser_create_op(mlirOperationGetLocation(op), fuser_op_full_name(id), 1, &in, 1, &rt, 2, a1);
  fuser_insert_before(op, r1);
  /* the second stage: the original op over the batch */
  mlirOperationSetOperand(op, 0, mlirOperationGetResult(r1, 0));
  mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("dims"), fuser_i64_array_attr(ctx, zero, 1));
  return true;
}

/* ---- var_mean over scattered dims (batch-norm statistics) ---------------- */

/* Whether the input's allocation order is row-major (or not given). */
static bool row_major(MlirValue in, int rank) {
  MlirAttribute a;
  if (mlirValueIsABlockArgument(in)) {
    MlirOperation f = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(in));
    a = fuser_func_arg_attr(f, (int)mlirBlockArgumentGetArgNumber(in), "fuser.stride_order");
  } else {
    a = mlirOperationGetDiscardableAttributeByName(mlirOpResultGetOwner(in), mlirStringRefCreateFromCString("fuser.stride_order"));
  }
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) || mlirDenseArrayGetNumElements(a) != rank) return true;
  for (int d = 0; d < rank; d++)
    if (mlirDenseI64ArrayGetElement(a, d) != rank - 1 - d) return false;
  return true;
}

/* var_mean of `in` (results of its element type) over dims, before `before`. */
static MlirOperation make_var_mean(MlirOperation before, MlirValue in, const int64_t *dims, int nd) {
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(in));
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType it = mlirValueGetType(in);
  int rank = (int)mlirShapedTypeGetRank(it);
  int64_t shape[FUSER_MAX_RANK];
  int n = 0;
  for (int d = 0; d < rank; d++) {
    bool red = false;
    for (int q = 0; q < nd; q++) red |= dims[q] == d;
    if (!red) shape[n++] = mlirShapedTypeGetDimSize(it, d);
  }
  MlirType rt = mlirRankedTensorTypeGet(n, shape, et, mlirAttributeGetNull());
  MlirType rts[2] = {rt, rt};
  MlirNamedAttribute a[3] = {fuser_named(ctx, "correction", fuser_i64_attr(ctx, 0)),
                             fuser_named(ctx, "dims", fuser_i64_array_attr(ctx, dims, nd)),
                             fuser_named(ctx, "keepdim", mlirBoolAttrGet(ctx, 0))};
  MlirOperation op = fuser_create_op(mlirOperationGetLocation(before), "fuser.var_mean", 1, &in, 2, rts, 3, a);
  fuser_insert_before(before, op);
  return op;
}

/* x cast to element type et (x itself when it has it). */
static MlirValue cast_to(MlirOperation before, MlirValue x, MlirType et) {
  MlirType t = mlirValueGetType(x);
  if (mlirTypeEqual(mlirShapedTypeGetElementType(t), et)) return x;
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t shape[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d);
  MlirType rt = mlirRankedTensorTypeGet(rank, shape, et, mlirAttributeGetNull());
  MlirOperation op = fuser_create_op(mlirOperationGetLocation(before), "fuser.cast", 1, &x, 1, &rt, 0, NULL);
  fuser_insert_before(before, op);
  return mlirOperationGetResult(op, 0);
}

static MlirValue binary(MlirOperation before, const char *name, MlirValue x, MlirValue y) {
  MlirType t = mlirValueGetType(x);
  MlirValue ops[2] = {x, y};
  MlirOperation op = fuser_create_op(mlirOperationGetLocation(before), name, 2, ops, 1, &t, 0, NULL);
  fuser_insert_before(before, op);
  return mlirOperationGetResult(op, 0);
}

/* var_mean over leading dims [0, a) and trailing dims [b, rank), the dims
 * between kept (NCHW batch-norm statistics: dims 0, 2, 3, C kept) of an
 * float input: first over the trailing dims per (lead, kept) entry (an
 * inner reduction over rows of H x W), then over the leading dims (an
 * outer reduction). Every group has the same count H x W, so
 *   mean = mean over n of m_n,  var (correction 0) = mean over n of v_n
 *   + the variance over n of m_n
 * and nvFuser's correction c scales it by N / max(0, N - c) (N the
 * reduced element count, which must then be static). Both stages run in
 * f64 (the input cast to f64, a cast the first stage fuses into its
 * reads; the f64 partials are B x C values, 16 bytes each): a channel's
 * mean near 0 is the difference of partial means, so f32 partials, each
 * rounded once, put it tens of f32 ulp off (8 ulp on the batchnorm_stats
 * pattern); in f64 the results round once, to their f32 dtype, at the end. */
static bool split_scattered_var_mean(MlirOperation op) {
  if (fuser_op_kind_of(fuser_op_id_of(op)) != FUSER_KIND_VAR_MEAN) return false;
  MlirAttribute keep = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("keepdim"));
  if (!mlirAttributeIsNull(keep) && mlirBoolAttrGetValue(keep)) return false;
  MlirValue in = mlirOperationGetOperand(op, 0);
  MlirType it = mlirValueGetType(in);
  fuser_dtype dt = fuser_value_dtype(in);
  if (!mlirTypeIsARankedTensor(it) || !fuser_dtype_is_float(dt)) return false;
  int rank = (int)mlirShapedTypeGetRank(it);
  int64_t dims[FUSER_MAX_RANK];
  int nd = fuser_get_i64_array(op, "dims", dims, FUSER_MAX_RANK);
  bool red[FUSER_MAX_RANK] = {false};
  for (int q = 0; q < nd; q++) {
    int64_t d = dims[q] < 0 ? dims[q] + rank : dims[q];
    if (d < 0 || d >= rank) return false;
    red[d] = true;
  }
  int a = 0, b = rank;
  while (a < rank && red[a]) a++;
  while (b > a && red[b - 1]) b--;
  for (int d = a; d < b; d++)
    if (red[d]) return false; /* more than two blocks */
  if (a == 0 || b == rank || a == b || !row_major(in, rank)) return false;
  int64_t corr = 0, count = 1;
  fuser_get_i64(op, "correction", &corr);
  for (int d = 0; d < rank; d++)
    if (red[d]) count = mlirShapedTypeIsDynamicDim(it, d) || count < 0 ? -1 : count * mlirShapedTypeGetDimSize(it, d);
  if (corr != 0 && count < 0) return false;
  int64_t trail[FUSER_MAX_RANK], lead[FUSER_MAX_RANK];
  for (int d = b; d < rank; d++) trail[d - b] = d;
  for (int d = 0; d < a; d++) lead[d] = d;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType f64 = mlirF64TypeGet(ctx), et = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(op, 0)));
  MlirOperation s1 = make_var_mean(op, cast_to(op, in, f64), trail, rank - b);
  MlirOperation means = make_var_mean(op, mlirOperationGetResult(s1, 1), lead, a);
  MlirOperation vars = make_var_mean(op, mlirOperationGetResult(s1, 0), lead, a);
  MlirValue var = binary(op, "fuser.add", mlirOperationGetResult(vars, 1), mlirOperationGetResult(means, 0));
  if (corr != 0) {
    double n = (double)count, dof = n - (double)corr > 0 ? n - (double)corr : 0;
    MlirNamedAttribute v = fuser_named(ctx, "value", mlirFloatAttrDoubleGet(ctx, f64, n / dof));
    MlirOperation c = fuser_create_op(mlirOperationGetLocation(op), "fuser.scalar", 0, NULL, 1, &f64, 1, &v);
    fuser_insert_before(op, c);
    var = binary(op, "fuser.mul", var, mlirOperationGetResult(c, 0));
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), cast_to(op, var, et));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 1), cast_to(op, mlirOperationGetResult(means, 1), et));
  mlirOperationDestroy(op);
  return true;
}

static bool split_fusion(MlirOperation func, void *ud) {
  (void)ud;
  MlirBlock body = fuser_func_body(func);
  for (bool again = true; again;) {
    again = false;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      again |= split_one(op);
  }
  /* outer reductions: one pass (the second stage reduces one dim) */
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, func);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    split_outer_one(func, &g, op);
  fuser_dim_graph_free(&g);
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    split_scattered_var_mean(op);
  }
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  (void)options;
  return fuser_for_each_fusion(op, split_fusion, NULL);
}

const fuser_pass_info fuser_split_reductions_pass = {
    .argument = "fuser-split-reductions",
    .description = "Split full reductions into an inner row reduction and a reduction of the rows (two stages)",
    .anchor = "builtin.module",
    .run = run,
};
