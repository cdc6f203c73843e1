/* philox_gen.c: Philox 4x32-10 values in kernels (philox_gen.h). */
#include "lowering/philox_gen.h"

#include "mlir-c/BuiltinTypes.h"

typedef struct {
  fb_builder *b;
  MlirType i32, i64, f32, f64;
} rng_b;

static MlirValue c32(rng_b *r, uint32_t v) { return fb_const_int(r->b, r->i32, (int64_t)v); }
static MlirValue c64(rng_b *r, int64_t v) { return fb_const_int(r->b, r->i64, v); }
static MlirValue bin(rng_b *r, const char *op, MlirValue x, MlirValue y) { return fb_binary(r->b, op, x, y); }
static MlirValue lo32(rng_b *r, MlirValue x64) { return fb_cast(r->b, "arith.trunci", x64, r->i32); }
static MlirValue hi32(rng_b *r, MlirValue x64) { return lo32(r, bin(r, "arith.shrui", x64, c64(r, 32))); }

/* One Philox round on counter c with key k (philox.c: round_once). */
static void philox_round(rng_b *r, MlirValue c[4], const MlirValue k[2]) {
  MlirValue m0 = c64(r, 0xD2511F53), m1 = c64(r, 0xCD9E8D57);
  MlirValue p0 = bin(r, "arith.muli", m0, fb_cast(r->b, "arith.extui", c[0], r->i64));
  MlirValue p1 = bin(r, "arith.muli", m1, fb_cast(r->b, "arith.extui", c[2], r->i64));
  MlirValue n0 = bin(r, "arith.xori", bin(r, "arith.xori", hi32(r, p1), c[1]), k[0]);
  MlirValue n2 = bin(r, "arith.xori", bin(r, "arith.xori", hi32(r, p0), c[3]), k[1]);
  c[0] = n0, c[1] = lo32(r, p1), c[2] = n2, c[3] = lo32(r, p0);
}

/* The four words of philox(seed, subsequence, offset), all i64 inputs. */
static void philox(rng_b *r, MlirValue seed, MlirValue sub, MlirValue offset, MlirValue w[4]) {
  MlirValue k[2] = {lo32(r, seed), hi32(r, seed)};
  w[0] = lo32(r, offset), w[1] = hi32(r, offset), w[2] = lo32(r, sub), w[3] = hi32(r, sub);
  for (int i = 0; i < 9; i++) {
    philox_round(r, w, k);
    k[0] = bin(r, "arith.addi", k[0], c32(r, 0x9E3779B9u));
    k[1] = bin(r, "arith.addi", k[1], c32(r, 0xBB67AE85u));
  }
  philox_round(r, w, k);
}

static MlirValue is(rng_b *r, MlirValue comp, int64_t v) { return fb_cmpi(r->b, FB_CMPI_EQ, comp, c64(r, v)); }

/* x * 2^-32 + 2^-33 in f32; with `map_one`, 1.0 becomes 0 (uniformf). */
static MlirValue uniformf(rng_b *r, MlirValue x, bool map_one) {
  fb_builder *b = r->b;
  const double scale = 1.0 / 4294967296.0;
  MlirValue f = fb_cast(b, "arith.uitofp", x, r->f32);
  f = bin(r, "arith.addf", bin(r, "arith.mulf", f, fb_const_float(b, r->f32, scale)), fb_const_float(b, r->f32, 0.5 * scale));
  if (!map_one) return f;
  MlirValue one = fb_cmpf(b, FB_CMPF_OEQ, f, fb_const_float(b, r->f32, 1.0));
  return fb_select(b, one, fb_const_float(b, r->f32, 0.0), f);
}

/* 53 bits of x ^ (y << 21) as a double in (0, 1), 1.0 as 0 (uniform). */
static MlirValue uniform_f64(rng_b *r, MlirValue x, MlirValue y) {
  fb_builder *b = r->b;
  MlirValue z = bin(r, "arith.xori", fb_cast(b, "arith.extui", x, r->i64),
                    bin(r, "arith.shli", fb_cast(b, "arith.extui", y, r->i64), c64(r, 21)));
  const double scale = 1.0 / 9007199254740992.0;
  MlirValue d = fb_cast(b, "arith.uitofp", z, r->f64);
  d = bin(r, "arith.addf", bin(r, "arith.mulf", d, fb_const_float(b, r->f64, scale)), fb_const_float(b, r->f64, 0.5 * scale));
  MlirValue one = fb_cmpf(b, FB_CMPF_OEQ, d, fb_const_float(b, r->f64, 1.0));
  return fb_select(b, one, fb_const_float(b, r->f64, 0.0), d);
}

/* Box-Muller: sqrt(-2 log u) * (even ? sin v : cos v), v = u2 * two_pi. */
static MlirValue box_muller(rng_b *r, MlirType t, MlirValue u, MlirValue u2, double two_pi, MlirValue even) {
  fb_builder *b = r->b;
  MlirValue v = bin(r, "arith.mulf", u2, fb_const_float(b, t, two_pi));
  MlirValue rad = fb_unary(b, "math.sqrt", bin(r, "arith.mulf", fb_const_float(b, t, -2.0), fb_unary(b, "math.log", u)));
  return bin(r, "arith.mulf", rad, fb_select(b, even, fb_unary(b, "math.sin", v), fb_unary(b, "math.cos", v)));
}

static MlirType elem_type(rng_b *r, fuser_dtype dt) {
  MlirContext ctx = mlirTypeGetContext(r->f32);
  switch (dt) {
  case FUSER_DTYPE_BF16: return mlirBF16TypeGet(ctx);
  case FUSER_DTYPE_F16: return mlirF16TypeGet(ctx);
  case FUSER_DTYPE_F64: return r->f64;
  default: return r->f32;
  }
}

MlirValue fuser_philox_value(fb_builder *b, bool normal, fuser_dtype dt, MlirValue lin, MlirValue seed, MlirValue offset,
                             MlirValue a, MlirValue bb) {
  MlirContext ctx = b->ctx;
  rng_b r = {b, mlirIntegerTypeGet(ctx, 32), mlirIntegerTypeGet(ctx, 64), mlirF32TypeGet(ctx), mlirF64TypeGet(ctx)};
  bool f64 = dt == FUSER_DTYPE_F64;
  int per = f64 ? 2 : 4; /* values per Philox call */
  MlirValue w[4], comp = bin(&r, "arith.remui", lin, c64(&r, per));
  philox(&r, seed, bin(&r, "arith.divui", lin, c64(&r, per)), offset, w);
  MlirValue even = is(&r, bin(&r, "arith.remui", comp, c64(&r, 2)), 0);
  if (f64) {
    MlirValue first = is(&r, comp, 0);
    if (normal) {
      MlirValue n = box_muller(&r, r.f64, uniform_f64(&r, w[0], w[1]), uniform_f64(&r, w[2], w[3]), 6.2831853071795860, first);
      return bin(&r, "arith.addf", bin(&r, "arith.mulf", n, bb), a);
    }
    MlirValue u = uniform_f64(&r, fb_select(b, first, w[0], w[2]), fb_select(b, first, w[1], w[3]));
    return bin(&r, "arith.addf", a, bin(&r, "arith.mulf", bin(&r, "arith.subf", bb, a), u));
  }
  MlirType et = elem_type(&r, dt);
  bool narrow = dt != FUSER_DTYPE_F32; /* bf16/f16: round, then the upper bound becomes the lower */
  if (normal) { /* the pair (0, 1) or (2, 3) holding element comp */
    MlirValue low = fb_cmpi(b, FB_CMPI_ULT, comp, c64(&r, 2));
    MlirValue n = box_muller(&r, r.f32, uniformf(&r, fb_select(b, low, w[0], w[2]), true),
                             uniformf(&r, fb_select(b, low, w[1], w[3]), true), 6.2831855f, even);
    MlirValue v = bin(&r, "arith.addf", bin(&r, "arith.mulf", n, bb), a);
    return narrow ? fb_cast(b, "arith.truncf", v, et) : v;
  }
  MlirValue word = fb_select(b, is(&r, comp, 1), w[1], w[0]);
  word = fb_select(b, is(&r, comp, 2), w[2], word);
  word = fb_select(b, is(&r, comp, 3), w[3], word);
  MlirValue v = bin(&r, "arith.addf", a, bin(&r, "arith.mulf", bin(&r, "arith.subf", bb, a), uniformf(&r, word, !narrow)));
  if (!narrow) return v;
  MlirValue rounded = fb_cast(b, "arith.truncf", v, et), lo = fb_cast(b, "arith.truncf", a, et), hi = fb_cast(b, "arith.truncf", bb, et);
  return fb_select(b, fb_cmpf(b, FB_CMPF_OEQ, rounded, hi), lo, rounded);
}
