/* Philox 4x32-10 (reference/philox.h): the published known-answer vectors
 * of Random123 (kat_vectors, philox4x32 10 rounds), nvFuser's counter
 * layout, and statistical tests of the uniform and normal values the
 * reference evaluator produces: mean, variance and the Kolmogorov-Smirnov
 * distance against the exact distribution, for several seeds and offsets. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "reference/philox.h"
#include "unit.h"

/* Random123's vectors give counter words c0..c3 and key words k0, k1;
 * nvFuser's layout: key = seed (k0 low), counter = (offset, subsequence). */
static void kat(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1, const uint32_t want[4]) {
  uint32_t out[4];
  fuser_philox4x32_10(((uint64_t)k1 << 32) | k0, ((uint64_t)c3 << 32) | c2, ((uint64_t)c1 << 32) | c0, out);
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(out[i], want[i]);
}

static void test_known_answers(void) {
  static const uint32_t zero[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
  static const uint32_t ones[4] = {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu};
  static const uint32_t pi[4] = {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
  kat(0, 0, 0, 0, 0, 0, zero);
  kat(~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ones);
  kat(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, pi);
}

/* The conversions' ends: 0 and 2^32 - 1 stay inside (0, 1); the f32 value
 * that rounds to 1.0 maps to 0, as nvFuser's uniformf does. */
static void test_conversions(void) {
  CHECK(fuser_philox_uniformf(0) > 0.0f && fuser_philox_uniformf(0) < 1e-9f);
  CHECK(fuser_philox_raw_uniformf(0xffffffffu) == 1.0f);
  CHECK(fuser_philox_uniformf(0xffffffffu) == 0.0f);
  CHECK(fuser_philox_uniform(0, 0) > 0.0 && fuser_philox_uniform(~0u, ~0u) < 1.0);
  /* element i reads word i % 4 of block i / 4 */
  uint32_t w[4];
  fuser_philox4x32_10(7, 3, 11, w);
  for (int c = 0; c < 4; c++) CHECK(fuser_philox_uniform_f32(7, 11, 12 + c, 0.0f, 1.0f) == fuser_philox_uniformf(w[c]));
  CHECK(fuser_philox_uniform_f32(7, 11, 12, 2.0f, 6.0f) == 2.0f + 4.0f * fuser_philox_uniformf(w[0]));
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double uniform_cdf(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }
static double normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* The Kolmogorov-Smirnov statistic sqrt(n) * sup |F_n - F| of sorted v. */
static double ks(double *v, int n, double (*cdf)(double)) {
  qsort(v, n, sizeof *v, cmp_double);
  double d = 0;
  for (int i = 0; i < n; i++) {
    double f = cdf(v[i]);
    double lo = f - (double)i / n, hi = (double)(i + 1) / n - f;
    if (lo > d) d = lo;
    if (hi > d) d = hi;
  }
  return d * sqrt((double)n);
}

/* Samples of one (seed, offset) stream: mean and variance within 5 standard
 * errors, KS statistic under 1.95 (p = 0.001 for the limit distribution). */
static void check_stream(const char *kind, double *v, int n, double mean, double var, double (*cdf)(double)) {
  double m = 0, s = 0;
  for (int i = 0; i < n; i++) m += v[i];
  m /= n;
  for (int i = 0; i < n; i++) s += (v[i] - m) * (v[i] - m);
  s /= n - 1;
  double se_mean = sqrt(var / n), se_var = var * sqrt(2.0 / (n - 1)) * (cdf == uniform_cdf ? 0.64 : 1.0);
  double k = ks(v, n, cdf);
  bool ok = fabs(m - mean) < 5 * se_mean && fabs(s - var) < 5 * se_var && k < 1.95;
  if (!ok) fprintf(stderr, "%s: mean %.6f variance %.6f KS %.3f\n", kind, m, s, k);
  CHECK(ok);
}

static void test_statistics(void) {
  enum { N = 200000 };
  double *v = malloc(sizeof *v * N);
  static const uint64_t seeds[][2] = {{0, 0}, {1234, 8}, {0x9E3779B97F4A7C15ull, 1ull << 40}};
  for (int s = 0; s < 3; s++) {
    uint64_t seed = seeds[s][0], offset = seeds[s][1];
    for (int i = 0; i < N; i++) v[i] = fuser_philox_uniform_f32(seed, offset, i, 0.0f, 1.0f);
    check_stream("uniform f32", v, N, 0.5, 1.0 / 12, uniform_cdf);
    for (int i = 0; i < N; i++) v[i] = fuser_philox_uniform_f64(seed, offset, i, 0.0, 1.0);
    check_stream("uniform f64", v, N, 0.5, 1.0 / 12, uniform_cdf);
    for (int i = 0; i < N; i++) v[i] = fuser_philox_normal_f32(seed, offset, i, 0.0f, 1.0f);
    check_stream("normal f32", v, N, 0.0, 1.0, normal_cdf);
    for (int i = 0; i < N; i++) v[i] = fuser_philox_normal_f64(seed, offset, i, 0.0, 1.0);
    check_stream("normal f64", v, N, 0.0, 1.0, normal_cdf);
    /* mean and std of normal(mean, std), and a uniform range */
    for (int i = 0; i < N; i++) v[i] = (fuser_philox_normal_f32(seed, offset, i, 3.0f, 2.0f) - 3.0) / 2.0;
    check_stream("normal(3, 2) f32", v, N, 0.0, 1.0, normal_cdf);
    for (int i = 0; i < N; i++) v[i] = (fuser_philox_uniform_f32(seed, offset, i, -1.0f, 3.0f) + 1.0) / 4.0;
    check_stream("uniform(-1, 3) f32", v, N, 0.5, 1.0 / 12, uniform_cdf);
  }
  /* the KS test can fail: the squares of uniform values are not uniform */
  for (int i = 0; i < N; i++) v[i] = pow(fuser_philox_uniform_f32(5, 0, i, 0.0f, 1.0f), 2.0);
  CHECK(ks(v, N, uniform_cdf) > 1.95);
  /* neighbouring seeds and offsets give unrelated streams */
  int same = 0;
  for (int i = 0; i < 4096; i++) {
    float a = fuser_philox_uniform_f32(1, 0, i, 0, 1), b = fuser_philox_uniform_f32(2, 0, i, 0, 1);
    float c = fuser_philox_uniform_f32(1, 1, i, 0, 1);
    same += a == b || a == c;
  }
  CHECK(same < 4);
  free(v);
}

int main(void) {
  test_known_answers();
  test_conversions();
  test_statistics();
  UNIT_MAIN_END();
}
