/* kernel_gen_ops.c: element-wise ops of the kernel generator (see
 * kernel_gen_internal.h): the type each op computes in and its arith/math
 * ops, for scalars and vectors alike. Separate because it depends only on
 * the values, not on indices or on where they come from. */
#include <math.h>

#include "lowering/kernel_gen_internal.h"
#include "lowering/special_fns.h"

/* ---- elementwise ops ------------------------------------------------------ */

/* The type an op computes in: its result type, with bf16/f16 widened to f32;
 * comparisons compute in the operands' common type. */
static fuser_dtype compute_type(fuser_op_id id, kval *x, int n, fuser_dtype out_dt) {
  fuser_rule rule = fuser_op_rule_of(id);
  if (rule == FUSER_RULE_COMPARE || (rule == FUSER_RULE_BOOL && id != FUSER_OP_logical_and &&
                                     id != FUSER_OP_logical_or && id != FUSER_OP_logical_not)) {
    bool any_float = false, any_f64 = false, any_i64 = false;
    for (int i = 0; i < n; i++) {
      any_float |= kg_is_float(x[i].dt);
      any_f64 |= x[i].dt == FUSER_DTYPE_F64;
      any_i64 |= x[i].dt == FUSER_DTYPE_I64;
    }
    if (any_float) return any_f64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32;
    return any_i64 ? FUSER_DTYPE_I64 : FUSER_DTYPE_I32;
  }
  if (id == FUSER_OP_logical_and || id == FUSER_OP_logical_or || id == FUSER_OP_logical_not) return FUSER_DTYPE_I1;
  if (out_dt == FUSER_DTYPE_BF16 || out_dt == FUSER_DTYPE_F16) return FUSER_DTYPE_F32;
  return out_dt;
}

static kval op1(gen *g, const char *opname, kval a) { return (kval){fb_unary(&g->b, opname, a.v), a.vec, a.dt}; }

kval kg_op2(gen *g, const char *opname, kval a, kval b) { return (kval){fb_binary(&g->b, opname, a.v, b.v), a.vec, a.dt}; }

/* A comparison: fp (float operands) or ip (integer operands). */
static kval cmp(gen *g, fb_cmpf_pred fp, fb_cmpi_pred ip, kval a, kval b) {
  MlirValue r = kg_is_float(a.dt) ? fb_cmpf(&g->b, fp, a.v, b.v) : fb_cmpi(&g->b, ip, a.v, b.v);
  return (kval){r, a.vec, FUSER_DTYPE_I1};
}

static kval select3(gen *g, kval c, kval a, kval b) { return (kval){fb_select(&g->b, c.v, a.v, b.v), a.vec, a.dt}; }

/* Integer pow as nvFuser's runtime and the reference (i_pow) define it:
 * square-and-multiply over the exponent's bits (wrapping products; a loop
 * of bits - 1 steps, scalar or vector alike); a negative exponent gives 1
 * for a == 1, +-1 for a == -1 (by its parity), else 0. */
static kval int_pow(gen *g, kval a, kval b) {
  fb_builder *fb = &g->b;
  int bits = a.dt == FUSER_DTYPE_I64 ? 64 : 32;
  kval one = kg_kconst(g, 1, a), zero = kg_kconst(g, 0, a), mone = kg_kconst(g, -1, a);
  MlirValue init[3] = {one.v, a.v, b.v};
  fb_ip after = fb_get_ip(fb);
  MlirOperation loop = fb_for(fb, kg_cidx(g, 0), kg_cidx(g, bits - 1), kg_cidx(g, 1), 3, init);
  fb_set_ip(fb, fb_ip_end(fb_body(loop)));
  kval r = {fb_for_iter_arg(loop, 0), a.vec, a.dt}, base = {fb_for_iter_arg(loop, 1), a.vec, a.dt},
       e = {fb_for_iter_arg(loop, 2), a.vec, a.dt};
  kval odd = cmp(g, FB_CMPF_UNE, FB_CMPI_NE, kg_op2(g, "arith.andi", e, one), zero);
  MlirValue next[3] = {select3(g, odd, kg_op2(g, "arith.muli", r, base), r).v, kg_op2(g, "arith.muli", base, base).v,
                       kg_op2(g, "arith.shrsi", e, one).v};
  fb_yield(fb, 3, next);
  fb_set_ip(fb, after);
  kval pos = {fb_result(loop, 0), a.vec, a.dt};
  kval b_odd = cmp(g, FB_CMPF_UNE, FB_CMPI_NE, kg_op2(g, "arith.andi", b, one), zero);
  kval neg = select3(g, cmp(g, FB_CMPF_OEQ, FB_CMPI_EQ, a, one), one,
                     select3(g, cmp(g, FB_CMPF_OEQ, FB_CMPI_EQ, a, mone), select3(g, b_odd, mone, one), zero));
  return select3(g, cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, b, zero), neg, pos);
}

/* trunc(x): math.trunc has no NVVM lowering: ceil below 0, floor else (-0.5 -> -0.0) */
static kval trunc_of(gen *g, kval a) {
  return select3(g, cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, a, kg_kconst(g, 0, a)), op1(g, "math.ceil", a), op1(g, "math.floor", a));
}

/* A shift as PTX's shl/shr: an amount outside [0, bits) (read unsigned)
 * shifts everything out: `out` is the result then. */
static kval shift(gen *g, const char *opname, kval a, kval b, kval out) {
  kval width = kg_kconst(g, a.dt == FUSER_DTYPE_I32 ? 32 : 64, b);
  return select3(g, cmp(g, FB_CMPF_OLT, FB_CMPI_ULT, b, width), kg_op2(g, opname, a, b), out);
}

kval kg_elementwise(gen *g, MlirOperation op, fuser_op_id id, kval *x, int n, fuser_dtype out_dt) {
  bool vec = false;
  for (int i = 0; i < n; i++) vec |= x[i].vec;
  if (id == FUSER_OP_cast) {
    kval a = vec ? kg_splat(g, x[0]) : x[0];
    if ((a.dt == FUSER_DTYPE_BF16 || a.dt == FUSER_DTYPE_F16) && !kg_is_float(out_dt)) a = kg_convert(g, a, FUSER_DTYPE_F32);
    return kg_convert(g, a, out_dt);
  }
  fuser_dtype ct = compute_type(id, x, n, out_dt);
  kval a[3];
  for (int i = 0; i < n && i < 3; i++) {
    a[i] = x[i];
    if (id == FUSER_OP_where && i == 0) a[i] = kg_convert(g, a[i], FUSER_DTYPE_I1);
    else if (id == FUSER_OP_where) a[i] = kg_convert(g, a[i], out_dt);
    else {
      if ((a[i].dt == FUSER_DTYPE_BF16 || a[i].dt == FUSER_DTYPE_F16) && ct != FUSER_DTYPE_F32 &&
          ct != FUSER_DTYPE_F64)
        a[i] = kg_convert(g, a[i], FUSER_DTYPE_F32);
      a[i] = kg_convert(g, a[i], ct);
    }
    if (vec) a[i] = kg_splat(g, a[i]);
  }
  bool fl = kg_is_float(ct);
  kval r;
  switch (id) {
  case FUSER_OP_neg: r = fl ? op1(g, "arith.negf", a[0]) : kg_op2(g, "arith.subi", kg_kconst(g, 0, a[0]), a[0]); break;
  case FUSER_OP_abs: /* math.absi has no NVVM lowering below 32 bits and for i64: select */
    r = fl ? op1(g, "math.absf", a[0])
           : select3(g, cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, a[0], kg_kconst(g, 0, a[0])),
                     kg_op2(g, "arith.subi", kg_kconst(g, 0, a[0]), a[0]), a[0]);
    break;
  case FUSER_OP_exp: r = op1(g, "math.exp", a[0]); break;
  case FUSER_OP_exp2: r = op1(g, "math.exp2", a[0]); break;
  case FUSER_OP_expm1: r = op1(g, "math.expm1", a[0]); break;
  case FUSER_OP_log: r = op1(g, "math.log", a[0]); break;
  case FUSER_OP_log1p: r = op1(g, "math.log1p", a[0]); break;
  case FUSER_OP_log2: r = op1(g, "math.log2", a[0]); break;
  case FUSER_OP_sqrt: r = op1(g, "math.sqrt", a[0]); break;
  case FUSER_OP_rsqrt: r = op1(g, "math.rsqrt", a[0]); break;
  case FUSER_OP_sin: r = op1(g, "math.sin", a[0]); break;
  case FUSER_OP_cos: r = op1(g, "math.cos", a[0]); break;
  case FUSER_OP_tan: r = op1(g, "math.tan", a[0]); break;
  case FUSER_OP_tanh: r = op1(g, "math.tanh", a[0]); break;
  case FUSER_OP_erf: r = op1(g, "math.erf", a[0]); break;
  case FUSER_OP_ceil: r = fl ? op1(g, "math.ceil", a[0]) : a[0]; break;
  case FUSER_OP_floor: r = fl ? op1(g, "math.floor", a[0]) : a[0]; break;
  case FUSER_OP_round: r = fl ? op1(g, "math.roundeven", a[0]) : a[0]; break;
  case FUSER_OP_trunc: r = fl ? trunc_of(g, a[0]) : a[0]; break;
  case FUSER_OP_frac: r = fl ? kg_op2(g, "arith.subf", a[0], trunc_of(g, a[0])) : kg_kconst(g, 0, a[0]); break;
  case FUSER_OP_acos: r = op1(g, "math.acos", a[0]); break;
  case FUSER_OP_asin: r = op1(g, "math.asin", a[0]); break;
  case FUSER_OP_atan: r = op1(g, "math.atan", a[0]); break;
  case FUSER_OP_acosh: r = op1(g, "math.acosh", a[0]); break;
  case FUSER_OP_asinh: r = op1(g, "math.asinh", a[0]); break;
  case FUSER_OP_atanh: r = op1(g, "math.atanh", a[0]); break;
  case FUSER_OP_cosh: r = op1(g, "math.cosh", a[0]); break;
  case FUSER_OP_sinh: r = op1(g, "math.sinh", a[0]); break;
  case FUSER_OP_log10: r = op1(g, "math.log10", a[0]); break;
  case FUSER_OP_erfc: r = op1(g, "math.erfc", a[0]); break;
  case FUSER_OP_erfinv:
  case FUSER_OP_erfcinv:
  case FUSER_OP_lgamma:
  case FUSER_OP_nextafter: {
    MlirValue v[2] = {a[0].v, n > 1 ? a[1].v : a[0].v};
    r = (kval){fuser_special_fn_call(&g->b, id, v), a[0].vec, a[0].dt};
    break;
  }
  case FUSER_OP_signbit: /* copysign keeps the sign bit of -0.0 and of a negative NaN */
    r = fl ? cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, kg_op2(g, "math.copysign", kg_kconst(g, 1, a[0]), a[0]), kg_kconst(g, 0, a[0]))
           : cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, a[0], kg_kconst(g, 0, a[0]));
    break;
  case FUSER_OP_isfinite:
    r = fl ? cmp(g, FB_CMPF_OLT, FB_CMPI_EQ, op1(g, "math.absf", a[0]), kg_kconst(g, INFINITY, a[0]))
           : cmp(g, FB_CMPF_OEQ, FB_CMPI_EQ, a[0], a[0]);
    break;
  case FUSER_OP_isposinf:
  case FUSER_OP_isneginf:
    r = fl ? cmp(g, FB_CMPF_OEQ, FB_CMPI_NE, a[0], kg_kconst(g, id == FUSER_OP_isposinf ? INFINITY : -INFINITY, a[0]))
           : cmp(g, FB_CMPF_UNE, FB_CMPI_NE, a[0], a[0]);
    break;
  case FUSER_OP_bitwise_left_shift: r = shift(g, "arith.shli", a[0], a[1], kg_kconst(g, 0, a[0])); break;
  case FUSER_OP_bitwise_right_shift:
    r = shift(g, "arith.shrsi", a[0], a[1],
              kg_op2(g, "arith.shrsi", a[0], kg_kconst(g, a[0].dt == FUSER_DTYPE_I32 ? 31 : 63, a[0])));
    break;
  case FUSER_OP_logical_right_shift: r = shift(g, "arith.shrui", a[0], a[1], kg_kconst(g, 0, a[0])); break;
  case FUSER_OP_reciprocal: r = kg_op2(g, "arith.divf", kg_kconst(g, 1, a[0]), a[0]); break;
  case FUSER_OP_sigmoid:
  case FUSER_OP_silu: {
    kval e = op1(g, "math.exp", op1(g, "arith.negf", a[0]));
    kval one = kg_kconst(g, 1, a[0]);
    r = kg_op2(g, "arith.divf", one, kg_op2(g, "arith.addf", one, e));
    if (id == FUSER_OP_silu) r = kg_op2(g, "arith.mulf", a[0], r);
    break;
  }
  case FUSER_OP_relu: r = kg_op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], kg_kconst(g, 0, a[0])); break;
  case FUSER_OP_sign: {
    kval z = kg_kconst(g, 0, a[0]);
    kval pos = cmp(g, FB_CMPF_OGT, FB_CMPI_SGT, a[0], z), negc = cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, a[0], z);
    r = select3(g, pos, kg_kconst(g, 1, a[0]), select3(g, negc, kg_kconst(g, -1, a[0]), a[0]));
    break;
  }
  case FUSER_OP_isnan: r = cmp(g, FB_CMPF_UNO, FB_CMPI_NE, a[0], a[0]); break;
  case FUSER_OP_isinf:
    r = fl ? cmp(g, FB_CMPF_OEQ, FB_CMPI_NE, op1(g, "math.absf", a[0]), kg_kconst(g, INFINITY, a[0]))
           : cmp(g, FB_CMPF_UNE, FB_CMPI_NE, a[0], a[0]);
    break;
  case FUSER_OP_logical_not: r = kg_op2(g, "arith.xori", a[0], kg_kconst(g, 1, a[0])); break;
  case FUSER_OP_bitwise_not: r = kg_op2(g, "arith.xori", a[0], kg_kconst(g, -1, a[0])); break;
  case FUSER_OP_add: r = kg_op2(g, fl ? "arith.addf" : "arith.addi", a[0], a[1]); break;
  case FUSER_OP_sub: r = kg_op2(g, fl ? "arith.subf" : "arith.subi", a[0], a[1]); break;
  case FUSER_OP_mul: r = kg_op2(g, fl ? "arith.mulf" : "arith.muli", a[0], a[1]); break;
  case FUSER_OP_div: r = kg_op2(g, fl ? "arith.divf" : "arith.divsi", a[0], a[1]); break;
  case FUSER_OP_fmod: r = kg_op2(g, fl ? "arith.remf" : "arith.remsi", a[0], a[1]); break;
  case FUSER_OP_pow:
    r = fl ? kg_op2(g, "math.powf", a[0], a[1]) : int_pow(g, a[0], a[1]);
    break;
  case FUSER_OP_maximum: r = kg_op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]); break;
  case FUSER_OP_minimum: r = kg_op2(g, fl ? "arith.minimumf" : "arith.minsi", a[0], a[1]); break;
  case FUSER_OP_atan2: r = kg_op2(g, "math.atan2", a[0], a[1]); break;
  case FUSER_OP_remainder: { /* Python's modulo: the sign of the divisor */
    kval m = kg_op2(g, fl ? "arith.remf" : "arith.remsi", a[0], a[1]), z = kg_kconst(g, 0, a[0]);
    kval nz = cmp(g, FB_CMPF_UNE, FB_CMPI_NE, m, z);
    kval diff = kg_op2(g, "arith.xori", cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, m, z), cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, a[1], z));
    kval fix = kg_op2(g, "arith.andi", nz, diff);
    r = select3(g, fix, kg_op2(g, fl ? "arith.addf" : "arith.addi", m, a[1]), m);
    break;
  }
  case FUSER_OP_eq: r = cmp(g, FB_CMPF_OEQ, FB_CMPI_EQ, a[0], a[1]); break;
  case FUSER_OP_ne: r = cmp(g, FB_CMPF_UNE, FB_CMPI_NE, a[0], a[1]); break;
  case FUSER_OP_lt: r = cmp(g, FB_CMPF_OLT, FB_CMPI_SLT, a[0], a[1]); break;
  case FUSER_OP_le: r = cmp(g, FB_CMPF_OLE, FB_CMPI_SLE, a[0], a[1]); break;
  case FUSER_OP_gt: r = cmp(g, FB_CMPF_OGT, FB_CMPI_SGT, a[0], a[1]); break;
  case FUSER_OP_ge: r = cmp(g, FB_CMPF_OGE, FB_CMPI_SGE, a[0], a[1]); break;
  case FUSER_OP_logical_and:
  case FUSER_OP_bitwise_and: r = kg_op2(g, "arith.andi", a[0], a[1]); break;
  case FUSER_OP_logical_or:
  case FUSER_OP_bitwise_or: r = kg_op2(g, "arith.ori", a[0], a[1]); break;
  case FUSER_OP_bitwise_xor: r = kg_op2(g, "arith.xori", a[0], a[1]); break;
  case FUSER_OP_where: r = select3(g, a[0], a[1], a[2]); break;
  case FUSER_OP_clamp:
    r = kg_op2(g, fl ? "arith.minimumf" : "arith.minsi", kg_op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]), a[2]);
    break;
  case FUSER_OP_lerp:
    if (!fl) return kg_fail_op(g, op, "lowering: integer lerp is not supported"), a[0];
    r = kg_op2(g, "arith.addf", a[0], kg_op2(g, "arith.mulf", a[2], kg_op2(g, "arith.subf", a[1], a[0])));
    break;
  default: return kg_fail_op(g, op, "lowering: unsupported elementwise op"), a[0];
  }
  return kg_convert(g, r, out_dt);
}
