/* bf16/f16 conversions: round to nearest even (ties included), overflow,
 * subnormals, NaN preservation, and one rounding from double. */
#include <math.h>
#include <string.h>

#include "reference/reference.h"
#include "unit.h"

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void test_bf16(void) {
  /* ties: the kept lsb decides */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x3F808000u)), 0x3F80); /* even stays */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x3F818000u)), 0x3F82); /* odd rounds up */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0xBF818000u)), 0xBF82); /* sign symmetric */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x3F808001u)), 0x3F81); /* above the tie */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x3F807FFFu)), 0x3F80); /* below the tie */
  CHECK_EQ_INT(fuser_f32_to_bf16(1.0f), 0x3F80);
  CHECK_EQ_INT(fuser_f32_to_bf16(-0.0f), 0x8000);
  /* overflow to inf, inf stays inf */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x7F7FFFFFu)), 0x7F80);
  CHECK_EQ_INT(fuser_f32_to_bf16(INFINITY), 0x7F80);
  CHECK_EQ_INT(fuser_f32_to_bf16(-INFINITY), 0xFF80);
  /* NaN stays NaN: a payload only in the low bits must not become inf */
  uint16_t n = fuser_f32_to_bf16(from_bits(0x7F800001u));
  CHECK((n & 0x7F80) == 0x7F80 && (n & 0x007F) != 0);
  CHECK(isnan(fuser_bf16_to_f32(fuser_f32_to_bf16(from_bits(0xFFC00000u)))));
  CHECK(signbit(fuser_bf16_to_f32(fuser_f32_to_bf16(from_bits(0xFFC00000u)))));
  /* subnormals round on the same grid */
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x00008000u)), 0x0000);
  CHECK_EQ_INT(fuser_f32_to_bf16(from_bits(0x00018000u)), 0x0002);
  /* widening is exact */
  CHECK(fuser_bf16_to_f32(0x3F82) == from_bits(0x3F820000u));
  CHECK(fuser_bf16_to_f32(0xC040) == -3.0f);
}

static void test_f16(void) {
  CHECK_EQ_INT(fuser_f32_to_f16(1.0f), 0x3C00);
  CHECK_EQ_INT(fuser_f32_to_f16(-2.0f), 0xC000);
  CHECK_EQ_INT(fuser_f32_to_f16(65504.0f), 0x7BFF);   /* the largest f16 */
  CHECK_EQ_INT(fuser_f32_to_f16(65519.0f), 0x7BFF);   /* below the tie with inf */
  CHECK_EQ_INT(fuser_f32_to_f16(65520.0f), 0x7C00);   /* the tie rounds to even: inf */
  CHECK_EQ_INT(fuser_f32_to_f16(ldexpf(1, -24)), 0x0001); /* smallest subnormal */
  CHECK_EQ_INT(fuser_f32_to_f16(ldexpf(1, -25)), 0x0000); /* half of it: tie to even 0 */
  CHECK_EQ_INT(fuser_f32_to_f16(ldexpf(3, -25)), 0x0002); /* 1.5 units: tie to even 2 */
  CHECK_EQ_INT(fuser_f32_to_f16(ldexpf(1023, -24) + ldexpf(1, -25)), 0x0400); /* rounds up into the normals */
  CHECK_EQ_INT(fuser_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3C00); /* tie, even */
  CHECK_EQ_INT(fuser_f32_to_f16(1.0f + ldexpf(3, -11)), 0x3C02); /* tie, odd -> up */
  CHECK(isnan(fuser_f16_to_f32(fuser_f32_to_f16(NAN))));
  CHECK_EQ_INT(fuser_f32_to_f16(INFINITY), 0x7C00);
  CHECK(fuser_f16_to_f32(0x0001) == ldexpf(1, -24));
  CHECK(fuser_f16_to_f32(0x7BFF) == 65504.0f);
  CHECK(isinf(fuser_f16_to_f32(0xFC00)) && fuser_f16_to_f32(0xFC00) < 0);
}

static void test_from_double(void) {
  /* 1 + 2^-8 + 2^-30: just above a bf16 tie. Through f32 (RNE) the 2^-30 is
   * lost and the tie goes to even (0x3F80); one rounding gives 0x3F81. */
  double d = 1.0 + ldexp(1, -8) + ldexp(1, -30);
  CHECK_EQ_INT(fuser_f32_to_bf16((float)d), 0x3F80);
  CHECK_EQ_INT(fuser_f64_to_bf16(d), 0x3F81);
  CHECK_EQ_INT(fuser_f64_to_bf16(1.0 + ldexp(1, -8)), 0x3F80); /* an exact tie stays a tie */
  CHECK_EQ_INT(fuser_f64_to_f16(1.0 + ldexp(1, -11) + ldexp(1, -40)), 0x3C01);
  CHECK_EQ_INT(fuser_f64_to_bf16(1e300), 0x7F80);
  CHECK_EQ_INT(fuser_f64_to_bf16(-1e-300), 0x8000);
  CHECK(isnan(fuser_bf16_to_f32(fuser_f64_to_bf16(NAN))));
}

int main(void) {
  test_bf16();
  test_f16();
  test_from_double();
  UNIT_MAIN_END();
}
