/* unit_layout.c: nvFuser-style layouts computed from DLTensors
 * (fuser_tensor_layout) on known cases, the property that a signature built
 * from a tensor's layout accepts that tensor (random shapes, permutations,
 * padding, broadcasts), and the signature hash. */
#include "example_artifact.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

static int same(const int64_t *got, const int64_t *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      fprintf(stderr, "element %d: got %lld, want %lld\n", i, (long long)got[i], (long long)want[i]);
      return 0;
    }
  return 1;
}

static void expect_layout(int rank, int64_t *shape, int64_t *strides, const int64_t *contiguity,
                          const int64_t *stride_order) {
  DLTensor t = example_tensor((void *)(uintptr_t)0x1000, rank, shape, strides);
  fuser_layout l;
  fuser_error err;
  CHECK_EQ_INT(fuser_tensor_layout(&t, &l, &err), FUSER_OK);
  CHECK_EQ_INT(l.rank, rank);
  CHECK(same(l.contiguity, contiguity, rank));
  CHECK(same(l.stride_order, stride_order, rank));
}

static void test_known(void) {
  int64_t s3[3] = {2, 3, 4}, c111[3] = {1, 1, 1}, o210[3] = {2, 1, 0};
  expect_layout(3, s3, NULL, c111, o210); /* compact row-major */
  int64_t st3[3] = {12, 4, 1};
  expect_layout(3, s3, st3, c111, o210);
  int64_t s2[2] = {3, 4}, tr[2] = {1, 3}, c11[2] = {1, 1}, o01[2] = {0, 1};
  expect_layout(2, s2, tr, c11, o01); /* transposed */
  int64_t pad[2] = {8, 1}, c01[2] = {0, 1}, o10[2] = {1, 0};
  expect_layout(2, s2, pad, c01, o10); /* padded rows */
  int64_t se[3] = {3, 5, 16}, ste[3] = {16, 0, 1}, cb[3] = {1, -1, 1};
  expect_layout(3, se, ste, cb, o210); /* expanded broadcast stays in place */
  int64_t s1[3] = {4, 1, 8}, st1[3] = {8, 8, 1};
  expect_layout(3, s1, st1, cb, o210); /* size-1 dim */
  int64_t sl[2] = {4, 1}, stl[2] = {1, 1}, cl[2] = {1, -1};
  expect_layout(2, sl, stl, cl, o10); /* trailing broadcast innermost */
  /* the RoPE layout of nvFuser #2613: stride_order [3, 1, 2, 0],
   * contiguity [True, False, True, True] */
  int64_t sr[4] = {2, 4, 10, 64}, str[4] = {2640, 64, 264, 1}, cr[4] = {1, 0, 1, 1}, orr[4] = {3, 1, 2, 0};
  expect_layout(4, sr, str, cr, orr);
  expect_layout(0, NULL, NULL, NULL, NULL); /* a 0-dim tensor */

  /* alignment of data + byte_offset */
  DLTensor t = example_tensor((void *)(uintptr_t)0x1000, 3, s3, NULL);
  fuser_layout l;
  fuser_tensor_layout(&t, &l, NULL);
  CHECK_EQ_INT(l.alignment, 16);
  t.byte_offset = 4;
  fuser_tensor_layout(&t, &l, NULL);
  CHECK_EQ_INT(l.alignment, 4);
  t.byte_offset = 8;
  fuser_tensor_layout(&t, &l, NULL);
  CHECK_EQ_INT(l.alignment, 8);
  t.data = (void *)(uintptr_t)0x1001;
  fuser_tensor_layout(&t, &l, NULL);
  CHECK_EQ_INT(l.alignment, 1);

  /* errors */
  fuser_error err;
  int64_t neg[2] = {-4, 1};
  DLTensor n = example_tensor((void *)(uintptr_t)0x1000, 2, s2, neg);
  CHECK_EQ_INT(fuser_tensor_layout(&n, &l, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(strstr(err.message, "negative stride -4 of dim 0 is not supported") != NULL);
  CHECK_EQ_INT(fuser_tensor_layout(NULL, &l, &err), FUSER_ERR_INVALID_ARGUMENT);
  n.ndim = 17;
  CHECK_EQ_INT(fuser_tensor_layout(&n, &l, &err), FUSER_ERR_INPUT_MISMATCH);
  CHECK(strstr(err.message, "rank 17 outside 0..16") != NULL);
}

static uint64_t state = 88172645463325252u;
static unsigned rnd(unsigned n) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (unsigned)(state % n);
}

/* A random strided tensor: sizes 0..4, a random allocation order, random
 * padding between dims, random expanded broadcasts. */
static void random_tensor(int rank, int64_t *shape, int64_t *strides) {
  int order[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) order[d] = d;
  for (int d = rank - 1; d > 0; d--) {
    int j = (int)rnd((unsigned)d + 1), tmp = order[d];
    order[d] = order[j];
    order[j] = tmp;
  }
  for (int d = 0; d < rank; d++) shape[d] = rnd(5);
  int64_t next = 1;
  for (int p = rank - 1; p >= 0; p--) { /* order[rank-1] innermost */
    int d = order[p];
    if (rnd(6) == 0) {
      strides[d] = 0; /* expanded broadcast */
      continue;
    }
    next += rnd(3) == 0 ? rnd(3) : 0; /* padding */
    strides[d] = next;
    next *= shape[d] ? shape[d] : 1;
  }
}

static void test_property(void) {
  int accepted = 0, refused = 0;
  for (int iter = 0; iter < 20000; iter++) {
    int rank = 1 + (int)rnd(5);
    int64_t shape[FUSER_MAX_RANK], strides[FUSER_MAX_RANK];
    random_tensor(rank, shape, strides);
    DLTensor t = example_tensor((void *)(uintptr_t)0x10000, rank, shape, strides);
    fuser_layout l;
    fuser_error err;
    if (fuser_tensor_layout(&t, &l, &err) != FUSER_OK) {
      CHECK(0);
      continue;
    }
    fuser_builder *b = fuser_builder_create();
    int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
    int64_t sizes[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) sizes[d] = -1;
    fuser_builder_add_tensor_input(b, "T0", FUSER_DTYPE_F32, rank, sizes, l.contiguity, l.stride_order);
    int k = fuser_builder_add_kernel(b, "k");
    fuser_builder_add_variant(b, k, m, "k", "1", 32, 0, NULL);
    fuser_artifact *a;
    if (fuser_builder_finish(b, &a, &err) != FUSER_OK) {
      fprintf(stderr, "builder refused a computed layout: %s\n", err.message);
      CHECK(0);
      continue;
    }
    fuser_arg arg = fuser_arg_tensor(&t);
    if (fuser_artifact_check_inputs(a, &arg, 1, NULL, &err) == FUSER_OK) {
      accepted++;
    } else {
      refused++;
      if (refused < 5) fprintf(stderr, "layout not accepted: %s\n", err.message);
    }
    fuser_artifact_release(a);
  }
  CHECK_EQ_INT(refused, 0);
  CHECK_EQ_INT(accepted, 20000);
}

static void test_hash(void) {
  int64_t a_shape[2] = {8, 16}, b_shape[2] = {32, 4}, tr[2] = {1, 8};
  DLTensor a = example_tensor((void *)(uintptr_t)0x1000, 2, a_shape, NULL);
  DLTensor b = example_tensor((void *)(uintptr_t)0x2000, 2, b_shape, NULL);
  fuser_arg x[2] = {fuser_arg_tensor(&a), fuser_arg_int(3)}, y[2] = {fuser_arg_tensor(&b), fuser_arg_int(4)};
  uint64_t base = fuser_signature_hash(x, 2);
  CHECK(base == fuser_signature_hash(y, 2)); /* sizes and scalar values are not part of it */
  a.strides = tr;
  CHECK(base != fuser_signature_hash(x, 2)); /* layout is */
  a.strides = NULL;
  a.byte_offset = 4;
  CHECK(base != fuser_signature_hash(x, 2)); /* alignment is */
  a.byte_offset = 0;
  a.dtype.bits = 16;
  CHECK(base != fuser_signature_hash(x, 2)); /* dtype is */
  a.dtype.bits = 32;
  x[1] = fuser_arg_double(3.0);
  CHECK(base != fuser_signature_hash(x, 2)); /* argument kinds are */
  x[1] = fuser_arg_int(3);
  CHECK(base == fuser_signature_hash(x, 2));
  CHECK(base != fuser_signature_hash(x, 1));
}

int main(void) {
  test_known();
  test_property();
  test_hash();
  UNIT_MAIN_END();
}
