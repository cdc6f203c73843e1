/* The reference semantics of fuser.uniform and fuser.normal: element i (in
 * row-major order of the result) is philox.h's value for (rng_seed,
 * rng_offset, i), so the values do not depend on the evaluation order or
 * on how a plan splits the work. bf16/f16 results follow nvFuser: compute in
 * f32, round once, and a uniform that rounds up to maxval becomes minval. In
 * float64 mode the values are still those of the result dtype (they are
 * data, like iota's). */
#include <math.h>

#include "reference/ops.h"
#include "reference/philox.h"

static double rng_value(fuser_op_id id, fuser_dtype dt, uint64_t seed, uint64_t offset, uint64_t i, double a, double b) {
  if (dt == FUSER_DTYPE_F64)
    return id == FUSER_OP_uniform ? fuser_philox_uniform_f64(seed, offset, i, a, b)
                                  : fuser_philox_normal_f64(seed, offset, i, a, b);
  if (id == FUSER_OP_normal) {
    double v = fuser_philox_normal_f32(seed, offset, i, (float)a, (float)b);
    ref_round_row(dt, &v, 1);
    return v;
  }
  if (dt == FUSER_DTYPE_F32) return fuser_philox_uniform_f32(seed, offset, i, (float)a, (float)b);
  uint32_t w[4];
  fuser_philox4x32_10(seed, i / 4, offset, w);
  float lo = (float)a, hi = (float)b;
  double v = lo + (hi - lo) * fuser_philox_raw_uniformf(w[i % 4]), top = hi, bottom = lo;
  ref_round_row(dt, &v, 1);
  ref_round_row(dt, &top, 1);
  ref_round_row(dt, &bottom, 1);
  return v == top ? bottom : v;
}

bool ref_eval_rng(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  if (n < 4 || ops[0].rank || ops[1].rank || ops[2].rank || ops[3].rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "'%s' takes (a, b, rng_seed, rng_offset, shape...) scalars", fuser_op_full_name(id));
  if (!fuser_dtype_is_float(rt.dtype)) return ref_fail(c, FUSER_REF_ERR_FUSION, "'%s' makes floating-point values", fuser_op_full_name(id));
  int64_t sizes[FUSER_MAX_RANK];
  if (!ref_shape_from_operands(c, &rt, ops, 4, n, sizes)) return false;
  for (int d = 0; d < rt.rank; d++)
    if (sizes[d] < 0) return ref_fail(c, FUSER_REF_ERR_SHAPE, "'%s' with negative extent %lld", fuser_op_full_name(id), (long long)sizes[d]);
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), rt.rank, sizes, &res[0])) return false;
  uint64_t seed = (uint64_t)ref_scalar_i64(&ops[2]), offset = (uint64_t)ref_scalar_i64(&ops[3]);
  double a = ref_scalar_f64(&ops[0]), b = ref_scalar_f64(&ops[1]);
  ref_domain dom = ref_domain_of(c, rt.dtype);
  int64_t total = ref_numel(&res[0]);
  for (int64_t i = 0; i < total; i++) {
    double v = rng_value(id, rt.dtype, seed, offset, (uint64_t)i, a, b);
    union {
      float f;
      double d;
    } x;
    if (dom == REF_F32) x.f = (float)v;
    else x.d = v;
    ref_store_row(&res[0], i, 1, 1, dom, &x);
  }
  return true;
}
