/* philox_gen.h: one random value of fuser.uniform / fuser.normal built
 * through the op builder: nvFuser's Philox 4x32-10 and its conversions,
 * the same rounds as the reference (reference/philox.h, which documents the
 * counter layout). The one emission of the rule, shared by the pointwise
 * kernels (kernel_gen_rng.c) and the row/normalization kernels
 * (row_gen_values.c), so dropout gives the same values in every schedule:
 *   lin = row-major linear index of the element in the op's result (i64)
 *   f32/f16/bf16: words = philox(seed, lin / 4, offset), word lin % 4
 *   f64:          words = philox(seed, lin / 2, offset), words 2c, 2c + 1
 * Each 32-bit multiply-high is an i64 multiply of zero-extended words, so
 * the IR is the same for the GPU and the CPU JIT. */
#ifndef FUSER_LOWERING_PHILOX_GEN_H
#define FUSER_LOWERING_PHILOX_GEN_H

#include <stdbool.h>

#include "dialects/fuser.h"
#include "lowering/builder.h"

/* The element at `lin` of a uniform (normal when `normal`) of dtype dt (a
 * float dtype), at b's insertion point: a scalar of dt's type. lin, seed,
 * offset: i64; a, bb (minval/maxval, or mean/std): f64 for an f64 result,
 * else f32. */
MlirValue fuser_philox_value(fb_builder *b, bool normal, fuser_dtype dt, MlirValue lin, MlirValue seed, MlirValue offset,
                             MlirValue a, MlirValue bb);

#endif
