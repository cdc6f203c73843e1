/* fuser-segment's outlining: each kernel becomes a private function
 * `@<fusion>_k<N>` (fuser.kernel; fuser.matmul for a product) over the
 * globals it reads, its arguments and results annotated with fuser.strides
 * (their buffers' layouts; a result whose new dense buffer is not row-major
 * also with its fuser.stride_order, which the kernel walks its points in
 * where the strides are symbolic), called from the plan in order, each
 * call with the reasons of its results (fuser.cuts). */
#include <stdio.h>
#include <stdlib.h>

#include "passes/layout.h"
#include "passes/segment_internal.h"

/* Element strides of a global tensor as the kernel will read it. */
static MlirAttribute strides_of(seg_state *st, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t strides[FUSER_MAX_RANK], shape[FUSER_MAX_RANK], so[FUSER_MAX_RANK];
  if (mlirValueIsABlockArgument(v)) {
    int arg = (int)mlirBlockArgumentGetArgNumber(v);
    int64_t known[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) known[d] = fuser_dim_static_extent(&st->g, fuser_dim_node(&st->g, v, d));
    fuser_layout l;
    fuser_arg_layout(st->func, arg, known, &l);
    fuser_layout_static_strides(&l, strides);
    return mlirDenseI64ArrayGet(st->ctx, rank, strides);
  }
  intptr_t written;
  if (fuser_ptr_map_get(&st->written, v.ptr, &written)) return (MlirAttribute){(const void *)written};
  MlirOperation def = mlirOpResultGetOwner(v);
  if (fuser_op_id_of(def) == FUSER_OP_view)
    return mlirOperationGetDiscardableAttributeByName(def, mlirStringRefCreateFromCString("static_strides"));
  for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d);
  bool ordered = fuser_get_i64_array(def, "fuser.stride_order", so, FUSER_MAX_RANK) == rank;
  fuser_dense_strides(rank, shape, ordered ? so : NULL, strides);
  return mlirDenseI64ArrayGet(st->ctx, rank, strides);
}

/* The fusion output that kernel result v is (its result number), or -1. */
static int output_of(seg_state *st, MlirValue v) {
  MlirOperation ret = mlirBlockGetTerminator(st->body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++)
    if (mlirValueEqual(mlirOperationGetOperand(ret, i), v)) return (int)i;
  return -1;
}

/* The stride order (nvFuser convention) of kernel result v's new dense
 * buffer: the fusion output's (add_output's, or fuser-allocation-order's
 * copy of the producer's), else its producer's; null for a result written
 * into an input (alias), a view, or a value without one (row-major). */
static MlirAttribute result_order(seg_state *st, MlirValue v) {
  MlirAttribute none = {NULL}, so = none;
  int out = output_of(st, v);
  if (out >= 0 && alias_input_of(st->func, out) >= 0) return none;
  if (out >= 0) so = fuser_func_result_attr(st->func, out, "fuser.stride_order");
  if (mlirAttributeIsNull(so) && !mlirValueIsABlockArgument(v) && !fuser_ptr_map_get(&st->written, v.ptr, NULL) &&
      fuser_op_id_of(mlirOpResultGetOwner(v)) != FUSER_OP_view)
    so = mlirOperationGetDiscardableAttributeByName(mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("fuser.stride_order"));
  bool ok = !mlirAttributeIsNull(so) && mlirAttributeIsADenseI64Array(so) &&
            mlirDenseArrayGetNumElements(so) == mlirShapedTypeGetRank(mlirValueGetType(v));
  return ok ? so : none;
}

/* Whether stride order `so` (nvFuser convention) is row-major. */
static bool row_major_order(MlirAttribute so) {
  intptr_t n = mlirDenseArrayGetNumElements(so);
  for (intptr_t d = 0; d < n; d++)
    if (mlirDenseI64ArrayGetElement(so, d) != n - 1 - d) return false;
  return true;
}

/* Layout a kernel result is written with: the aliased input's, else dense
 * in its order (result_order), else its own (strides_of). */
static MlirAttribute result_strides(seg_state *st, MlirValue v) {
  int out = output_of(st, v), k = out >= 0 ? alias_input_of(st->func, out) : -1;
  if (k >= 0) return strides_of(st, mlirBlockGetArgument(st->body, k)); /* written into argument k */
  MlirAttribute so = result_order(st, v);
  if (mlirAttributeIsNull(so)) return strides_of(st, v);
  MlirType t = mlirValueGetType(v);
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t shape[FUSER_MAX_RANK], order[FUSER_MAX_RANK], strides[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d), order[d] = mlirDenseI64ArrayGetElement(so, d);
  fuser_dense_strides(rank, shape, order, strides);
  return mlirDenseI64ArrayGet(st->ctx, rank, strides);
}

static MlirAttribute dict1(MlirContext ctx, const char *name, MlirAttribute a) {
  MlirNamedAttribute e = fuser_named(ctx, name, a);
  return mlirDictionaryAttrGet(ctx, mlirAttributeIsNull(a) ? 0 : 1, &e);
}

/* Kernel parameters in plan order: arguments first, then by definition
 * (insertion sort: kernels read few globals). */
static void sort_inputs(seg_state *st, kernel_cone *k) {
  intptr_t *pos = malloc(sizeof *pos * (k->ninputs + 1));
  for (int i = 0; i < k->ninputs; i++) {
    pos[i] = 0;
    fuser_ptr_map_get(&st->position, k->inputs[i].ptr, &pos[i]);
  }
  for (int i = 1; i < k->ninputs; i++)
    for (int j = i; j > 0 && pos[j - 1] > pos[j]; j--) {
      intptr_t p = pos[j];
      pos[j] = pos[j - 1];
      pos[j - 1] = p;
      MlirValue v = k->inputs[j];
      k->inputs[j] = k->inputs[j - 1];
      k->inputs[j - 1] = v;
    }
  for (int i = 0; i < k->ninputs; i++) fuser_ptr_map_put(&k->input_index, k->inputs[i].ptr, i);
  free(pos);
}

/* The cone's ops in program order (by their first result's position). */
static int by_position(const void *a, const void *b) {
  intptr_t x = ((const intptr_t *)a)[0], y = ((const intptr_t *)b)[0];
  return x < y ? -1 : x > y;
}

static void sort_cone_ops(seg_state *st, kernel_cone *k) {
  intptr_t *pairs = malloc(sizeof *pairs * 2 * (k->nops + 1));
  for (int i = 0; i < k->nops; i++) {
    pairs[2 * i] = position_of(st, mlirOperationGetResult(k->ops[i], 0));
    pairs[2 * i + 1] = (intptr_t)k->ops[i].ptr;
  }
  qsort(pairs, k->nops, 2 * sizeof *pairs, by_position);
  for (int i = 0; i < k->nops; i++) k->ops[i] = (MlirOperation){(void *)pairs[2 * i + 1]};
  free(pairs);
}

/* Builds the kernel function, clones the cone into it, and calls it from
 * the plan. */
void seg_outline(seg_state *st, int kernel) {
  kernel_cone k = {0};
  fuser_ptr_map_init(&k.in_cone);
  fuser_ptr_map_init(&k.input_index);
  int nres = 0;
  MlirValue results[64];
  MlirAttribute reasons[64];
  for (int i = 0; i < st->nroots && nres < 64; i++)
    if (st->roots[i].kernel == kernel) {
      seg_collect_cone(st, &k, st->roots[i].value, kernel);
      reasons[nres] = fuser_str_attr(st->ctx, st->roots[i].reason);
      results[nres++] = st->roots[i].value;
    }
  sort_inputs(st, &k);
  MlirContext ctx = st->ctx;
  MlirLocation loc = mlirOperationGetLocation(st->func);
  MlirType *in_types = malloc(sizeof *in_types * (k.ninputs + 1));
  MlirLocation *in_locs = malloc(sizeof *in_locs * (k.ninputs + 1));
  MlirAttribute *arg_attrs = malloc(sizeof *arg_attrs * (k.ninputs + 1));
  for (int i = 0; i < k.ninputs; i++) {
    in_types[i] = mlirValueGetType(k.inputs[i]);
    in_locs[i] = loc;
    arg_attrs[i] = is_tensor(k.inputs[i]) ? dict1(ctx, "fuser.strides", strides_of(st, k.inputs[i]))
                                          : mlirDictionaryAttrGet(ctx, 0, NULL);
  }
  MlirType res_types[64];
  MlirAttribute res_attrs[64];
  for (int i = 0; i < nres; i++) {
    res_types[i] = mlirValueGetType(results[i]);
    /* a permuted dense result also carries its order: the kernel walks its
     * points in it where the strides are known only at run time */
    MlirNamedAttribute e[2] = {fuser_named(ctx, "fuser.strides", result_strides(st, results[i])),
                               fuser_named(ctx, "fuser.stride_order", result_order(st, results[i]))};
    bool ordered = !mlirAttributeIsNull(e[1].attribute) && !row_major_order(e[1].attribute);
    res_attrs[i] = mlirDictionaryAttrGet(ctx, ordered ? 2 : 1, e);
  }
  /* the kernel function */
  MlirRegion region = mlirRegionCreate();
  MlirBlock kbody = mlirBlockCreate(k.ninputs, in_types, in_locs);
  mlirRegionAppendOwnedBlock(region, kbody);
  fuser_ptr_map mapping; /* plan value -> kernel value */
  fuser_ptr_map_init(&mapping);
  for (int i = 0; i < k.ninputs; i++) fuser_ptr_map_put(&mapping, k.inputs[i].ptr, (intptr_t)mlirBlockGetArgument(kbody, i).ptr);
  sort_cone_ops(st, &k);
  for (int oi = 0; oi < k.nops; oi++) {
    MlirOperation op = k.ops[oi];
    MlirOperation c = mlirOperationClone(op);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(c); i++) {
      intptr_t mapped;
      if (fuser_ptr_map_get(&mapping, mlirOperationGetOperand(op, i).ptr, &mapped))
        mlirOperationSetOperand(c, i, (MlirValue){(void *)mapped});
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      fuser_ptr_map_put(&mapping, mlirOperationGetResult(op, r).ptr, (intptr_t)mlirOperationGetResult(c, r).ptr);
    mlirBlockAppendOwnedOperation(kbody, c);
  }
  MlirValue kres[64];
  for (int i = 0; i < nres; i++) {
    intptr_t mapped = 0;
    fuser_ptr_map_get(&mapping, results[i].ptr, &mapped);
    kres[i] = (MlirValue){(void *)mapped};
  }
  mlirBlockAppendOwnedOperation(kbody, fuser_create_op(loc, "func.return", nres, kres, 0, NULL, 0, NULL));
  fuser_ptr_map_free(&mapping);

  char name[256];
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(st->func, mlirStringRefCreateFromCString("sym_name")));
  snprintf(name, sizeof name, "%.*s_k%d", (int)fname.length, fname.data, kernel);
  MlirType fty = mlirFunctionTypeGet(ctx, k.ninputs, in_types, nres, res_types);
  MlirNamedAttribute fattrs[7] = {
      fuser_named(ctx, "sym_name", fuser_str_attr(ctx, name)),
      fuser_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      fuser_named(ctx, "sym_visibility", fuser_str_attr(ctx, "private")),
      fuser_named(ctx, "arg_attrs", mlirArrayAttrGet(ctx, k.ninputs, arg_attrs)),
      fuser_named(ctx, "res_attrs", mlirArrayAttrGet(ctx, nres, res_attrs)),
      fuser_named(ctx, "fuser.kernel", mlirUnitAttrGet(ctx)),
  };
  /* a matmul segment: the plan calls cuBLASLt for it; the kernel lowering skips it */
  bool matmul = nres == 1 && is_matmul(results[0]);
  if (matmul) fattrs[6] = fuser_named(ctx, "fuser.matmul", mlirUnitAttrGet(ctx));
  MlirOperationState fst = mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&fst, matmul ? 7 : 6, fattrs);
  mlirOperationStateAddOwnedRegions(&fst, 1, &region);
  MlirOperation kfunc = mlirOperationCreate(&fst);
  /* kernels follow the fusion in the module, in launch order */
  MlirOperation after = st->func;
  for (MlirOperation n = mlirOperationGetNextInBlock(after); !mlirOperationIsNull(n) &&
       !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(n, mlirStringRefCreateFromCString("fuser.kernel")));
       n = mlirOperationGetNextInBlock(n))
    after = n;
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(st->func), after, kfunc);

  /* the call in the plan */
  MlirNamedAttribute cattrs[2] = {
      fuser_named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      fuser_named(ctx, "fuser.cuts", mlirArrayAttrGet(ctx, nres, reasons)),
  };
  MlirOperation call = fuser_create_op(loc, "func.call", k.ninputs, k.inputs, nres, res_types, 2, cattrs);
  fuser_insert_before(mlirBlockGetTerminator(st->body), call);
  for (int i = 0; i < nres; i++) {
    MlirValue cr = mlirOperationGetResult(call, i);
    fuser_ptr_map_put(&st->position, cr.ptr, st->next_position++);
    MlirAttribute written = mlirDictionaryAttrGetElementByName(res_attrs[i], mlirStringRefCreateFromCString("fuser.strides"));
    fuser_ptr_map_put(&st->written, cr.ptr, (intptr_t)written.ptr);
    /* replace uses outside this kernel's cone (other kernels, the return) */
    MlirOpOperand u = mlirValueGetFirstUse(results[i]);
    while (!mlirOpOperandIsNull(u)) {
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (!fuser_ptr_map_get(&k.in_cone, user.ptr, NULL)) mlirOperationSetOperand(user, mlirOpOperandGetOperandNumber(u), cr);
      u = next;
    }
  }
  free(in_types);
  free(in_locs);
  free(arg_attrs);
  free(k.inputs);
  free(k.ops);
  fuser_ptr_map_free(&k.in_cone);
  fuser_ptr_map_free(&k.input_index);
}
