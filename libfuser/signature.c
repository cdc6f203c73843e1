/* signature.c: the cache key of a call (signature.h). Per argument:
 * tensor or scalar; for a tensor its DLPack dtype, rank, alignment class and the layout
 * fuser_tensor_layout gives (contiguity in allocation order, stride order:
 * together the broadcast dims), and its extents (with specialize_sizes) or
 * else which of them are 0 (the compile pins empty extents, as nvFuser's
 * concretization does). Everything the
 * compiled code depends on, nothing it takes as a parameter. */
#include "libfuser/signature.h"

#include <stdio.h>

#include "driver/error.h"

static void put_byte(fuser_signature *s, unsigned v) { s->bytes[s->len++] = (unsigned char)v; }

static void put_i64(fuser_signature *s, int64_t v) {
  memcpy(s->bytes + s->len, &v, sizeof v);
  s->len += sizeof v;
}

/* 8 bytes at a time, multiply-xorshift mixing (the key is never hostile:
 * it comes from the caller's own tensors, and equality is checked fully). */
static uint64_t hash_bytes(const unsigned char *p, size_t n) {
  uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 32;
  }
  uint64_t tail = 0;
  memcpy(&tail, p + i, n - i);
  h = (h ^ tail) * UINT64_C(0xc4ceb9fe1a85ec53);
  return h ^ (h >> 29);
}

int fuser_signature_build(const fuser_arg *args, size_t nargs, bool with_sizes, fuser_signature *sig,
                          fuser_error *err) {
  sig->len = 0;
  put_byte(sig, with_sizes); /* a sized key never equals an unsized one */
  for (size_t i = 0; i < nargs; i++) {
    /* a scalar's kind (int or double) does not change the compiled code:
     * the runtime converts, and refuses a double for an integer scalar */
    put_byte(sig, args[i].kind == FUSER_ARG_TENSOR ? FUSER_ARG_TENSOR : 0);
    if (args[i].kind != FUSER_ARG_TENSOR) continue;
    const DLTensor *t = args[i].tensor;
    if (!t) return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: NULL DLTensor", i);
    fuser_layout l;
    fuser_error lerr;
    if (fuser_tensor_layout(t, &l, &lerr) != FUSER_OK) return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: %.480s", i, lerr.message);
    put_byte(sig, t->dtype.code);
    put_byte(sig, t->dtype.bits);
    put_byte(sig, t->dtype.lanes & 0xff);
    put_byte(sig, (unsigned)l.rank);
    put_byte(sig, (unsigned)l.alignment);
    for (int p = 0; p < l.rank; p++) put_byte(sig, (unsigned)(l.contiguity[p] + 1));
    for (int d = 0; d < l.rank; d++) put_byte(sig, (unsigned)l.stride_order[d]);
    if (with_sizes)
      for (int d = 0; d < l.rank; d++) put_i64(sig, t->shape[d]);
    else { /* which extents are 0: nvFuser concretizes empty extents, and so does the compile */
      unsigned empty = 0;
      for (int d = 0; d < t->ndim && d < 16; d++) empty |= (unsigned)(t->shape[d] == 0) << d;
      put_byte(sig, empty & 0xff);
      put_byte(sig, empty >> 8);
    }
  }
  sig->hash = hash_bytes(sig->bytes, sig->len);
  return FUSER_OK;
}
