/* layout.c: the nvFuser-style layout (contiguity in allocation order,
 * stride_order, broadcast dims, alignment) of a DLTensor, and a hash of a
 * call's layout class, for compilers that specialise on and cache by the
 * inputs' signature. The rules (fuser_runtime.h) are the inverse of the
 * validator's (validate.c): the layout computed here always passes it. */
#include "driver/runtime_internal.h"

static int is_broadcast(int64_t size, int64_t stride) { return size == 1 || stride == 0; }

int fuser_tensor_layout(const DLTensor *t, fuser_layout *out, fuser_error *err) {
  if (!t || !out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_tensor_layout: NULL argument");
  if (t->ndim < 0 || t->ndim > FUSER_MAX_RANK)
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "rank %d outside 0..%d", t->ndim, FUSER_MAX_RANK);
  if (t->ndim && !t->shape) return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "NULL shape");
  int rank = t->ndim;
  int64_t stride[FUSER_MAX_RANK], key[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    stride[d] = fuser_dl_stride(t, d);
    if (stride[d] < 0)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "negative stride %lld of dim %d is not supported",
                             (long long)stride[d], d);
    if (t->shape[d] < 0)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "negative size %lld of dim %d", (long long)t->shape[d], d);
  }
  /* sort keys: a broadcast dim borrows the key of the next non-broadcast dim
   * to its right (-1: innermost when there is none) */
  int64_t next = -1;
  for (int d = rank - 1; d >= 0; d--) {
    if (is_broadcast(t->shape[d], stride[d])) {
      key[d] = next;
    } else {
      key[d] = stride[d];
      next = stride[d];
    }
  }
  /* stable insertion sort of logical dims by key, descending */
  int order[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    int p = d;
    while (p > 0 && key[order[p - 1]] < key[d]) {
      order[p] = order[p - 1];
      p--;
    }
    order[p] = d;
  }
  out->rank = rank;
  int64_t expected = 1;
  for (int p = rank - 1; p >= 0; p--) {
    int d = order[p];
    out->stride_order[d] = rank - 1 - p;
    if (is_broadcast(t->shape[d], stride[d])) {
      out->contiguity[p] = -1;
      continue;
    }
    out->contiguity[p] = stride[d] == expected;
    expected = (int64_t)((uint64_t)stride[d] * (uint64_t)t->shape[d]);
  }
  for (int p = rank; p < FUSER_MAX_RANK; p++) out->contiguity[p] = out->stride_order[p] = 0;
  uint64_t addr = (uint64_t)(uintptr_t)t->data + t->byte_offset;
  out->alignment = 16;
  while (out->alignment > 1 && addr % (uint64_t)out->alignment) out->alignment /= 2;
  fuser_clear_error(err);
  return FUSER_OK;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; i++) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}

uint64_t fuser_signature_hash(const fuser_arg *args, size_t nargs) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  h = mix(h, nargs);
  for (size_t i = 0; args && i < nargs; i++) {
    h = mix(h, (uint64_t)args[i].kind);
    if (args[i].kind != FUSER_ARG_TENSOR) continue;
    const DLTensor *t = args[i].tensor;
    if (!t) {
      h = mix(h, UINT64_MAX);
      continue;
    }
    h = mix(h, (uint64_t)t->dtype.code | (uint64_t)t->dtype.bits << 8 | (uint64_t)t->dtype.lanes << 16);
    fuser_layout l;
    if (fuser_tensor_layout(t, &l, NULL) != FUSER_OK) {
      h = mix(h, UINT64_MAX - 1);
      continue;
    }
    h = mix(h, (uint64_t)l.rank);
    for (int p = 0; p < l.rank; p++) h = mix(h, (uint64_t)(l.contiguity[p] + 1) | (uint64_t)l.stride_order[p] << 8);
    h = mix(h, (uint64_t)l.alignment);
  }
  return h;
}
