/* libFuzzer target for fuser-cpu-check's case files (case_file.h).
 *
 * A refused file must come with a message. A read file must hold views
 * inside their storages (the first and last element each view reaches are
 * touched, so ASan reports a view outside its allocation) and must read
 * back the same after being written out again. */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "driver/checked_math.h"
#include "fuzz_common.h"
#include "tools/fuser-cpu-check/case_file.h"

static volatile unsigned char sink;

static void touch_views(const fuser_case_list *l, int is_output) {
  for (int i = 0; i < l->n; i++) {
    const fuser_host_tensor *t = &l->t[i];
    if (t->rank < 0) continue;
    int64_t lo, hi;
    bool empty;
    int64_t strides[FUSER_MAX_RANK];
    for (int d = 0; d < t->rank; d++) strides[d] = is_output ? 0 : t->strides[d];
    FUZZ_REQUIRE(fuser_view_span(0, t->sizes, strides, t->rank, &lo, &hi, &empty), "accepted view %d overflows", i);
    if (empty) continue;
    size_t es = is_output ? 8 : fuser_dtype_size(t->dtype);
    const unsigned char *p = t->data;
    sink ^= p[lo * (int64_t)es];
    sink ^= p[hi * (int64_t)es + (int64_t)es - 1];
  }
}

static void write_list(FILE *f, const fuser_case_list *l, int is_output) {
  fprintf(f, "%s %d\n", is_output ? "outputs" : "inputs", l->n);
  for (int i = 0; i < l->n; i++) {
    const fuser_host_tensor *t = &l->t[i];
    const char *dt = fuser_dtype_mlir_name(t->dtype);
    if (t->rank < 0) {
      if (fuser_dtype_is_float(t->dtype)) fprintf(f, "scalar %s %.17g\n", dt, t->scalar.f);
      else fprintf(f, "scalar %s %" PRId64 "\n", dt, t->scalar.i);
      continue;
    }
    fprintf(f, "tensor %s %d", dt, t->rank);
    for (int d = 0; d < t->rank; d++) fprintf(f, " %" PRId64, t->sizes[d]);
    size_t es = is_output ? 8 : fuser_dtype_size(t->dtype);
    int64_t elems = 1;
    for (int d = 0; d < t->rank; d++) elems *= t->sizes[d];
    const char *data = t->data;
    int64_t storage = elems;
    if (!is_output) { /* the storage from the view's first element on: offset 0 */
      int64_t lo, hi;
      bool empty;
      fuser_view_span(0, t->sizes, t->strides, t->rank, &lo, &hi, &empty);
      storage = empty ? 0 : hi + 1;
      for (int d = 0; d < t->rank; d++) fprintf(f, " %" PRId64, t->strides[d]);
      fprintf(f, " 0 %" PRId64, storage);
    }
    fprintf(f, "\n");
    fwrite(data, es, (size_t)storage, f);
    fprintf(f, "\n");
  }
}

static void same_lists(const fuser_case_list *a, const fuser_case_list *b, int is_output) {
  FUZZ_REQUIRE(a->n == b->n, "round trip changed the count");
  for (int i = 0; i < a->n; i++) {
    const fuser_host_tensor *x = &a->t[i], *y = &b->t[i];
    FUZZ_REQUIRE(x->rank == y->rank && x->dtype == y->dtype, "round trip changed tensor %d's rank or dtype", i);
    if (x->rank < 0) {
      bool f = fuser_dtype_is_float(x->dtype);
      FUZZ_REQUIRE(f ? (x->scalar.f == y->scalar.f || (x->scalar.f != x->scalar.f && y->scalar.f != y->scalar.f))
                     : x->scalar.i == y->scalar.i,
                   "round trip changed scalar %d", i);
      continue;
    }
    for (int d = 0; d < x->rank; d++)
      FUZZ_REQUIRE(x->sizes[d] == y->sizes[d] && (is_output || x->sizes[d] <= 1 || x->strides[d] == y->strides[d]),
                   "round trip changed tensor %d's layout", i);
    int64_t lo, hi;
    bool empty;
    int64_t zero[FUSER_MAX_RANK] = {0};
    fuser_view_span(0, x->sizes, is_output ? zero : x->strides, x->rank, &lo, &hi, &empty);
    size_t es = is_output ? 8 : fuser_dtype_size(x->dtype);
    if (is_output) hi = 0, empty = false;
    if (is_output) {
      int64_t n = 1;
      for (int d = 0; d < x->rank; d++) n *= x->sizes[d];
      FUZZ_REQUIRE(memcmp(x->data, y->data, (size_t)n * es) == 0, "round trip changed output %d's data", i);
    } else if (!empty) {
      FUZZ_REQUIRE(memcmp(x->data, y->data, (size_t)(hi + 1) * es) == 0, "round trip changed input %d's data", i);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fmemopen((void *)data, size, "rb");
  if (!f) return 0;
  char err[1024] = "";
  fuser_case_list in = {0}, out = {0};
  bool ok = fuser_case_read(f, &in, &out, err, sizeof err);
  fclose(f);
  if (!ok) {
    FUZZ_REQUIRE(err[0], "a case file was refused without a message");
  } else {
    touch_views(&in, 0);
    touch_views(&out, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    write_list(w, &in, 0);
    write_list(w, &out, 1);
    fclose(w);
    FILE *r = fmemopen(buf, len, "rb");
    fuser_case_list in2 = {0}, out2 = {0};
    bool again = r && fuser_case_read(r, &in2, &out2, err, sizeof err);
    if (r) fclose(r);
    FUZZ_REQUIRE(again, "a case file written back does not read again: %s", err);
    same_lists(&in, &in2, 0);
    same_lists(&out, &out2, 1);
    fuser_case_free(&in2);
    fuser_case_free(&out2);
    free(buf);
  }
  fuser_case_free(&in);
  fuser_case_free(&out);
  return 0;
}
