/* The C verifier: what IRDL cannot state. Checks every fuser op's result
 * types against nvFuser's rules (infer.c) and every fusion function's input
 * layouts, emitting one located error per violation. */
#include "dialects/fuser.h"
#include "dialects/extent.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "support/mlir_print.h"

static void type_str(MlirType t, char *buf, size_t cap) {
  fixed_text b = fixed_text_on(buf, cap);
  mlirTypePrint(t, fuser_print_to_fixed, &b);
}

/* Equal up to the tensor encoding (layouts live in attributes). */
static bool same_type(MlirType a, MlirType b) {
  if (mlirTypeIsARankedTensor(a) != mlirTypeIsARankedTensor(b)) return false;
  if (!mlirTypeIsARankedTensor(a)) return mlirTypeEqual(a, b);
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(a), mlirShapedTypeGetElementType(b))) return false;
  intptr_t r = mlirShapedTypeGetRank(a);
  if (r != mlirShapedTypeGetRank(b)) return false;
  for (intptr_t i = 0; i < r; i++)
    if (mlirShapedTypeGetDimSize(a, i) != mlirShapedTypeGetDimSize(b, i)) return false;
  return true;
}

static bool verify_order(MlirAttribute so, int rank, int64_t *order, const char *where, char *err, size_t errlen);

/* The result types nvFuser's rules give `op` from its operands and
 * attributes (the current result type is the hint for shape-taking and
 * dtype-taking ops). */
static bool expected_types(MlirOperation op, fuser_op_id id, MlirType *expect, char *err, size_t errlen) {
  intptr_t nres = mlirOperationGetNumResults(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  intptr_t want_res = kind == FUSER_KIND_VAR_MEAN ? 2 : kind == FUSER_KIND_CHECK || kind == FUSER_KIND_LAUNCH ? 0 : 1;
  if (nres != want_res) {
    snprintf(err, errlen, "expects %ld result(s)", (long)want_res);
    return false;
  }
  fuser_op_desc_storage d;
  if (!fuser_op_desc_of(op, &d, err, errlen)) return false;
  char why[256];
  if (!fuser_infer_result_types(mlirOperationGetContext(op), &d.desc, expect, why, sizeof why)) {
    snprintf(err, errlen, "%s", why);
    return false;
  }
  return true;
}

bool fuser_verify_op(MlirOperation op, char *err, size_t errlen) {
  fuser_op_id id = fuser_op_id_of(op);
  /* a launch has no result types to infer; its symbols, operand groups and
   * place are the plan verifier's (verify_plan.c) */
  if (id == FUSER_OP_NONE || fuser_op_kind_of(id) == FUSER_KIND_LAUNCH) return true;
  MlirType expect[2];
  if (!expected_types(op, id, expect, err, errlen)) return false;
  /* the layout an op's result is written in (fd.ops.stride_order's set, and
   * what fuser-allocation-order records): the passes index by it (found by
   * fuzz_mlir: `array<i32: 0, 1>` read as i64 overran fuser-segment's table) */
  MlirAttribute so = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.stride_order"));
  int64_t order[FUSER_MAX_RANK + 1];
  if (!mlirAttributeIsNull(so) && mlirOperationGetNumResults(op) &&
      mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0))) &&
      !verify_order(so, (int)mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(op, 0))), order, "", err, errlen))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirType got = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!same_type(got, expect[i])) {
      char g[128], e[128];
      type_str(got, g, sizeof g);
      type_str(expect[i], e, sizeof e);
      snprintf(err, errlen, "result #%ld has type %s but nvFuser's rules give %s", (long)i, g, e);
      return false;
    }
  }
  return true;
}

bool fuser_reinfer_op(MlirOperation op, char *err, size_t errlen) {
  fuser_op_id id = fuser_op_id_of(op);
  if (id == FUSER_OP_NONE) return true;
  MlirType expect[2];
  if (!expected_types(op, id, expect, err, errlen)) return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) mlirValueSetType(mlirOperationGetResult(op, i), expect[i]);
  return true;
}

static int array_attr(MlirAttribute a, int64_t *out, int cap) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a)) return -1;
  intptr_t n = mlirDenseArrayGetNumElements(a);
  for (intptr_t i = 0; i < n && i < cap; i++) out[i] = mlirDenseI64ArrayGetElement(a, i);
  return (int)n;
}

/* A fuser.stride_order of `rank` entries: an array<i64> permutation of
 * [0, rank) (absent: row-major). `where` prefixes the message. */
static bool verify_order(MlirAttribute so, int rank, int64_t *order, const char *where, char *err, size_t errlen) {
  int n = rank;
  for (int i = 0; i < rank; i++) order[i] = rank - 1 - i;
  if (!mlirAttributeIsNull(so)) n = array_attr(so, order, FUSER_MAX_RANK);
  if (n != rank) {
    snprintf(err, errlen, "%sfuser.stride_order must be an array<i64> of %d entries", where, rank);
    return false;
  }
  bool seen[FUSER_MAX_RANK] = {0};
  for (int i = 0; i < rank; i++) {
    if (order[i] < 0 || order[i] >= rank || seen[order[i]]) {
      snprintf(err, errlen, "%sfuser.stride_order is not a permutation of [0, %d)", where, rank);
      return false;
    }
    seen[order[i]] = true;
  }
  return true;
}

/* Checks one argument's or result's layout attributes (`what` names which);
 * `dict` is its attribute dictionary. */
static bool verify_layout(MlirType t, MlirAttribute dict, const char *what, int argno, char *err, size_t errlen) {
  if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict)) return true;
  MlirAttribute so = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.stride_order"));
  MlirAttribute co = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.contiguity"));
  MlirAttribute cpu = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.is_cpu"));
  if (!mlirAttributeIsNull(cpu) && (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 0)) {
    snprintf(err, errlen, "argument #%d: fuser.is_cpu (a CPU scalar tensor) needs a 0-dim tensor", argno);
    return false;
  }
  if (mlirAttributeIsNull(so) && mlirAttributeIsNull(co)) return true;
  if (!mlirTypeIsARankedTensor(t)) {
    snprintf(err, errlen, "%s #%d is a scalar but has a tensor layout", what, argno);
    return false;
  }
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t order[FUSER_MAX_RANK + 1], contig[FUSER_MAX_RANK + 1];
  int nco;
  char where[64];
  snprintf(where, sizeof where, "%s #%d: ", what, argno);
  if (!verify_order(so, rank, order, where, err, errlen)) return false;
  if (mlirAttributeIsNull(co)) return true;
  nco = array_attr(co, contig, FUSER_MAX_RANK);
  if (nco != rank) {
    snprintf(err, errlen, "%s #%d: fuser.contiguity must be an array<i64> of %d entries", what, argno, rank);
    return false;
  }
  /* contiguity is listed in allocation order: position rank-1-order[d] holds dim d */
  for (int d = 0; d < rank; d++) {
    int64_t c = contig[rank - 1 - order[d]];
    int64_t extent = mlirShapedTypeGetDimSize(t, d);
    if (c < -1 || c > 1) {
      snprintf(err, errlen, "%s #%d: fuser.contiguity entries are 1 (True), 0 (False) or -1 (None)", what, argno);
      return false;
    }
    if (extent == 1 && c != -1) {
      snprintf(err, errlen, "%s #%d: dim %d has extent 1 (a broadcast) so its contiguity must be None (-1)", what, argno, d);
      return false;
    }
  }
  return true;
}

/* A result's fuser.alias_input = K (fd.add_output(out, alias_input)): the
 * result is written into tensor argument K's storage, so both have one
 * dtype and rank and equal static extents, and no two results share K. */
static bool verify_alias_input(MlirType fty, MlirAttribute res_attrs, intptr_t i, char *err, size_t errlen) {
  MlirAttribute dict = mlirArrayAttrGetElement(res_attrs, i);
  if (!mlirAttributeIsADictionary(dict)) return true;
  MlirAttribute a = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.alias_input"));
  if (mlirAttributeIsNull(a)) return true;
  intptr_t nargs = mlirFunctionTypeGetNumInputs(fty);
  if (!mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) < 0 || mlirIntegerAttrGetValueInt(a) >= nargs) {
    snprintf(err, errlen, "result #%d: fuser.alias_input must be an i64 argument index in [0, %d)", (int)i, (int)nargs);
    return false;
  }
  int64_t k = mlirIntegerAttrGetValueInt(a);
  MlirType in = mlirFunctionTypeGetInput(fty, k), out = mlirFunctionTypeGetResult(fty, i);
  bool ok = mlirTypeIsARankedTensor(in) && mlirTypeIsARankedTensor(out) &&
            mlirTypeEqual(mlirShapedTypeGetElementType(in), mlirShapedTypeGetElementType(out)) &&
            mlirShapedTypeGetRank(in) == mlirShapedTypeGetRank(out);
  for (intptr_t d = 0; ok && d < mlirShapedTypeGetRank(in); d++)
    ok = mlirShapedTypeIsDynamicDim(in, d) || mlirShapedTypeIsDynamicDim(out, d) ||
         mlirShapedTypeGetDimSize(in, d) == mlirShapedTypeGetDimSize(out, d);
  if (!ok) {
    snprintf(err, errlen, "result #%d: fuser.alias_input names argument #%d, which is not a tensor of the result's dtype and shape",
             (int)i, (int)k);
    return false;
  }
  for (intptr_t j = 0; j < i; j++) {
    MlirAttribute dj = mlirArrayAttrGetElement(res_attrs, j);
    MlirAttribute aj = mlirAttributeIsADictionary(dj)
                           ? mlirDictionaryAttrGetElementByName(dj, mlirStringRefCreateFromCString("fuser.alias_input"))
                           : mlirAttributeGetNull();
    if (!mlirAttributeIsNull(aj) && mlirAttributeIsAInteger(aj) && mlirIntegerAttrGetValueInt(aj) == k) {
      snprintf(err, errlen, "result #%d: fuser.alias_input: argument #%d already receives result #%d", (int)i, (int)k, (int)j);
      return false;
    }
  }
  return true;
}

bool fuser_verify_function(MlirOperation func, char *err, size_t errlen) {
  MlirAttribute ft = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(ft) || !mlirAttributeIsAType(ft)) return true;
  MlirType fty = mlirTypeAttrGetValue(ft);
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = mlirFunctionTypeGetInput(fty, i);
    MlirType elt = mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetElementType(t) : t;
    if (fuser_dtype_of_type(elt) == FUSER_DTYPE_INVALID) {
      snprintf(err, errlen, "argument #%ld has an unsupported type (tensors and scalars of bf16 f16 f32 f64 i1 i32 i64)", (long)i);
      return false;
    }
    if (mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) > FUSER_MAX_RANK) {
      snprintf(err, errlen, "argument #%ld has rank > %d", (long)i, FUSER_MAX_RANK);
      return false;
    }
    if (!mlirAttributeIsNull(arg_attrs) && mlirAttributeIsAArray(arg_attrs) && i < mlirArrayAttrGetNumElements(arg_attrs))
      if (!verify_layout(t, mlirArrayAttrGetElement(arg_attrs, i), "argument", (int)i, err, errlen)) return false;
  }
  /* a result's fuser.stride_order (the layout it is written in) is a
   * permutation too: the passes index by it (found by fuzz_mlir: `array<i64:
   * 0, 0>` crashed fuser-segment) */
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  for (intptr_t i = 0; !mlirAttributeIsNull(res_attrs) && mlirAttributeIsAArray(res_attrs) &&
                       i < mlirFunctionTypeGetNumResults(fty) && i < mlirArrayAttrGetNumElements(res_attrs); i++) {
    MlirType t = mlirFunctionTypeGetResult(fty, i);
    if (mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) > FUSER_MAX_RANK) continue; /* refused elsewhere */
    if (!verify_layout(t, mlirArrayAttrGetElement(res_attrs, i), "result", (int)i, err, errlen)) return false;
    if (!verify_alias_input(fty, res_attrs, i, err, errlen)) return false;
  }
  return true;
}

typedef struct {
  int errors;
} verify_state;

static bool is_fusion_function(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != 9 || memcmp(name.data, "func.func", 9) != 0) return false;
  return !mlirAttributeIsNull(
      mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.fusion")));
}

static MlirWalkResult verify_one(MlirOperation op, void *ud) {
  verify_state *st = ud;
  char err[512];
  bool ok = true;
  if (is_fusion_function(op)) ok = fuser_verify_function(op, err, sizeof err);
  else if (fuser_op_id_of(op) != FUSER_OP_NONE) ok = fuser_verify_op(op, err, sizeof err);
  if (ok) ok = fuser_verify_plan_op(op, err, sizeof err);
  if (!ok) {
    char msg[640];
    snprintf(msg, sizeof msg, "'%.*s' op %s", (int)mlirIdentifierStr(mlirOperationGetName(op)).length,
             mlirIdentifierStr(mlirOperationGetName(op)).data, err);
    mlirEmitError(mlirOperationGetLocation(op), msg);
    st->errors++;
  }
  return MlirWalkResultAdvance;
}

int fuser_verify(MlirOperation root) {
  verify_state st = {0};
  mlirOperationWalk(root, verify_one, &st, MlirWalkPreOrder);
  return st.errors;
}
