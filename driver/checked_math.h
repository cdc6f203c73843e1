/* checked_math.h: integer arithmetic on sizes that says when it overflows.
 *
 * Every product of extents, every element count times an element size and
 * every span of a strided view goes through these, in the runtime, the
 * input generator, the reference evaluator, the compiler and the tools:
 * a hostile input (a reshape to 2^62 x 96, a stride of INT64_MIN) then
 * gives an error instead of a wrapped count that passes a later check.
 * Header-only (static inline, compiler builtins of gcc >= 5 and clang) so
 * that the runtime keeps building with a plain C compiler on the GPU
 * machine. Each returns true when the result is exact. */
#ifndef FUSER_DRIVER_CHECKED_MATH_H
#define FUSER_DRIVER_CHECKED_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool fuser_add_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool fuser_sub_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_sub_overflow(a, b, out); }
static inline bool fuser_mul_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline bool fuser_add_size(size_t a, size_t b, size_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool fuser_mul_size(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }

/* The element count of `rank` extents; false when one is negative or the
 * product leaves int64. */
static inline bool fuser_numel_i64(const int64_t *sizes, int rank, int64_t *out) {
  int64_t n = 1;
  for (int d = 0; d < rank; d++)
    if (sizes[d] < 0 || !fuser_mul_i64(n, sizes[d], &n)) return false;
  *out = n;
  return true;
}

/* Bytes of `count` elements of `elem_size` bytes as a size_t; false when
 * count is negative or the product does not fit. */
static inline bool fuser_bytes_of(int64_t count, size_t elem_size, size_t *out) {
  if (count < 0 || (uint64_t)count > SIZE_MAX) return false;
  return fuser_mul_size((size_t)count, elem_size, out);
}

/* The elements a strided view reaches, relative to its first element's
 * storage position `offset`: [*lo, *hi] (inclusive). A view with no
 * elements reaches nothing (*lo = offset, *hi = offset - 1 is not used:
 * *empty is set instead). False when a product or sum leaves int64. */
static inline bool fuser_view_span(int64_t offset, const int64_t *sizes, const int64_t *strides, int rank,
                                   int64_t *lo, int64_t *hi, bool *empty) {
  int64_t l = offset, h = offset;
  *empty = false;
  for (int d = 0; d < rank; d++)
    if (sizes[d] == 0) *empty = true;
  for (int d = 0; d < rank; d++) {
    int64_t step;
    if (sizes[d] < 0) return false;
    if (sizes[d] <= 1) continue; /* never stepped: any stride */
    if (!fuser_mul_i64(strides[d], sizes[d] - 1, &step)) return false;
    if (!(step < 0 ? fuser_add_i64(l, step, &l) : fuser_add_i64(h, step, &h))) return false;
  }
  *lo = l, *hi = h;
  return true;
}

#endif
