/* philox.h: nvFuser's counter-based random numbers, the one implementation
 * the reference evaluator uses (and the oracle for the kernel lowering).
 *
 * Philox 4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC 2011): a 128-bit counter and a 64-bit key give four 32-bit words.
 * nvFuser's RNGOp (runtime/random_numbers.cu) makes the key the seed and
 * the counter (offset, subsequence), with the output element at row-major
 * linear index i reading
 *   f32/f16/bf16: philox(seed, i / 4, offset), word i % 4
 *   f64:          philox(seed, i / 2, offset), words 2 (i % 2) and 2 (i % 2) + 1
 * so every element is a pure function of (seed, offset, i): no state, the
 * same values in any order, on any device. This header has no MLIR. */
#ifndef FUSER_REFERENCE_PHILOX_H
#define FUSER_REFERENCE_PHILOX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Philox 4x32 with 10 rounds: key = seed, counter = {offset lo, offset hi,
 * subsequence lo, subsequence hi}. */
void fuser_philox4x32_10(uint64_t seed, uint64_t subsequence, uint64_t offset, uint32_t out[4]);

/* A 32-bit word as a float in (0, 1), and 1.0 as 0 (nvFuser's uniformf):
 * x * 2^-32 + 2^-33 in f32 arithmetic. */
float fuser_philox_uniformf(uint32_t x);
/* The same without the 1.0 -> 0 mapping (nvFuser's raw_uniform_float: its
 * bf16/f16 uniform rounds first, then maps the upper bound to the lower). */
float fuser_philox_raw_uniformf(uint32_t x);
/* Two words as a double in (0, 1) (nvFuser's uniform): 53 bits of x ^ (y << 21). */
double fuser_philox_uniform(uint32_t x, uint32_t y);

/* Element i of uniform(lo, hi) (f32 compute: lo + (hi - lo) * u) and of
 * normal(mean, std) (Box-Muller on a pair of words: the even element of a
 * pair takes sin, the odd one cos), for a float result. */
float fuser_philox_uniform_f32(uint64_t seed, uint64_t offset, uint64_t i, float lo, float hi);
float fuser_philox_normal_f32(uint64_t seed, uint64_t offset, uint64_t i, float mean, float std);
/* The same for a double result. */
double fuser_philox_uniform_f64(uint64_t seed, uint64_t offset, uint64_t i, double lo, double hi);
double fuser_philox_normal_f64(uint64_t seed, uint64_t offset, uint64_t i, double mean, double std);

#ifdef __cplusplus
}
#endif
#endif
