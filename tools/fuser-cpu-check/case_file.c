/* The case files of fuser-cpu-check (case_file.h). */
#include "tools/fuser-cpu-check/case_file.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "driver/checked_math.h"
#include "driver/host_inputs.h"

static fuser_dtype dtype_named(const char *name) {
  for (int d = 0; d < FUSER_DTYPE_COUNT; d++)
    if (strcmp(fuser_dtype_mlir_name((fuser_dtype)d), name) == 0) return (fuser_dtype)d;
  return FUSER_DTYPE_INVALID;
}

/* Reads the case file. Every count, extent, stride and offset is checked
 * before it sizes an allocation or a read: the view of each input must lie
 * inside the storage the file gives (a JIT kernel reads the whole view),
 * products must not overflow, and storages obey the generated-input cap. */
bool fuser_case_read(FILE *f, fuser_case_list *in, fuser_case_list *out, char *err, size_t errlen) {
  char word[32], dt[16];
  /* the file's size, when it has one: a storage claimed larger than what is
   * left is truncated, refused before anything that large is allocated */
  long start = ftell(f), end = -1;
  if (start >= 0 && fseek(f, 0, SEEK_END) == 0) end = ftell(f);
  if (start >= 0) fseek(f, start, SEEK_SET);
  for (int pass = 0; pass < 2; pass++) {
    fuser_case_list *l = pass ? out : in;
    if (fscanf(f, "%31s %d", word, &l->n) != 2 || strcmp(word, pass ? "outputs" : "inputs") != 0)
      return snprintf(err, errlen, "expected '%s <n>'", pass ? "outputs" : "inputs"), false;
    if (l->n < 0 || l->n > FUSER_CASE_MAX_TENSORS)
      return snprintf(err, errlen, "%s count %d outside 0..%d", pass ? "outputs" : "inputs", l->n, FUSER_CASE_MAX_TENSORS), false;
    l->t = calloc((size_t)l->n + 1, sizeof *l->t);
    l->storage = calloc((size_t)l->n + 1, sizeof *l->storage);
    if (!l->t || !l->storage) return snprintf(err, errlen, "out of memory"), false;
    for (int i = 0; i < l->n; i++) {
      fuser_host_tensor *t = &l->t[i];
      const char *what = pass ? "output" : "input";
      if (fscanf(f, "%31s %15s", word, dt) != 2) return snprintf(err, errlen, "truncated case"), false;
      t->dtype = dtype_named(dt);
      if (t->dtype == FUSER_DTYPE_INVALID) return snprintf(err, errlen, "%s %d: unknown dtype '%s'", what, i, dt), false;
      if (strcmp(word, "scalar") == 0) {
        double v;
        if (fscanf(f, "%lf", &v) != 1) return snprintf(err, errlen, "%s %d: bad scalar", what, i), false;
        bool is_float = fuser_dtype_is_float(t->dtype);
        if (!is_float && !(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
          return snprintf(err, errlen, "%s %d: integer scalar %g out of range", what, i, v), false;
        t->rank = -1;
        t->scalar.i = is_float ? 0 : (int64_t)v;
        if (is_float) t->scalar.f = v;
        continue;
      }
      if (strcmp(word, "tensor") != 0) return snprintf(err, errlen, "%s %d: expected 'tensor' or 'scalar'", what, i), false;
      if (fscanf(f, "%d", &t->rank) != 1 || t->rank < 0 || t->rank > FUSER_MAX_RANK)
        return snprintf(err, errlen, "%s %d: bad rank", what, i), false;
      int64_t elems, offset = 0, storage = 0, lo, hi;
      bool empty;
      for (int d = 0; d < t->rank; d++)
        if (fscanf(f, "%" SCNd64, &t->sizes[d]) != 1 || t->sizes[d] < 0)
          return snprintf(err, errlen, "%s %d: bad sizes", what, i), false;
      if (!fuser_numel_i64(t->sizes, t->rank, &elems))
        return snprintf(err, errlen, "%s %d: sizes overflow 64 bits", what, i), false;
      if (!pass) {
        for (int d = 0; d < t->rank; d++)
          if (fscanf(f, "%" SCNd64, &t->strides[d]) != 1 || (t->strides[d] < 0 && t->sizes[d] > 1))
            return snprintf(err, errlen, "%s %d: bad strides (negative strides are not supported)", what, i), false;
        if (fscanf(f, "%" SCNd64 " %" SCNd64, &offset, &storage) != 2 || offset < 0 || storage < 0)
          return snprintf(err, errlen, "%s %d: bad offset or storage size", what, i), false;
        if (offset > storage) /* also for an empty view: the data pointer stays inside */
          return snprintf(err, errlen, "%s %d: offset %lld past the storage of %lld", what, i, (long long)offset,
                          (long long)storage), false;
        if (!fuser_view_span(offset, t->sizes, t->strides, t->rank, &lo, &hi, &empty))
          return snprintf(err, errlen, "%s %d: offset and strides overflow 64 bits", what, i), false;
        if (!empty && (lo < 0 || hi >= storage))
          return snprintf(err, errlen, "%s %d: the view reaches elements [%lld, %lld] outside the storage of %lld", what,
                          i, (long long)lo, (long long)hi, (long long)storage), false;
      } else {
        storage = elems;
      }
      fgetc(f); /* the newline before the bytes */
      size_t esize = pass ? 8 : fuser_dtype_size(t->dtype), bytes;
      fuser_error cap;
      if (fuser_input_storage_bytes(storage, 0, esize, &bytes, &cap) != FUSER_OK)
        return snprintf(err, errlen, "%s %d: %s", what, i, cap.message), false;
      long at = ftell(f);
      if (end >= 0 && at >= 0 && bytes > (size_t)(end - at))
        return snprintf(err, errlen, "%s %d: truncated data (%zu bytes of storage, %ld left in the file)", what, i, bytes,
                        end - at), false;
      /* 16 spare bytes, and the storage placed 64-byte aligned like an allocator's */
      char *buf = aligned_alloc(64, (bytes + 16 + 63) / 64 * 64);
      if (!buf) return snprintf(err, errlen, "%s %d: out of memory for %zu bytes", what, i, bytes), false;
      l->storage[i] = buf;
      if (fread(buf, 1, bytes, f) != bytes) return snprintf(err, errlen, "%s %d: truncated data", what, i), false;
      t->data = buf + (size_t)offset * esize; /* offset <= hi < storage: inside */
    }
  }
  return true;
}

void fuser_case_free(fuser_case_list *l) {
  for (int i = 0; l->storage && i < l->n; i++) free(l->storage[i]);
  free(l->storage);
  free(l->t);
}
