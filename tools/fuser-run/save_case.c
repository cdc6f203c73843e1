/* The reference's inputs and outputs as a fuser-cpu-check case (save_case.h):
 *   inputs <n>
 *   tensor <dtype> <rank> <sizes...> <strides...> <offset> <storage elements>\n<storage bytes>\n
 *   scalar <dtype> <value>
 *   outputs <m>
 *   tensor <dtype> <rank> <sizes...>\n<elements * 8 bytes of float64, row-major>\n */
#include "tools/fuser-run/save_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dims(FILE *f, int n, const int64_t *v) {
  for (int d = 0; d < n; d++) fprintf(f, " %lld", (long long)v[d]);
}

static bool write_input(FILE *f, const fuser_ref_value *v, int misalign) {
  if (!v->is_tensor) {
    if (fuser_dtype_is_float(v->dtype)) fprintf(f, "scalar %s %.17g\n", fuser_dtype_mlir_name(v->dtype), v->f);
    else fprintf(f, "scalar %s %lld\n", fuser_dtype_mlir_name(v->dtype), (long long)v->i);
    return true;
  }
  const DLTensor *t = v->tensor;
  size_t es = fuser_dtype_size(v->dtype);
  int64_t offset = (int64_t)(t->byte_offset / es), span = 1;
  int64_t strides[FUSER_MAX_RANK];
  for (int d = t->ndim - 1, inner = 1; d >= 0; d--) {
    strides[d] = t->strides ? t->strides[d] : inner;
    inner *= (int)t->shape[d];
    if (t->shape[d] == 0) span = 0;
  }
  if (span) for (int d = 0; d < t->ndim; d++) span += (t->shape[d] - 1) * strides[d];
  int64_t storage = offset + span + misalign;
  if (storage < 1) storage = 1;
  fprintf(f, "tensor %s %d", fuser_dtype_mlir_name(v->dtype), t->ndim);
  dims(f, t->ndim, t->shape);
  dims(f, t->ndim, strides);
  fprintf(f, " %lld %lld\n", (long long)(offset + misalign), (long long)storage);
  char *zeros = calloc((size_t)misalign + 1, es);
  bool ok = fwrite(zeros, es, (size_t)misalign, f) == (size_t)misalign;
  free(zeros);
  size_t n = (size_t)(storage - misalign);
  ok &= fwrite(t->data, es, n, f) == n; /* the storage from element 0 */
  fputc('\n', f);
  return ok;
}

bool fuser_run_save_case(const char *path, const fuser_ref_inputs *in, const fuser_ref_outputs *out, int misalign) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "fuser-run: error: cannot write '%s'\n", path);
    return false;
  }
  bool ok = true;
  fprintf(f, "inputs %d\n", in->count);
  for (int i = 0; i < in->count; i++) ok &= write_input(f, &in->values[i], misalign);
  fprintf(f, "outputs %d\n", out->count);
  for (int k = 0; k < out->count; k++) {
    const fuser_ref_value *v = &out->values[k];
    if (!v->is_tensor) continue;
    const DLTensor *t = v->tensor;
    fprintf(f, "tensor %s %d", fuser_dtype_mlir_name(v->dtype), t->ndim);
    dims(f, t->ndim, t->shape);
    fputc('\n', f);
    int64_t n = fuser_ref_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
      double x = fuser_ref_tensor_get(t, i);
      ok &= fwrite(&x, sizeof x, 1, f) == 1;
    }
    fputc('\n', f);
  }
  ok &= fclose(f) == 0;
  if (!ok) fprintf(stderr, "fuser-run: error: writing '%s' failed\n", path);
  return ok;
}
