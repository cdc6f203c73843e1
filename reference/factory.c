/* Ops that make values from nothing but scalars: fuser.scalar constants,
 * full and iota. */
#include <stdlib.h>

#include "mlir-c/BuiltinAttributes.h"
#include "reference/ops.h"

bool ref_eval_scalar(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  MlirAttribute v = mlirOperationGetDiscardableAttributeByName(c->op, mlirStringRefCreateFromCString("value"));
  double f = 0;
  int64_t i = 0;
  if (mlirAttributeIsNull(v)) return ref_fail(c, FUSER_REF_ERR_FUSION, "fuser.scalar without a 'value' attribute");
  if (mlirAttributeIsABool(v)) i = mlirBoolAttrGetValue(v);
  else if (mlirAttributeIsAFloat(v)) f = mlirFloatAttrGetValueDouble(v);
  else if (mlirAttributeIsAInteger(v))
    i = rt.dtype == FUSER_DTYPE_I1 ? (mlirIntegerAttrGetValueInt(v) != 0) : mlirIntegerAttrGetValueInt(v);
  else return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "fuser.scalar 'value' must be an integer, float or bool");
  if (!fuser_dtype_is_float(rt.dtype)) f = (double)i;
  else if (!mlirAttributeIsAFloat(v)) f = (double)i;
  return ref_make_scalar(c, ref_storage_dtype(c, rt.dtype), f, i, &res[0]);
}

/* full(fill_value, shape...): every element the fill value, rounded once
 * to the dtype. iota(length, start, step): start + i * step, computed in
 * the dtype's domain (f32 arithmetic for f32). In float64 mode both still
 * give values of their dtype's precision, as a cast does. */
bool ref_eval_factory(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  if (n < 1 || ops[0].rank != 0) return ref_fail(c, FUSER_REF_ERR_FUSION, "'%s' takes scalar operands", fuser_op_full_name(id));
  int64_t sizes[FUSER_MAX_RANK];
  if (id == FUSER_OP_full) {
    if (!ref_shape_from_operands(c, &rt, ops, 1, n, sizes)) return false;
    for (int d = 0; d < rt.rank; d++)
      if (sizes[d] < 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "full with negative extent %lld", (long long)sizes[d]);
    ref_tensor value;
    if (!ref_scalar_as(c, &ops[0], rt.dtype, &value)) return false;
    bool ok = ref_alloc(c, ref_storage_dtype(c, rt.dtype), rt.rank, sizes, &res[0]);
    if (ok && !(ok = ref_fill(c, &res[0], &value))) ref_release(&res[0]);
    ref_release(&value);
    return ok;
  }
  if (id != FUSER_OP_iota) return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "no factory semantics for '%s'", fuser_op_full_name(id));
  if (n != 3 || ops[1].rank || ops[2].rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "iota takes (length, start, step)");
  int64_t len = ref_scalar_i64(&ops[0]);
  if (len < 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "iota length %lld is negative", (long long)len);
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), 1, &len, &res[0])) return false;
  ref_domain dom = ref_domain_of(c, rt.dtype);
  double start = ref_scalar_f64(&ops[1]), step = ref_scalar_f64(&ops[2]);
  int64_t istart = ref_scalar_i64(&ops[1]), istep = ref_scalar_i64(&ops[2]);
  for (int64_t k = 0; k < len; k++) {
    union {
      float f;
      double d;
      int64_t i;
    } v;
    if (dom == REF_F32) v.f = (float)start + (float)k * (float)step;
    else if (dom == REF_F64) {
      v.d = start + (double)k * step;
      ref_round_row(rt.dtype, &v.d, 1); /* float64 mode: the dtype's precision still */
    }
    else v.i = (int64_t)((uint64_t)istart + (uint64_t)k * (uint64_t)istep);
    ref_store_row(&res[0], k, 1, 1, dom, &v);
  }
  return true;
}

bool ref_factory_knows(fuser_op_id id) { return id == FUSER_OP_scalar || id == FUSER_OP_full || id == FUSER_OP_iota; }
