/* bf16 and f16 conversions (half.h). */
#include "driver/half.h"

#include <math.h>
#include <string.h>

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t fuser_f32_to_bf16(float f) {
  uint32_t u = f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
  /* add half an ulp of bf16, minus one when the kept lsb is even: ties go to even */
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

float fuser_bf16_to_f32(uint16_t h) { return f32_from_bits((uint32_t)h << 16); }

uint16_t fuser_f32_to_f16(float f) {
  uint32_t u = f32_bits(f);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x03ffu));
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520: rounds to inf */
  if (a >= 0x38800000u) {                                   /* a normal f16 (>= 2^-14) */
    uint32_t m = a - 0x38000000u;                           /* rebias exponent 127 -> 15 */
    m += 0x0fffu + ((m >> 13) & 1u);
    return (uint16_t)(sign | (m >> 13));
  }
  /* subnormal f16: a multiple of 2^-24; scaling by 2^24 is exact and
   * nearbyintf rounds to nearest even in the default rounding mode */
  float scaled = f32_from_bits(a) * 16777216.0f;
  return (uint16_t)(sign | (uint16_t)nearbyintf(scaled));
}

float fuser_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0) {
    float v = ldexpf((float)man, -24);
    return sign ? -v : v;
  }
  if (exp == 31) return f32_from_bits(sign | 0x7f800000u | (man << 13));
  return f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

/* Rounds a double to float "to odd": when inexact, the result is the float
 * truncated toward zero with its lsb forced to 1. Rounding that float to a
 * format with at least two fewer significand bits gives the same result as
 * rounding the double directly, so there is no double rounding. */
static float f64_to_f32_odd(double d) {
  float f = (float)d;
  if (isnan(d) || (double)f == d) return f;
  if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
  return f32_from_bits(f32_bits(f) | 1u);
}

uint16_t fuser_f64_to_bf16(double d) { return fuser_f32_to_bf16(f64_to_f32_odd(d)); }
uint16_t fuser_f64_to_f16(double d) { return fuser_f32_to_f16(f64_to_f32_odd(d)); }
