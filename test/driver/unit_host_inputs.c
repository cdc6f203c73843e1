/* unit_host_inputs.c: the seeded input generator (driver/host_inputs.h)
 * when it fills a large storage on several threads. Every element is a
 * function of its index alone (the documented SplitMix64 / Box-Muller
 * recipe, recomputed here element by element), so a fill split across
 * threads must give exactly those bits: randn (whole pairs at the ranges'
 * boundaries, an odd element count), rand and make_tensor, above the size
 * that starts threads (2^20 elements) and below it. */
#include "driver/half.h"
#include "driver/host_inputs.h"
#include "unit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define G 0x9E3779B97F4A7C15ULL

static uint64_t splitmix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double expected(const char *factory, uint64_t key, int64_t j, double low, double high) {
  if (strcmp(factory, "rand") == 0) return ldexp((double)(splitmix(key + G * (uint64_t)(j + 1)) >> 56), -8);
  if (strcmp(factory, "make_tensor") == 0)
    return low + (high - low) * ldexp((double)(splitmix(key + G * (uint64_t)(j + 1)) >> 11), -53);
  int64_t p = j / 2;
  double u1 = ldexp((double)(splitmix(key + G * (uint64_t)(2 * p + 1)) >> 11), -53);
  double u2 = ldexp((double)(splitmix(key + G * (uint64_t)(2 * p + 2)) >> 11), -53);
  double rad = sqrt(-2.0 * log(1.0 - u1)), theta = 6.283185307179586476925286766559 * u2;
  return j % 2 ? rad * sin(theta) : rad * cos(theta);
}

/* Fills numel bf16 elements of `factory` for argument 1 under seed 7 and
 * counts the elements that differ from the recipe. */
static int64_t mismatches(const char *factory, int64_t numel) {
  fuser_input_recipe r;
  memset(&r, 0, sizeof r);
  snprintf(r.factory, sizeof r.factory, "%s", factory);
  r.dtype = FUSER_TYPE_BF16;
  r.numel = numel;
  r.low = -3;
  r.high = 5;
  uint16_t *d = malloc((size_t)numel * 2);
  fuser_error err;
  if (!d || fuser_recipe_fill(&r, 7, 1, d, &err) != FUSER_OK) {
    free(d);
    return -1;
  }
  uint64_t key = splitmix(7 + G * 2);
  int64_t bad = 0;
  for (int64_t j = 0; j < numel; j++) bad += d[j] != fuser_f64_to_bf16(expected(factory, key, j, r.low, r.high));
  free(d);
  return bad;
}

int main(void) {
  const int64_t big = ((int64_t)1 << 20) * 3 + 7; /* threads, an odd count */
  CHECK_EQ_INT(mismatches("randn", big), 0);
  CHECK_EQ_INT(mismatches("randn", 1001), 0); /* one thread */
  CHECK_EQ_INT(mismatches("rand", big), 0);
  CHECK_EQ_INT(mismatches("make_tensor", big + 1), 0);
  UNIT_MAIN_END();
}
