/* Philox 4x32-10 and nvFuser's conversions to uniform and normal values
 * (philox.h). Compiled without FMA contraction (reference/CMakeLists.txt) so
 * that f32 expressions round as written. */
#include "reference/philox.h"

#include <math.h>

/* Multipliers and Weyl key increments of Philox 4x32. */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static void round_once(uint32_t c[4], const uint32_t k[2]) {
  uint64_t p0 = (uint64_t)PHILOX_M0 * c[0], p1 = (uint64_t)PHILOX_M1 * c[2];
  uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0, hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
  uint32_t r[4] = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
  for (int i = 0; i < 4; i++) c[i] = r[i];
}

void fuser_philox4x32_10(uint64_t seed, uint64_t subsequence, uint64_t offset, uint32_t out[4]) {
  uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  uint32_t c[4] = {(uint32_t)offset, (uint32_t)(offset >> 32), (uint32_t)subsequence, (uint32_t)(subsequence >> 32)};
  for (int r = 0; r < 9; r++) {
    round_once(c, key);
    key[0] += PHILOX_W0;
    key[1] += PHILOX_W1;
  }
  round_once(c, key);
  for (int i = 0; i < 4; i++) out[i] = c[i];
}

float fuser_philox_raw_uniformf(uint32_t x) {
  const float scale = (float)(1.0 / 4294967296.0);
  return (float)x * scale + 0.5f * scale;
}

float fuser_philox_uniformf(uint32_t x) {
  float r = fuser_philox_raw_uniformf(x);
  return r == 1.0f ? 0.0f : r;
}

double fuser_philox_uniform(uint32_t x, uint32_t y) {
  const double scale = 1.0 / 9007199254740992.0; /* 2^-53 */
  uint64_t z = (uint64_t)x ^ ((uint64_t)y << (53 - 32));
  double r = (double)z * scale + 0.5 * scale;
  return r == 1.0 ? 0.0 : r;
}

float fuser_philox_uniform_f32(uint64_t seed, uint64_t offset, uint64_t i, float lo, float hi) {
  uint32_t w[4];
  fuser_philox4x32_10(seed, i / 4, offset, w);
  float range = hi - lo;
  return lo + range * fuser_philox_uniformf(w[i % 4]);
}

float fuser_philox_normal_f32(uint64_t seed, uint64_t offset, uint64_t i, float mean, float std) {
  uint32_t w[4];
  fuser_philox4x32_10(seed, i / 4, offset, w);
  int c = (int)(i % 4);
  float u = fuser_philox_uniformf(w[c / 2 * 2]);
  float v = fuser_philox_uniformf(w[c / 2 * 2 + 1]) * 6.2831855f;
  float r = sqrtf(-2.0f * logf(u));
  float n = r * (c % 2 == 0 ? sinf(v) : cosf(v));
  return n * std + mean;
}

double fuser_philox_uniform_f64(uint64_t seed, uint64_t offset, uint64_t i, double lo, double hi) {
  uint32_t w[4];
  fuser_philox4x32_10(seed, i / 2, offset, w);
  int c = (int)(i % 2);
  return lo + (hi - lo) * fuser_philox_uniform(w[2 * c], w[2 * c + 1]);
}

double fuser_philox_normal_f64(uint64_t seed, uint64_t offset, uint64_t i, double mean, double std) {
  uint32_t w[4];
  fuser_philox4x32_10(seed, i / 2, offset, w);
  double u = fuser_philox_uniform(w[0], w[1]);
  double v = fuser_philox_uniform(w[2], w[3]) * 6.2831853071795860;
  double r = sqrt(-2.0 * log(u));
  return (i % 2 == 0 ? r * sin(v) : r * cos(v)) * std + mean;
}
