/* fuser-fuse-inner-outer: normalization backward (RMSNorm, LayerNorm) in
 * one pass over its rows, as nvFuser's inner-outer persistent scheduler.
 *
 * fuser-segment leaves such a fusion as two kernels over the same [N, H]
 * rows: dx (an inner persistent row kernel) and dw/db (column sums, an
 * outer kernel), so grad and x are read twice. This pass moves the column
 * sums' inputs into the rows kernel as partial sums over G row groups of
 * R = N / G consecutive rows (`fuser_inner_outer_partial`,
 * passes/schedule_reduction.h: the inner_outer schedule keeps a group's
 * partials in registers while its rows stream through), and leaves the
 * outer kernel to sum the G partial rows (a small, deterministic combine).
 * The plan allocates the [G, H] f32 partials as an ordinary temporary.
 *
 * Before (plan level, after fuser-segment):
 *   %dx = call @f_k0(%g, %x, %rstd, %w) {fuser.cuts = ["fusion output"]} : ... -> tensor<16384x4096xbf16>
 *   %dw = call @f_k1(%g, %x, %rstd) {fuser.cuts = ["fusion output"]} : ... -> tensor<4096xbf16>
 *   func.func private @f_k1(...) { %4 = "fuser.mul"(...) ... %5 = "fuser.sum"(%4) {dims = array<i64: 0>} ...
 *                                  %6 = "fuser.cast"(%5) ... return %6 }
 * After:
 *   %dx, %p = call @f_k0(%g, %x, %rstd, %w) {fuser.cuts = ["fusion output", "inner-outer partials ..."]}
 *       : ... -> (tensor<16384x4096xbf16>, tensor<256x4096xf32>)
 *   %dw = call @f_k1(%p) {fuser.cuts = ["fusion output"]} : (tensor<256x4096xf32>) -> tensor<4096xbf16>
 *   func.func private @f_k0(...) { ...dx as before...
 *       %r = "fuser.reshape"(%4) : (tensor<16384x4096xf32>) -> tensor<256x64x4096xf32>
 *       %p = "fuser.sum"(%r) {dims = array<i64: 1>, keepdim = false} : (...) -> tensor<256x4096xf32>
 *       return %dx, %p }
 *   func.func private @f_k1(%p: tensor<256x4096xf32>) { %5 = "fuser.sum"(%p) {dims = array<i64: 0>} ... return %6 }
 *
 * Applies when the outer kernel's reductions are all f32-accumulated sums
 * over dim 0 of [N, H] values (N and H static), everything after them
 * depends only on their results, an earlier call is an inner persistent
 * kernel over the same static rows, the outer kernel's inputs exist before
 * that call, and the inner_outer schedule holds the fused kernel (register
 * budget, whole blocks per group). Otherwise the two kernels stay and the
 * outer call gets `fuser.inner_outer` saying why (fuser-report prints it).
 * Option `partial-rows` (0: the heuristic of fuser_inner_outer_groups)
 * fixes G, for measurements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/kernel_info.h"
#include "passes/pass.h"
#include "passes/ptr_map.h"
#include "passes/schedule_reduction.h"

#define MAX_ARGS 64

static MlirStringRef S(const char *s) { return mlirStringRefCreateFromCString(s); }

static MlirOperation kernel_of(MlirOperation module, MlirOperation call) {
  MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(call, S("callee")));
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!fuser_op_is(op, "func.func")) continue;
    MlirStringRef n = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, S("sym_name")));
    if (n.length == callee.length && memcmp(n.data, callee.data, n.length) == 0) return op;
  }
  return (MlirOperation){NULL};
}

/* The outer kernel's ops by role: its column sums, what feeds them (moved
 * into the rows kernel) and what follows them (kept in the combine). */
enum { ROLE_PRE, ROLE_SUM, ROLE_POST, ROLE_CONST };

typedef struct {
  MlirOperation sums[FUSER_SCHED_MAX_PARTIALS];
  int nsums;
  fuser_ptr_map role; /* op -> role */
} outer_parts;

static int role_of(outer_parts *p, MlirValue v) {
  intptr_t r;
  if (!mlirValueIsAOpResult(v) || !fuser_ptr_map_get(&p->role, mlirOpResultGetOwner(v).ptr, &r)) return ROLE_PRE;
  return (int)r;
}

/* Whether `sum` reduces every dim but the last of its input, whose
 * leading extents (static, from the dim graph) multiply to `rows` and whose
 * last is `cols`: the column sum of a [rows..., cols] value. */
static bool sums_leading_rows(fuser_dim_graph *g, MlirOperation sum, int64_t rows, int64_t cols) {
  MlirValue in = mlirOperationGetOperand(sum, 0);
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(in));
  int64_t dims[FUSER_MAX_RANK], n = 1;
  MlirAttribute keep = mlirOperationGetDiscardableAttributeByName(sum, S("keepdim"));
  if (rank < 2 || rank > FUSER_MAX_RANK || fuser_get_i64_array(sum, "dims", dims, FUSER_MAX_RANK) != rank - 1) return false;
  if (!mlirAttributeIsNull(keep) && mlirAttributeIsABool(keep) && mlirBoolAttrGetValue(keep)) return false;
  for (int d = 0; d + 1 < rank; d++) {
    int64_t e = fuser_dim_static_extent(g, fuser_dim_node(g, in, d));
    if (dims[d] != d || e < 0) return false;
    n *= e;
  }
  return n == rows && fuser_dim_static_extent(g, fuser_dim_node(g, in, rank - 1)) == cols;
}

/* Splits the outer kernel; false (and why) when it is not column sums of
 * [rows, cols] values followed by their epilogue. */
static bool split_outer(MlirOperation k1, int64_t rows, int64_t cols, outer_parts *p, char *why, size_t len) {
  MlirBlock body = fuser_func_body(k1);
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, k1);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (fuser_op_is(op, "func.return")) {
      for (intptr_t i = 0; ok && i < mlirOperationGetNumOperands(op); i++) {
        int r = role_of(p, mlirOperationGetOperand(op, i));
        if (r != ROLE_SUM && r != ROLE_POST) ok = false, snprintf(why, len, "a result of the column kernel is not computed from its sums");
      }
      break;
    }
    fuser_op_kind kind = fuser_op_kind_of(fuser_op_id_of(op));
    int role = ROLE_PRE;
    if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) {
      MlirValue in = mlirOperationGetOperand(op, 0);
      fuser_dtype dt = fuser_value_dtype(in);
      bool over_rows = fuser_op_id_of(op) == FUSER_OP_sum && sums_leading_rows(&g, op, rows, cols);
      if (!over_rows || role_of(p, in) != ROLE_PRE) {
        snprintf(why, len, "a reduction of the column kernel is not a sum over the rows of the rows kernel");
        ok = false;
      } else if (dt != FUSER_DTYPE_F32 && dt != FUSER_DTYPE_BF16 && dt != FUSER_DTYPE_F16) {
        snprintf(why, len, "a column sum does not accumulate in f32");
        ok = false;
      } else if (p->nsums == FUSER_SCHED_MAX_PARTIALS) {
        snprintf(why, len, "more than %d column sums", FUSER_SCHED_MAX_PARTIALS);
        ok = false;
      }
      p->sums[p->nsums++] = op;
      role = ROLE_SUM;
    } else if (mlirOperationGetNumOperands(op) == 0) {
      role = ROLE_CONST;
    } else {
      bool after = false, before = false;
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        int r = role_of(p, mlirOperationGetOperand(op, i));
        after |= r == ROLE_SUM || r == ROLE_POST;
        before |= r == ROLE_PRE;
      }
      if (after && before) ok = false, snprintf(why, len, "the column kernel's epilogue reads its inputs again");
      role = after ? ROLE_POST : ROLE_PRE;
    }
    fuser_ptr_map_put(&p->role, op.ptr, role);
  }
  fuser_dim_graph_free(&g);
  if (ok && p->nsums == 0) ok = false, snprintf(why, len, "no column sum");
  return ok;
}

/* Clones op into block `b` with its operands through map (old -> new), and maps its results. */
static MlirOperation clone_into(MlirBlock b, MlirOperation op, fuser_ptr_map *map) {
  MlirOperation c = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(c); i++) {
    intptr_t m;
    if (fuser_ptr_map_get(map, mlirOperationGetOperand(op, i).ptr, &m)) mlirOperationSetOperand(c, i, (MlirValue){(void *)m});
  }
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    fuser_ptr_map_put(map, mlirOperationGetResult(op, r).ptr, (intptr_t)mlirOperationGetResult(c, r).ptr);
  mlirBlockAppendOwnedOperation(b, c);
  return c;
}

static MlirValue mapped(fuser_ptr_map *map, MlirValue v) {
  intptr_t m;
  return fuser_ptr_map_get(map, v.ptr, &m) ? (MlirValue){(void *)m} : v;
}

static MlirValue append(MlirBlock b, MlirLocation loc, const char *name, MlirValue in, MlirType t, int nattrs, MlirNamedAttribute *attrs) {
  MlirOperation op = fuser_create_op(loc, name, 1, &in, 1, &t, nattrs, attrs);
  mlirBlockAppendOwnedOperation(b, op);
  return mlirOperationGetResult(op, 0);
}

static MlirAttribute attrs_or_empty(MlirOperation func, const char *which, int i) {
  MlirAttribute a = mlirOperationGetAttributeByName(func, S(which));
  if (mlirAttributeIsNull(a) || i >= mlirArrayAttrGetNumElements(a)) return mlirDictionaryAttrGet(mlirOperationGetContext(func), 0, NULL);
  return mlirArrayAttrGetElement(a, i);
}

/* A private kernel function named `name` with the given body and argument/result attributes. */
static MlirOperation make_kernel(MlirContext ctx, MlirLocation loc, MlirStringRef name, MlirBlock body, int nres, MlirType *res,
                                 MlirAttribute *arg_attrs, MlirAttribute *res_attrs) {
  int nargs = (int)mlirBlockGetNumArguments(body);
  MlirType in[MAX_ARGS];
  for (int i = 0; i < nargs; i++) in[i] = mlirValueGetType(mlirBlockGetArgument(body, i));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute fa[6] = {
      fuser_named(ctx, "sym_name", mlirStringAttrGet(ctx, name)),
      fuser_named(ctx, "function_type", mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nargs, in, nres, res))),
      fuser_named(ctx, "sym_visibility", fuser_str_attr(ctx, "private")),
      fuser_named(ctx, "arg_attrs", mlirArrayAttrGet(ctx, nargs, arg_attrs)),
      fuser_named(ctx, "res_attrs", mlirArrayAttrGet(ctx, nres, res_attrs)),
      fuser_named(ctx, "fuser.kernel", mlirUnitAttrGet(ctx)),
  };
  MlirOperationState st = mlirOperationStateGet(S("func.func"), loc);
  mlirOperationStateAddAttributes(&st, 6, fa);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationCreate(&st);
}

static MlirAttribute strides_attr(MlirContext ctx, int64_t cols) {
  int64_t st[2] = {cols, 1};
  MlirNamedAttribute e = fuser_named(ctx, "fuser.strides", mlirDenseI64ArrayGet(ctx, 2, st));
  return mlirDictionaryAttrGet(ctx, 1, &e);
}

typedef struct {
  MlirOperation module, c0, k0, c1, k1;
  int64_t rows, cols, groups;
  outer_parts parts;
} fusion_pair;

static MlirType f32_like(MlirType t) {
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t shape[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d);
  return mlirRankedTensorTypeGet(rank, shape, mlirF32TypeGet(mlirTypeGetContext(t)), mlirAttributeGetNull());
}

/* The fused rows kernel: k0's body, then the column sums' inputs as
 * partials over the row groups. Its arguments: c0's operands, then those of
 * c1's it lacks (*operands, *nops). */
static MlirOperation fused_rows_kernel(fusion_pair *fp, MlirValue *operands, int *nops) {
  MlirContext ctx = mlirOperationGetContext(fp->k0);
  MlirLocation loc = mlirOperationGetLocation(fp->k0);
  MlirBlock b0 = fuser_func_body(fp->k0), b1 = fuser_func_body(fp->k1);
  int n0 = (int)mlirOperationGetNumOperands(fp->c0), n1 = (int)mlirOperationGetNumOperands(fp->c1);
  int index1[MAX_ARGS];
  MlirAttribute arg_attrs[MAX_ARGS];
  *nops = 0;
  for (int i = 0; i < n0; i++) operands[(*nops)++] = mlirOperationGetOperand(fp->c0, i), arg_attrs[i] = attrs_or_empty(fp->k0, "arg_attrs", i);
  for (int j = 0; j < n1; j++) {
    MlirValue v = mlirOperationGetOperand(fp->c1, j);
    index1[j] = -1;
    for (int i = 0; i < *nops && index1[j] < 0; i++)
      if (mlirValueEqual(operands[i], v)) index1[j] = i;
    if (index1[j] < 0) {
      if (*nops == MAX_ARGS) return (MlirOperation){NULL};
      arg_attrs[*nops] = attrs_or_empty(fp->k1, "arg_attrs", j);
      index1[j] = *nops;
      operands[(*nops)++] = v;
    }
  }
  MlirType types[MAX_ARGS];
  MlirLocation locs[MAX_ARGS];
  for (int i = 0; i < *nops; i++) types[i] = mlirValueGetType(operands[i]), locs[i] = loc;
  MlirBlock body = mlirBlockCreate(*nops, types, locs);
  fuser_ptr_map m0, m1;
  fuser_ptr_map_init(&m0);
  fuser_ptr_map_init(&m1);
  for (int i = 0; i < n0; i++) fuser_ptr_map_put(&m0, mlirBlockGetArgument(b0, i).ptr, (intptr_t)mlirBlockGetArgument(body, i).ptr);
  for (int j = 0; j < n1; j++) fuser_ptr_map_put(&m1, mlirBlockGetArgument(b1, j).ptr, (intptr_t)mlirBlockGetArgument(body, index1[j]).ptr);
  MlirOperation ret0 = mlirBlockGetTerminator(b0);
  for (MlirOperation op = mlirBlockGetFirstOperation(b0); !mlirOperationEqual(op, ret0); op = mlirOperationGetNextInBlock(op))
    clone_into(body, op, &m0);
  for (MlirOperation op = mlirBlockGetFirstOperation(b1); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    intptr_t r;
    if (fuser_ptr_map_get(&fp->parts.role, op.ptr, &r) && (r == ROLE_PRE || r == ROLE_CONST)) clone_into(body, op, &m1);
  }
  int nres0 = (int)mlirOperationGetNumOperands(ret0), nres = nres0 + fp->parts.nsums;
  if (nres > MAX_ARGS) {
    mlirBlockDestroy(body);
    fuser_ptr_map_free(&m0);
    fuser_ptr_map_free(&m1);
    return (MlirOperation){NULL};
  }
  MlirValue res[MAX_ARGS];
  MlirType res_types[MAX_ARGS];
  MlirAttribute res_attrs[MAX_ARGS];
  for (int i = 0; i < nres0; i++) {
    res[i] = mapped(&m0, mlirOperationGetOperand(ret0, i));
    res_types[i] = mlirValueGetType(res[i]);
    res_attrs[i] = attrs_or_empty(fp->k0, "res_attrs", i);
  }
  MlirType f32 = mlirF32TypeGet(ctx);
  int64_t rs[3] = {fp->groups, fp->rows / fp->groups, fp->cols}, ps[2] = {fp->groups, fp->cols};
  for (int i = 0; i < fp->parts.nsums; i++) {
    MlirOperation sum = fp->parts.sums[i];
    MlirLocation sl = mlirOperationGetLocation(sum);
    MlirValue x = mapped(&m1, mlirOperationGetOperand(sum, 0));
    if (fuser_value_dtype(x) != FUSER_DTYPE_F32) x = append(body, sl, "fuser.cast", x, f32_like(mlirValueGetType(x)), 0, NULL);
    MlirValue r = append(body, sl, "fuser.reshape", x, mlirRankedTensorTypeGet(3, rs, f32, mlirAttributeGetNull()), 0, NULL);
    int64_t one = 1;
    MlirNamedAttribute a[2] = {fuser_named(ctx, "dims", mlirDenseI64ArrayGet(ctx, 1, &one)), fuser_named(ctx, "keepdim", mlirBoolAttrGet(ctx, 0))};
    res[nres0 + i] = append(body, sl, "fuser.sum", r, mlirRankedTensorTypeGet(2, ps, f32, mlirAttributeGetNull()), 2, a);
    res_types[nres0 + i] = mlirValueGetType(res[nres0 + i]);
    res_attrs[nres0 + i] = strides_attr(ctx, fp->cols);
  }
  mlirBlockAppendOwnedOperation(body, fuser_create_op(loc, "func.return", nres, res, 0, NULL, 0, NULL));
  /* k1's copies of k0's ops (the casts of grad and x, xhat) become k0's:
   * the generator then loads and computes each once per row */
  fuser_cse_block(body);
  fuser_ptr_map_free(&m0);
  fuser_ptr_map_free(&m1);
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(fp->k0, S("sym_name")));
  return make_kernel(ctx, loc, name, body, nres, res_types, arg_attrs, res_attrs);
}

/* An element-wise epilogue op (a cast of a column sum) whose result is `?`
 * where its operand is static: the static extent, as nvFuser's rules give
 * it (the verifier's). */
static void refine_types(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) < 1) return;
  MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0)), out = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(in) || !mlirTypeIsARankedTensor(out) || mlirShapedTypeGetRank(in) != mlirShapedTypeGetRank(out)) return;
  fuser_op_kind k = fuser_op_kind_of(fuser_op_id_of(op));
  if (k != FUSER_KIND_UNARY) return;
  int64_t shape[FUSER_MAX_RANK];
  int rank = (int)mlirShapedTypeGetRank(in);
  for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeIsDynamicDim(out, d) ? mlirShapedTypeGetDimSize(in, d) : mlirShapedTypeGetDimSize(out, d);
  mlirValueSetType(mlirOperationGetResult(op, 0), mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(out), mlirAttributeGetNull()));
}

/* The combine kernel: each column sum over the partials' G rows, then k1's epilogue. */
static MlirOperation combine_kernel(fusion_pair *fp) {
  MlirContext ctx = mlirOperationGetContext(fp->k1);
  MlirLocation loc = mlirOperationGetLocation(fp->k1);
  int n = fp->parts.nsums;
  MlirType types[FUSER_SCHED_MAX_PARTIALS];
  MlirLocation locs[FUSER_SCHED_MAX_PARTIALS];
  MlirAttribute arg_attrs[FUSER_SCHED_MAX_PARTIALS];
  int64_t ps[2] = {fp->groups, fp->cols};
  for (int i = 0; i < n; i++)
    types[i] = mlirRankedTensorTypeGet(2, ps, mlirF32TypeGet(ctx), mlirAttributeGetNull()), locs[i] = loc, arg_attrs[i] = strides_attr(ctx, fp->cols);
  MlirBlock body = mlirBlockCreate(n, types, locs);
  fuser_ptr_map m;
  fuser_ptr_map_init(&m);
  MlirBlock b1 = fuser_func_body(fp->k1);
  for (int i = 0; i < n; i++) {
    MlirOperation sum = fp->parts.sums[i];
    MlirType rt = mlirValueGetType(mlirOperationGetResult(sum, 0));
    MlirType ft = mlirRankedTensorTypeGet(1, &ps[1], mlirF32TypeGet(ctx), mlirAttributeGetNull());
    int64_t zero = 0;
    MlirNamedAttribute a[2] = {fuser_named(ctx, "dims", mlirDenseI64ArrayGet(ctx, 1, &zero)), fuser_named(ctx, "keepdim", mlirBoolAttrGet(ctx, 0))};
    /* the sum of [G, H] is [H] (H static even where k1 had `?`: the plan's
     * types follow, refine_results) */
    MlirValue s = append(body, mlirOperationGetLocation(sum), "fuser.sum", mlirBlockGetArgument(body, i), ft, 2, a);
    MlirType st = mlirRankedTensorTypeGet(1, &ps[1], mlirShapedTypeGetElementType(rt), mlirAttributeGetNull());
    if (fuser_dtype_of_type(mlirShapedTypeGetElementType(rt)) != FUSER_DTYPE_F32) s = append(body, mlirOperationGetLocation(sum), "fuser.cast", s, st, 0, NULL);
    fuser_ptr_map_put(&m, mlirOperationGetResult(sum, 0).ptr, (intptr_t)s.ptr);
  }
  MlirOperation ret1 = mlirBlockGetTerminator(b1);
  for (MlirOperation op = mlirBlockGetFirstOperation(b1); !mlirOperationEqual(op, ret1); op = mlirOperationGetNextInBlock(op)) {
    intptr_t r;
    if (fuser_ptr_map_get(&fp->parts.role, op.ptr, &r) && (r == ROLE_POST || r == ROLE_CONST)) {
      refine_types(clone_into(body, op, &m));
    }
  }
  int nres = (int)mlirOperationGetNumOperands(ret1);
  MlirValue res[MAX_ARGS];
  MlirType res_types[MAX_ARGS];
  MlirAttribute res_attrs[MAX_ARGS];
  for (int i = 0; i < nres && i < MAX_ARGS; i++) {
    res[i] = mapped(&m, mlirOperationGetOperand(ret1, i));
    res_types[i] = mlirValueGetType(res[i]);
    res_attrs[i] = attrs_or_empty(fp->k1, "res_attrs", i);
  }
  mlirBlockAppendOwnedOperation(body, fuser_create_op(loc, "func.return", nres, res, 0, NULL, 0, NULL));
  fuser_erase_dead_ops(body);
  fuser_ptr_map_free(&m);
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(fp->k1, S("sym_name")));
  return make_kernel(ctx, loc, name, body, nres, res_types, arg_attrs, res_attrs);
}

/* Replaces old (a kernel function) by new in the module, and call c by a
 * call of the same callee with `operands` and result types `types`, whose
 * first results take over c's; returns the new call. */
static MlirOperation replace_call(MlirOperation c, int nops, MlirValue *operands, int nres, MlirType *types, MlirAttribute cuts) {
  MlirContext ctx = mlirOperationGetContext(c);
  MlirNamedAttribute a[2] = {fuser_named(ctx, "callee", mlirOperationGetAttributeByName(c, S("callee"))), fuser_named(ctx, "fuser.cuts", cuts)};
  MlirOperation n = fuser_create_op(mlirOperationGetLocation(c), "func.call", nops, operands, nres, types, 2, a);
  fuser_insert_before(c, n);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(c); i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(c, i), mlirOperationGetResult(n, i));
  mlirOperationDestroy(c);
  return n;
}

static void replace_kernel(MlirOperation old, MlirOperation new) {
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(old), old, new);
  mlirOperationDestroy(old);
}

/* Whether every operand of c1 is defined before c0 (an argument, a view, an earlier call's result). */
static bool inputs_before(MlirOperation c0, MlirOperation c1) {
  MlirBlock plan = mlirOperationGetBlock(c0);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(c1); i++) {
    MlirValue v = mlirOperationGetOperand(c1, i);
    if (!mlirValueIsAOpResult(v)) continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    bool before = false;
    for (MlirOperation op = mlirBlockGetFirstOperation(plan); !mlirOperationEqual(op, c0); op = mlirOperationGetNextInBlock(op))
      if (mlirOperationEqual(op, def)) before = true;
    if (!before) return false;
  }
  return true;
}

/* The combine's results may be static where c1's were `?` (LayerNorm's db
 * over `?` columns that the dim graph proves to be the weight's H): then
 * every use must be the plan's return, whose fusion result type follows
 * (refine_plan_results; the input checks already fix H). */
static bool results_refinable(MlirOperation c1, MlirType t1) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(c1); i++) {
    MlirValue r = mlirOperationGetResult(c1, i);
    if (mlirTypeEqual(mlirValueGetType(r), mlirFunctionTypeGetResult(t1, i))) continue;
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (!fuser_op_is(mlirOpOperandGetOwner(u), "func.return")) return false;
  }
  return true;
}

static void refine_plan_results(MlirOperation call) {
  MlirOperation plan = mlirBlockGetParentOperation(mlirOperationGetBlock(call));
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(plan, S("function_type")));
  MlirOperation ret = mlirBlockGetTerminator(mlirOperationGetBlock(call));
  int nin = (int)mlirFunctionTypeGetNumInputs(ft), nres = (int)mlirFunctionTypeGetNumResults(ft);
  MlirType in[MAX_ARGS], res[MAX_ARGS];
  if (nin > MAX_ARGS || nres > MAX_ARGS) return;
  for (int i = 0; i < nin; i++) in[i] = mlirFunctionTypeGetInput(ft, i);
  for (int i = 0; i < nres; i++) res[i] = mlirValueGetType(mlirOperationGetOperand(ret, i));
  mlirOperationSetAttributeByName(plan, S("function_type"), mlirTypeAttrGet(mlirFunctionTypeGet(mlirOperationGetContext(call), nin, in, nres, res)));
}

static void say_not_fused(MlirOperation c1, const char *why) {
  mlirOperationSetDiscardableAttributeByName(c1, S("fuser.inner_outer"), fuser_str_attr(mlirOperationGetContext(c1), why));
}

/* Tries to fuse outer call c1 into the nearest earlier inner persistent call over its rows. */
static bool try_fuse(MlirOperation module, MlirOperation c1, int64_t requested) {
  MlirOperation k1 = kernel_of(module, c1);
  if (mlirOperationIsNull(k1)) return false;
  fuser_reduction_schedule s1, s0;
  fuser_schedule_reduction_kernel(k1, &s1);
  /* column sums over the leading dims of [rows..., H] */
  if (s1.kind != FUSER_SCHED_OUTER || s1.batch != 0 || s1.outer != s1.rank - 1 || mlirOperationGetNumResults(c1) > MAX_ARGS) return false;
  char why[200] = "";
  MlirOperation c0 = {NULL}, k0 = {NULL};
  /* the nearest earlier one */
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirOperationGetBlock(c1)); !mlirOperationEqual(op, c1); op = mlirOperationGetNextInBlock(op)) {
    if (!fuser_op_is(op, "func.call")) continue;
    MlirOperation k = kernel_of(module, op);
    fuser_reduction_schedule sk;
    if (mlirOperationIsNull(k)) continue;
    fuser_schedule_reduction_kernel(k, &sk);
    bool rows = sk.rows == s1.rows || sk.rows == INT64_MIN || s1.rows == INT64_MIN;
    bool cols = sk.row_len == s1.row_len || sk.row_len == INT64_MIN || s1.row_len == INT64_MIN;
    if (sk.kind == FUSER_SCHED_INNER_PERSISTENT && sk.rank == s1.rank && sk.outer == sk.rank - 1 && rows && cols) c0 = op, k0 = k, s0 = sk;
  }
  if (mlirOperationIsNull(c0)) return false; /* a plain column sum: nothing to fuse with */
  if (s1.rows == INT64_MIN || s1.row_len == INT64_MIN || s0.rows != s1.rows || s0.row_len != s1.row_len) {
    say_not_fused(c1, "not fused with the rows kernel: symbolic rows or columns (the row groups need a static row count)");
    return false;
  }
  if (!inputs_before(c0, c1)) {
    say_not_fused(c1, "not fused with the rows kernel: an input is computed after it");
    return false;
  }
  fusion_pair fp = {module, c0, k0, c1, k1, s1.rows, s1.row_len, 0, {{{NULL}}, 0, {0}}};
  fuser_ptr_map_init(&fp.parts.role);
  bool ok = split_outer(k1, fp.rows, fp.cols, &fp.parts, why, sizeof why);
  if (ok) fp.groups = fuser_inner_outer_groups(&s0, fp.parts.nsums, requested, why, sizeof why);
  ok = ok && fp.groups > 0;
  MlirValue operands[MAX_ARGS];
  int nops = 0;
  MlirOperation nk0 = ok ? fused_rows_kernel(&fp, operands, &nops) : (MlirOperation){NULL};
  if (ok && mlirOperationIsNull(nk0)) ok = false, snprintf(why, sizeof why, "more than %d kernel arguments", MAX_ARGS);
  if (ok) {
    /* the schedule must hold the fused kernel (one rule: schedule_reduction.c) */
    fuser_reduction_schedule sf;
    fuser_schedule_reduction_kernel(nk0, &sf);
    if (sf.kind != FUSER_SCHED_INNER_OUTER) ok = false, snprintf(why, sizeof why, "%s", sf.why);
  }
  if (!ok) {
    if (!mlirOperationIsNull(nk0)) mlirOperationDestroy(nk0);
    char msg[260];
    snprintf(msg, sizeof msg, "not fused with the rows kernel: %s", why);
    say_not_fused(c1, msg);
    fuser_ptr_map_free(&fp.parts.role);
    return false;
  }
  MlirOperation nk1 = combine_kernel(&fp);
  MlirType t1 = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(nk1, S("function_type")));
  if (!results_refinable(c1, t1)) {
    mlirOperationDestroy(nk0);
    mlirOperationDestroy(nk1);
    say_not_fused(c1, "not fused with the rows kernel: a column sum of `?` extent feeds another kernel");
    fuser_ptr_map_free(&fp.parts.role);
    return false;
  }
  MlirContext ctx = mlirOperationGetContext(c0);
  /* the rows call: its results, then the partials */
  int nres0 = (int)mlirOperationGetNumResults(c0), nres = nres0 + fp.parts.nsums;
  MlirType types[MAX_ARGS];
  MlirAttribute cuts[MAX_ARGS], old = mlirOperationGetAttributeByName(c0, S("fuser.cuts"));
  bool has_cuts = !mlirAttributeIsNull(old) && mlirAttributeIsAArray(old) && mlirArrayAttrGetNumElements(old) == nres0;
  for (int i = 0; i < nres0; i++)
    types[i] = mlirValueGetType(mlirOperationGetResult(c0, i)), cuts[i] = has_cuts ? mlirArrayAttrGetElement(old, i) : fuser_str_attr(ctx, "");
  char reason[200];
  snprintf(reason, sizeof reason, "inner-outer partials: column sums over %lld row groups of %lld rows (combined by the next kernel)",
           (long long)fp.groups, (long long)(fp.rows / fp.groups));
  int64_t ps[2] = {fp.groups, fp.cols};
  for (int i = nres0; i < nres; i++)
    types[i] = mlirRankedTensorTypeGet(2, ps, mlirF32TypeGet(ctx), mlirAttributeGetNull()), cuts[i] = fuser_str_attr(ctx, reason);
  MlirOperation n0 = replace_call(c0, nops, operands, nres, types, mlirArrayAttrGet(ctx, nres, cuts));
  MlirValue parts[FUSER_SCHED_MAX_PARTIALS];
  for (int i = 0; i < fp.parts.nsums; i++) parts[i] = mlirOperationGetResult(n0, nres0 + i);
  int nres1 = (int)mlirOperationGetNumResults(c1);
  for (int i = 0; i < nres1; i++) types[i] = mlirFunctionTypeGetResult(t1, i);
  MlirAttribute cuts1 = mlirOperationGetAttributeByName(c1, S("fuser.cuts"));
  MlirOperation n1 = replace_call(c1, fp.parts.nsums, parts, nres1, types, mlirAttributeIsNull(cuts1) ? mlirArrayAttrGet(ctx, 0, NULL) : cuts1);
  refine_plan_results(n1);
  replace_kernel(k0, nk0);
  replace_kernel(k1, nk1);
  fuser_ptr_map_free(&fp.parts.role);
  return true;
}

typedef struct {
  MlirOperation module;
  int64_t requested;
} run_state;

static bool fuse_plan(MlirOperation func, void *ud) {
  run_state *rs = ud;
  if (mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, S("fuser.plan")))) return true;
  MlirBlock body = fuser_func_body(func);
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next; !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (fuser_op_is(op, "func.call")) try_fuse(rs->module, op, rs->requested);
  }
  return true;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  if (!fuser_check_kernel_bodies(module)) return false;
  run_state rs = {module, fuser_pass_option_int(options, "partial-rows")};
  return fuser_for_each_fusion(module, fuse_plan, &rs);
}

const fuser_pass_info fuser_fuse_inner_outer_pass = {
    .argument = "fuser-fuse-inner-outer",
    .description = "Fuse a normalization backward's column sums into its rows kernel as partials over row groups, plus a combine",
    .anchor = "builtin.module",
    .options = {{"partial-rows", "0", "row groups G of the partials (0: the heuristic; must divide the rows)"}},
    .run = run,
};
