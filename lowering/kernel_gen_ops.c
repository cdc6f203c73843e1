/* kernel_gen_ops.c: element-wise ops of the kernel generator (see
 * kernel_gen_internal.h): the type each op computes in and its arith/math
 * text, for scalars and vectors alike. Separate because it depends only on
 * the values, not on indices or on where they come from. */
#include <math.h>

#include "lowering/kernel_gen_internal.h"

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

static kval op1(gen *g, const char *opname, kval a) {
  kval r = {.vec = a.vec, .dt = a.dt};
  char ty[NAME];
  kg_type_str(g, a.dt, a.vec, ty);
  kg_fresh(g, r.name);
  kg_emit(g, "%s = %s %s : %s", r.name, opname, a.name, ty);
  return r;
}

kval kg_op2(gen *g, const char *opname, kval a, kval b) {
  kval r = {.vec = a.vec, .dt = a.dt};
  char ty[NAME];
  kg_type_str(g, a.dt, a.vec, ty);
  kg_fresh(g, r.name);
  kg_emit(g, "%s = %s %s, %s : %s", r.name, opname, a.name, b.name, ty);
  return r;
}

static kval cmp(gen *g, const char *pred, kval a, kval b) {
  kval r = {.vec = a.vec, .dt = FUSER_DTYPE_I1};
  char ty[NAME];
  kg_type_str(g, a.dt, a.vec, ty);
  kg_fresh(g, r.name);
  kg_emit(g, "%s = arith.%s %s, %s, %s : %s", r.name, kg_is_float(a.dt) ? "cmpf" : "cmpi", pred, a.name, b.name, ty);
  return r;
}

static kval select3(gen *g, kval c, kval a, kval b) {
  kval r = {.vec = a.vec, .dt = a.dt};
  char ty[NAME], cty[NAME];
  kg_type_str(g, a.dt, a.vec, ty);
  kg_type_str(g, FUSER_DTYPE_I1, c.vec, cty);
  kg_fresh(g, r.name);
  kg_emit(g, "%s = arith.select %s, %s, %s : %s, %s", r.name, c.name, a.name, b.name, cty, ty);
  return r;
}

kval kg_kconst(gen *g, double v, kval like) {
  kval r = {.vec = like.vec, .dt = like.dt};
  kg_fconst(g, v, like.dt, like.vec, r.name);
  return r;
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
  case FUSER_OP_abs: r = op1(g, fl ? "math.absf" : "math.absi", a[0]); break;
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
  case FUSER_OP_trunc: r = fl ? op1(g, "math.trunc", a[0]) : a[0]; break;
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
    kval pos = cmp(g, fl ? "ogt" : "sgt", a[0], z), negc = cmp(g, fl ? "olt" : "slt", a[0], z);
    r = select3(g, pos, kg_kconst(g, 1, a[0]), select3(g, negc, kg_kconst(g, -1, a[0]), a[0]));
    break;
  }
  case FUSER_OP_isnan: r = fl ? cmp(g, "uno", a[0], a[0]) : cmp(g, "ne", a[0], a[0]); break;
  case FUSER_OP_isinf:
    r = fl ? cmp(g, "oeq", op1(g, "math.absf", a[0]), kg_kconst(g, INFINITY, a[0])) : cmp(g, "ne", a[0], a[0]);
    break;
  case FUSER_OP_logical_not: r = kg_op2(g, "arith.xori", a[0], kg_kconst(g, 1, a[0])); break;
  case FUSER_OP_bitwise_not: r = kg_op2(g, "arith.xori", a[0], kg_kconst(g, -1, a[0])); break;
  case FUSER_OP_add: r = kg_op2(g, fl ? "arith.addf" : "arith.addi", a[0], a[1]); break;
  case FUSER_OP_sub: r = kg_op2(g, fl ? "arith.subf" : "arith.subi", a[0], a[1]); break;
  case FUSER_OP_mul: r = kg_op2(g, fl ? "arith.mulf" : "arith.muli", a[0], a[1]); break;
  case FUSER_OP_div: r = kg_op2(g, fl ? "arith.divf" : "arith.divsi", a[0], a[1]); break;
  case FUSER_OP_fmod: r = kg_op2(g, fl ? "arith.remf" : "arith.remsi", a[0], a[1]); break;
  case FUSER_OP_pow:
    if (!fl) return kg_fail_op(g, op, "lowering: integer pow is not supported"), a[0];
    r = kg_op2(g, "math.powf", a[0], a[1]);
    break;
  case FUSER_OP_maximum: r = kg_op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]); break;
  case FUSER_OP_minimum: r = kg_op2(g, fl ? "arith.minimumf" : "arith.minsi", a[0], a[1]); break;
  case FUSER_OP_atan2: r = kg_op2(g, "math.atan2", a[0], a[1]); break;
  case FUSER_OP_remainder: { /* Python's modulo: the sign of the divisor */
    kval m = kg_op2(g, fl ? "arith.remf" : "arith.remsi", a[0], a[1]), z = kg_kconst(g, 0, a[0]);
    kval nz = cmp(g, fl ? "une" : "ne", m, z);
    kval diff = kg_op2(g, "arith.xori", cmp(g, fl ? "olt" : "slt", m, z), cmp(g, fl ? "olt" : "slt", a[1], z));
    kval fix = kg_op2(g, "arith.andi", nz, diff);
    r = select3(g, fix, kg_op2(g, fl ? "arith.addf" : "arith.addi", m, a[1]), m);
    break;
  }
  case FUSER_OP_eq: r = cmp(g, fl ? "oeq" : "eq", a[0], a[1]); break;
  case FUSER_OP_ne: r = cmp(g, fl ? "une" : "ne", a[0], a[1]); break;
  case FUSER_OP_lt: r = cmp(g, fl ? "olt" : "slt", a[0], a[1]); break;
  case FUSER_OP_le: r = cmp(g, fl ? "ole" : "sle", a[0], a[1]); break;
  case FUSER_OP_gt: r = cmp(g, fl ? "ogt" : "sgt", a[0], a[1]); break;
  case FUSER_OP_ge: r = cmp(g, fl ? "oge" : "sge", a[0], a[1]); break;
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
