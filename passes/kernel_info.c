/* kernel_info.c: the signature of a kernel function (kernel_info.h, plan
 * contract): tensor arguments and results with their `fuser.strides`, scalar
 * arguments, and the iteration space (the shape of result 0). Also the
 * index-map arithmetic the vectorizer needs (access strides and offsets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/kernel_info.h"

#include "passes/ir_util.h"
#include "passes/schedule_reduction.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "support/error.h"

/* Reads `fuser.strides` out of one entry of arg_attrs/res_attrs. */
static bool read_strides(MlirAttribute dict, fk_tensor *t) {
  if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict)) return false;
  MlirAttribute s = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.strides"));
  if (mlirAttributeIsNull(s) || !mlirAttributeIsADenseI64Array(s)) return false;
  if (mlirDenseArrayGetNumElements(s) != t->rank) return false;
  for (int i = 0; i < t->rank; i++) t->strides[i] = mlirDenseI64ArrayGetElement(s, i);
  return true;
}

/* Reads the optional `fuser.stride_order` of a result's entry (a
 * permutation of its dims); false when it is malformed. */
static bool read_order(MlirAttribute dict, fk_tensor *t) {
  MlirAttribute so = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.stride_order"));
  if (mlirAttributeIsNull(so)) return true;
  if (!mlirAttributeIsADenseI64Array(so) || mlirDenseArrayGetNumElements(so) != t->rank) return false;
  bool seen[FK_R] = {0};
  for (int i = 0; i < t->rank; i++) {
    int64_t r = mlirDenseI64ArrayGetElement(so, i);
    if (r < 0 || r >= t->rank || seen[r]) return false; /* not a permutation */
    seen[r] = true;
    t->stride_order[i] = r;
  }
  t->ordered = true;
  return true;
}

static bool read_tensor_type(MlirType ty, fk_tensor *t) {
  t->is_tensor = mlirTypeIsARankedTensor(ty);
  t->dtype = fuser_dtype_of_type(t->is_tensor ? mlirShapedTypeGetElementType(ty) : ty);
  if (t->dtype == FUSER_DTYPE_INVALID) return false;
  if (!t->is_tensor) return true;
  t->rank = (int)mlirShapedTypeGetRank(ty);
  if (t->rank > FK_R) return false;
  for (int i = 0; i < t->rank; i++)
    t->shape[i] = mlirShapedTypeIsDynamicDim(ty, i) ? FK_DYN : mlirShapedTypeGetDimSize(ty, i);
  return true;
}

/* The iteration order over result 0's dims (kernel_info.h, iter_dim): its
 * dims in order, except that a dim of static stride 1 (and extent other
 * than 1) before the last one moves innermost, so that the vectors run
 * along the bytes the kernel writes; with a stride order (a permuted dense
 * result) and no reduction (whose schedules walk result dims in order),
 * the dims in that order, slowest first. */
static void iteration_order(const fk_tensor *r0, bool pointwise, int8_t *order) {
  if (r0->ordered && pointwise) { /* slowest first: stride rank rank-1 down to 0 */
    for (int j = 0; j < r0->rank; j++) order[r0->rank - 1 - r0->stride_order[j]] = (int8_t)j;
    return;
  }
  int inner = -1;
  for (int j = 0; j < r0->rank; j++)
    if (r0->strides[j] == 1 && r0->shape[j] != 1) inner = j;
  bool last_contiguous = r0->rank == 0 || r0->strides[r0->rank - 1] == 1 || r0->shape[r0->rank - 1] == 1;
  int n = 0;
  for (int j = 0; j < r0->rank; j++)
    if (last_contiguous || j != inner) order[n++] = (int8_t)j;
  if (!last_contiguous && inner >= 0) order[n++] = (int8_t)inner;
}

bool fk_kernel_read(MlirOperation func, fk_kernel *k) {
  memset(k, 0, sizeof *k);
  k->func = func;
  MlirAttribute sym = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef name = mlirStringAttrGetValue(sym);
  k->name = name.data;
  k->name_len = name.length;
  MlirAttribute fty = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type"));
  MlirType ft = mlirTypeAttrGetValue(fty);
  k->num_args = (int)mlirFunctionTypeGetNumInputs(ft);
  k->num_results = (int)mlirFunctionTypeGetNumResults(ft);
  k->num_tensors = k->num_args + k->num_results;
  if (k->num_tensors > FK_MAX_TENSORS) {
    char msg[128];
    snprintf(msg, sizeof msg, "kernel has %d arguments and results: at most %d are supported", k->num_tensors, FK_MAX_TENSORS);
    return fuser_emit_error(func, "%s", msg);
  }
  if (k->num_results == 0) return fuser_emit_error(func, "%s", "kernel has no results");
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  char msg[256];
  for (int i = 0; i < k->num_tensors; i++) {
    bool is_result = i >= k->num_args;
    int pos = is_result ? i - k->num_args : i;
    fk_tensor *t = &k->t[i];
    t->is_result = is_result;
    MlirType ty = is_result ? mlirFunctionTypeGetResult(ft, pos) : mlirFunctionTypeGetInput(ft, pos);
    if (!read_tensor_type(ty, t)) {
      snprintf(msg, sizeof msg, "kernel %s #%d has an unsupported type", is_result ? "result" : "argument", pos);
      return fuser_emit_error(func, "%s", msg);
    }
    if (!t->is_tensor) {
      if (is_result) return fuser_emit_error(func, "%s", "kernel results must be tensors");
      continue;
    }
    MlirAttribute attrs = is_result ? res_attrs : arg_attrs;
    MlirAttribute dict = mlirAttributeIsNull(attrs) ? attrs : mlirArrayAttrGetElement(attrs, pos);
    if (!read_strides(dict, t)) {
      snprintf(msg, sizeof msg, "kernel %s #%d needs a 'fuser.strides' array of %d entries",
               is_result ? "result" : "argument", pos, t->rank);
      return fuser_emit_error(func, "%s", msg);
    }
    if (!read_order(dict, t)) {
      snprintf(msg, sizeof msg, "kernel %s #%d: 'fuser.stride_order' must be a permutation of its %d dims",
               is_result ? "result" : "argument", pos, t->rank);
      return fuser_emit_error(func, "%s", msg);
    }
  }
  const fk_tensor *r0 = &k->t[k->num_args];
  k->rank = r0->rank;
  bool pointwise = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(func)); !mlirOperationIsNull(op) && pointwise;
       op = mlirOperationGetNextInBlock(op))
    pointwise = !fuser_is_reduction_op(op);
  iteration_order(r0, pointwise, k->iter_dim);
  for (int d = 0; d < k->rank; d++) k->extent[d] = r0->shape[k->iter_dim[d]];
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(func));
  for (int j = 1; j < k->num_results; j++) {
    const fk_tensor *r = &k->t[k->num_args + j];
    MlirValue x;
    int64_t groups;
    /* inner_outer's partials (fuser-fuse-inner-outer): [groups, H] beside [N, H] */
    if (fuser_inner_outer_partial(mlirOperationGetOperand(ret, j), &x, &groups)) continue;
    bool same = r->rank == r0->rank;
    /* a `?` beside a static extent: fuser-segment puts results in one kernel
     * only when their dims are the same iteration dims, so they agree at run
     * time (LayerNorm backward's dw of 768 columns and db of `?`) */
    for (int d = 0; same && d < r->rank; d++) same = r->shape[d] == r0->shape[d] || r->shape[d] == FK_DYN || r0->shape[d] == FK_DYN;
    if (!same) return fuser_emit_error(func, "%s", "kernel results must all have the shape of the iteration space");
  }
  return true;
}

int64_t fk_access_stride(const fk_kernel *k, const fk_access *a, int d) {
  const fk_tensor *t = &k->t[a->tensor];
  int64_t s = 0;
  for (int j = 0; j < t->rank; j++) {
    if (!a->coef[j][d]) continue;
    if (t->strides[j] == FK_DYN) return FK_DYN;
    s += t->strides[j] * a->coef[j][d];
  }
  return s;
}

int64_t fk_access_offset(const fk_kernel *k, const fk_access *a) {
  const fk_tensor *t = &k->t[a->tensor];
  int64_t c = 0;
  for (int j = 0; j < t->rank; j++) {
    if (!a->off[j]) continue;
    if (t->strides[j] == FK_DYN) return FK_DYN;
    c += t->strides[j] * a->off[j];
  }
  return c;
}

void fk_kernel_free(fk_kernel *k) {
  free(k->acc);
  free(k->bnd);
  k->acc = NULL, k->bnd = NULL;
  k->num_accesses = k->cap_accesses = k->num_boundaries = k->cap_boundaries = 0;
}

bool fuser_is_kernel(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length != 9 || memcmp(n.data, "func.func", 9) != 0) return false;
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.kernel"))) &&
         !fuser_is_matmul_kernel(op);
}

bool fuser_is_matmul_kernel(MlirOperation op) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.matmul")));
}

bool fuser_check_kernel_bodies(MlirOperation module) {
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    bool kernel = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.kernel")));
    if (!kernel || mlirOperationGetNumRegions(op) == 0 || !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      continue;
    mlirEmitError(mlirOperationGetLocation(op), "a fuser.kernel function has no body (a declaration): there is nothing to compile");
    ok = false;
  }
  return ok;
}

bool fuser_check_segmented(MlirOperation module, const char *pass) {
  bool ok = fuser_check_kernel_bodies(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    bool fusion = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.fusion")));
    bool plan = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.plan")));
    if (!fusion || plan) continue;
    char msg[200];
    snprintf(msg, sizeof msg, "%s: this fusion is not segmented into kernels yet (run fuser-segment first)", pass);
    mlirEmitError(mlirOperationGetLocation(op), msg);
    ok = false;
  }
  return ok;
}

int fk_index_sites(MlirOperation func, MlirOperation *sites, int cap) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_op_kind_of(fuser_op_id_of(op)) == FUSER_KIND_INDEX) {
      if (n < cap) sites[n] = op;
      n++;
    }
  return n;
}
