/* half.h: bf16 and f16 conversions in plain C (no MLIR, no CUDA): exact,
 * round to nearest even, NaN-preserving. They are the "store" of every
 * bf16/f16 value in the reference evaluator and the input generator, so
 * they must match the hardware's cvt.rn bit for bit. */
#ifndef FUSER_DRIVER_HALF_H
#define FUSER_DRIVER_HALF_H

#include <stdint.h>

uint16_t fuser_f32_to_bf16(float f);
float fuser_bf16_to_f32(uint16_t h);
uint16_t fuser_f32_to_f16(float f);
float fuser_f16_to_f32(uint16_t h);
/* From double with a single rounding (no double rounding through f32). */
uint16_t fuser_f64_to_bf16(double d);
uint16_t fuser_f64_to_f16(double d);

#endif
