/* signature.h: the cache key of one call to a libfuser fusion (fuser.h says
 * what it holds), built on the stack with no allocation, and its hash.
 * Plain C, no MLIR: this is the hot path of every call. */
#ifndef FUSER_LIBFUSER_SIGNATURE_H
#define FUSER_LIBFUSER_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "driver/fuser_runtime.h"

/* Most arguments a libfuser fusion may take. */
#define FUSER_SIG_MAX_ARGS 64
/* Bytes per tensor argument: kind, dtype (3), rank, alignment, contiguity
 * and stride order (a byte per dim each), extents (8 bytes per dim) or
 * which extents are 0 (2 bytes). */
#define FUSER_SIG_MAX_ARG_BYTES (6 + 2 * FUSER_TENSOR_MAX_RANK + 8 * FUSER_TENSOR_MAX_RANK)
#define FUSER_SIG_MAX_BYTES (1 + FUSER_SIG_MAX_ARGS * FUSER_SIG_MAX_ARG_BYTES) /* the sized flag, then the arguments */

typedef struct {
  uint64_t hash;
  size_t len;
  unsigned char bytes[FUSER_SIG_MAX_BYTES];
} fuser_signature;

/* Builds the key of `args` (nargs <= FUSER_SIG_MAX_ARGS, checked by the
 * caller) into *sig; with_sizes adds every tensor extent. Fails only where
 * fuser_tensor_layout fails (NULL tensor or shape, bad rank, negative size
 * or stride): FUSER_ERR_INPUT_MISMATCH naming the argument. */
int fuser_signature_build(const fuser_arg *args, size_t nargs, bool with_sizes, fuser_signature *sig,
                          fuser_error *err);

static inline bool fuser_signature_equal(const fuser_signature *a, uint64_t hash, size_t len,
                                         const unsigned char *bytes) {
  return a->hash == hash && a->len == len && memcmp(a->bytes, bytes, len) == 0;
}

#endif
