/* Meta ops (views), pad, cat, reductions, var_mean and factories against
 * hand-computed values, with broadcast, expanded (stride 0), strided and
 * offset inputs and zero-size tensors. */
#include "harness.h"

static const double inf = INFINITY, nan_ = NAN;

/* runs a one-input fusion and checks its single output */
#define RUN1(sig, ret, body, arg, want, n)                                                   \
  do {                                                                                       \
    fuser_ref_outputs out_;                                                                  \
    fuser_ref_error err_;                                                                    \
    fuser_ref_value a_ = (arg);                                                              \
    CHECK_EQ_INT(run_fusion(sig, ret, body, &a_, 1, false, &out_, &err_), FUSER_REF_OK);     \
    if (out_.count == 1) CHECK_VALUES(out_.values[0].tensor, want, n, 0);                    \
    fuser_ref_outputs_free(&out_);                                                           \
  } while (0)

static DLTensor *iota_tensor(fuser_dtype dt, int rank, const int64_t *sizes) {
  DLTensor *t = fuser_ref_tensor_alloc(dt, rank, sizes);
  for (int64_t i = 0; i < fuser_ref_tensor_numel(t); i++) ref_put_f64(t->data, dt, i, (double)i);
  return t;
}

static void test_views(void) {
  int64_t s23[2] = {2, 3};
  DLTensor *x = iota_tensor(FUSER_DTYPE_F32, 2, s23); /* [[0 1 2] [3 4 5]] */
  fuser_ref_value a = tensor_arg(x);
  RUN1("%a: tensor<2x3xf32>", "tensor<3x2xf32>",
       "%r = \"fuser.permute\"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
       "return %r : tensor<3x2xf32>",
       a, ((double[]){0, 3, 1, 4, 2, 5}), 6);
  RUN1("%a: tensor<2x3xf32>", "tensor<2x2xf32>",
       "%r = \"fuser.slice\"(%a) {start_indices = array<i64: 0, 1>, end_indices = array<i64: 2, 3>, "
       "strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x2xf32>\nreturn %r : tensor<2x2xf32>",
       a, ((double[]){1, 2, 4, 5}), 4);
  /* a reshape of a permuted (not row-major) view copies in logical order */
  RUN1("%a: tensor<2x3xf32>", "tensor<6xf32>",
       "%p = \"fuser.permute\"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
       "%r = \"fuser.reshape\"(%p) : (tensor<3x2xf32>) -> tensor<6xf32>\nreturn %r : tensor<6xf32>",
       a, ((double[]){0, 3, 1, 4, 2, 5}), 6);
  /* a `?` extent from a scalar operand, -1 inferred */
  RUN1("%a: tensor<2x3xf32>", "tensor<?x2xf32>",
       "%m = \"fuser.scalar\"() {value = -1 : i64} : () -> i64\n"
       "%r = \"fuser.reshape\"(%a, %m) : (tensor<2x3xf32>, i64) -> tensor<?x2xf32>\nreturn %r : tensor<?x2xf32>",
       a, ((double[]){0, 1, 2, 3, 4, 5}), 6);
  RUN1("%a: tensor<2x3xf32>", "tensor<2x4x3xf32>",
       "%r = \"fuser.broadcast_in_dim\"(%a) {broadcast_dims = array<i64: 0, 2>} : (tensor<2x3xf32>) -> tensor<2x4x3xf32>\n"
       "return %r : tensor<2x4x3xf32>",
       a,
       ((double[]){0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5}), 24);
  RUN1("%a: tensor<2x3xf32>", "tensor<2x1x3xf32>",
       "%r = \"fuser.broadcast\"(%a) {is_broadcast_dim = array<i1: false, true, false>} : (tensor<2x3xf32>) -> tensor<2x1x3xf32>\n"
       "return %r : tensor<2x1x3xf32>",
       a, ((double[]){0, 1, 2, 3, 4, 5}), 6);
  RUN1("%a: tensor<2x3xf32>", "tensor<2x3xf32>",
       "%r = \"fuser.set\"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>\nreturn %r : tensor<2x3xf32>", a,
       ((double[]){0, 1, 2, 3, 4, 5}), 6);
  fuser_ref_tensor_free(x);

  int64_t s131[3] = {1, 3, 1};
  DLTensor *y = iota_tensor(FUSER_DTYPE_F32, 3, s131);
  RUN1("%a: tensor<1x3x1xf32>", "tensor<3xf32>",
       "%r = \"fuser.squeeze\"(%a) {dims = array<i64: 0, 2>} : (tensor<1x3x1xf32>) -> tensor<3xf32>\nreturn %r : tensor<3xf32>",
       tensor_arg(y), ((double[]){0, 1, 2}), 3);
  /* expand gives stride-0 dims; the output is a new row-major tensor */
  RUN1("%a: tensor<1x3x1xf32>", "tensor<2x3x2xf32>",
       "%r = \"fuser.expand\"(%a) : (tensor<1x3x1xf32>) -> tensor<2x3x2xf32>\nreturn %r : tensor<2x3x2xf32>",
       tensor_arg(y), ((double[]){0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}), 12);
  fuser_ref_tensor_free(y);
}

/* Inputs with stride 0 (expanded), size-1 broadcast dims, strides and a
 * storage offset, and zero-size dims. */
static void test_input_layouts(void) {
  double storage[16];
  for (int i = 0; i < 16; i++) storage[i] = i;
  float fs[16];
  for (int i = 0; i < 16; i++) fs[i] = (float)storage[i];
  /* a (2, 3) view at offset 5 with strides (4, 2): elements 5 7 9 / 9 11 13 */
  DLTensor *v = fuser_ref_tensor_view(fs, FUSER_DTYPE_F32, 2, (int64_t[]){2, 3}, (int64_t[]){4, 2}, 5);
  /* an expanded (2, 3) view of one row: strides (0, 1) */
  DLTensor *e = fuser_ref_tensor_view(fs, FUSER_DTYPE_F32, 2, (int64_t[]){2, 3}, (int64_t[]){0, 1}, 1);
  /* a broadcast (1, 3) operand */
  DLTensor *b = fuser_ref_tensor_view(fs, FUSER_DTYPE_F32, 2, (int64_t[]){1, 3}, (int64_t[]){3, 1}, 10);
  fuser_ref_value args[3] = {tensor_arg(v), tensor_arg(e), tensor_arg(b)};
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%v: tensor<2x3xf32>, %e: tensor<2x3xf32>, %b: tensor<1x3xf32>", "tensor<2x3xf32>, tensor<2x3xf32>",
                          "%s = \"fuser.add\"(%v, %e) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                          "%t = \"fuser.mul\"(%v, %b) : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>\n"
                          "return %s, %t : tensor<2x3xf32>, tensor<2x3xf32>",
                          args, 3, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 2) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){5 + 1, 7 + 2, 9 + 3, 9 + 1, 11 + 2, 13 + 3}), 6, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){5 * 10, 7 * 11, 9 * 12, 9 * 10, 11 * 11, 13 * 12}), 6, 0);
    CHECK_EQ_INT(out.values[0].tensor->strides[0], 3); /* results are row-major */
    CHECK_EQ_INT(out.values[0].tensor->strides[1], 1);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(v);
  fuser_ref_tensor_free(e);
  fuser_ref_tensor_free(b);

  /* zero-size: element-wise, reduction over the empty dim, cat with it */
  DLTensor *z = fuser_ref_tensor_alloc(FUSER_DTYPE_BF16, 2, (int64_t[]){2, 0});
  DLTensor *w = make_tensor(FUSER_DTYPE_BF16, 2, (int64_t[]){2, 1}, (double[]){1, 2});
  fuser_ref_value zargs[2] = {tensor_arg(z), tensor_arg(w)};
  CHECK_EQ_INT(run_fusion("%z: tensor<2x0xbf16>, %w: tensor<2x1xbf16>", "tensor<2x0xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x1xbf16>",
                          "%n = \"fuser.neg\"(%z) : (tensor<2x0xbf16>) -> tensor<2x0xf32>\n"
                          "%s = \"fuser.sum\"(%n) {dims = array<i64: 1>, keepdim = false} : (tensor<2x0xf32>) -> tensor<2xf32>\n"
                          "%m = \"fuser.max\"(%n) {dims = array<i64: 1>, keepdim = false} : (tensor<2x0xf32>) -> tensor<2xf32>\n"
                          "%c = \"fuser.cat\"(%z, %w) {dim = 1 : i64} : (tensor<2x0xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>\n"
                          "return %n, %s, %m, %c : tensor<2x0xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x1xbf16>",
                          zargs, 2, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 4) {
    CHECK_EQ_INT(fuser_ref_tensor_numel(out.values[0].tensor), 0);
    CHECK_EQ_INT(out.values[0].tensor->shape[1], 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){0, 0}), 2, 0);
    CHECK_VALUES(out.values[2].tensor, ((double[]){-inf, -inf}), 2, 0);
    CHECK_VALUES(out.values[3].tensor, ((double[]){1, 2}), 2, 0);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(z);
  fuser_ref_tensor_free(w);
}

static void test_pad_cat(void) {
  int64_t three = 3, s23[2] = {2, 3};
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 1, &three, (double[]){1, 2, 3});
  fuser_ref_value a = tensor_arg(x);
  RUN1("%a: tensor<3xf32>", "tensor<6xf32>",
       "%v = \"fuser.scalar\"() {value = 0.5 : f64} : () -> f64\n"
       "%r = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: 1, 2>} : (tensor<3xf32>, f64) -> tensor<6xf32>\n"
       "return %r : tensor<6xf32>",
       a, ((double[]){0.5, 1, 2, 3, 0.5, 0.5}), 6);
  /* a negative width slices (torch.nn.functional.pad) */
  RUN1("%a: tensor<3xf32>", "tensor<3xf32>",
       "%v = \"fuser.scalar\"() {value = 9.0 : f64} : () -> f64\n"
       "%r = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: -1, 1>} : (tensor<3xf32>, f64) -> tensor<3xf32>\n"
       "return %r : tensor<3xf32>",
       a, ((double[]){2, 3, 9}), 3);
  RUN1("%a: tensor<3xf32>", "tensor<1xf32>",
       "%v = \"fuser.scalar\"() {value = 9.0 : f64} : () -> f64\n"
       "%r = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: -2, 0>} : (tensor<3xf32>, f64) -> tensor<1xf32>\n"
       "return %r : tensor<1xf32>",
       a, ((double[]){3}), 1);
  fuser_ref_tensor_free(x);
  DLTensor *y = iota_tensor(FUSER_DTYPE_F32, 2, s23);
  a = tensor_arg(y);
  /* pairs start from the last dim: (left, right) of dim 1, then of dim 0 */
  RUN1("%a: tensor<2x3xf32>", "tensor<3x4xf32>",
       "%v = \"fuser.scalar\"() {value = -1.0 : f64} : () -> f64\n"
       "%r = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: 0, 1, 1, 0>} : (tensor<2x3xf32>, f64) -> tensor<3x4xf32>\n"
       "return %r : tensor<3x4xf32>",
       a, ((double[]){-1, -1, -1, -1, 0, 1, 2, -1, 3, 4, 5, -1}), 12);
  RUN1("%a: tensor<2x3xf32>", "tensor<4x3xf32>",
       "%r = \"fuser.cat\"(%a, %a) {dim = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n"
       "return %r : tensor<4x3xf32>",
       a, ((double[]){0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}), 12);
  RUN1("%a: tensor<2x3xf32>", "tensor<2x5xf32>",
       "%s = \"fuser.slice\"(%a) {start_indices = array<i64: 0, 1>, end_indices = array<i64: 2, 3>, "
       "strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"
       "%r = \"fuser.cat\"(%a, %s) {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>\n"
       "return %r : tensor<2x5xf32>",
       a, ((double[]){0, 1, 2, 1, 2, 3, 4, 5, 4, 5}), 10);
  fuser_ref_tensor_free(y);
}

static void test_reductions(void) {
  int64_t s23[2] = {2, 3};
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 2, s23, (double[]){1, 5, -2, nan_, 0.5, 4});
  fuser_ref_value a = tensor_arg(x);
  RUN1("%a: tensor<2x3xf32>", "tensor<2xf32>",
       "%r = \"fuser.sum\"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>\n"
       "return %r : tensor<2xf32>",
       a, ((double[]){4, nan_}), 2);
  RUN1("%a: tensor<2x3xf32>", "tensor<1x3xf32>",
       "%r = \"fuser.max\"(%a) {dims = array<i64: 0>, keepdim = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>\n"
       "return %r : tensor<1x3xf32>",
       a, ((double[]){nan_, 5, 4}), 3);
  RUN1("%a: tensor<2x3xf32>", "tensor<3xf32>",
       "%r = \"fuser.min\"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<2x3xf32>) -> tensor<3xf32>\n"
       "return %r : tensor<3xf32>",
       a, ((double[]){nan_, 0.5, -2}), 3);
  RUN1("%a: tensor<2x3xf32>", "tensor<f32>",
       "%s = \"fuser.slice\"(%a) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 1, 3>, "
       "strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<1x3xf32>\n"
       "%r = \"fuser.prod\"(%s) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<1x3xf32>) -> tensor<f32>\n"
       "return %r : tensor<f32>",
       a, ((double[]){-10}), 1);
  fuser_ref_tensor_free(x);

  /* an f32 sum accumulates in double and rounds once: 2^24 + 1 + 1 is
   * 2^24 + 2 (in f32 in sequence each + 1 is a tie to even: 2^24); a bf16
   * input summed the same way; an i64 sum */
  int64_t three = 3;
  DLTensor *big = make_tensor(FUSER_DTYPE_F32, 1, &three, (double[]){16777216, 1, 1});
  RUN1("%a: tensor<3xf32>", "tensor<f32>",
       "%r = \"fuser.sum\"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<3xf32>) -> tensor<f32>\n"
       "return %r : tensor<f32>",
       tensor_arg(big), ((double[]){16777218}), 1);
  fuser_ref_tensor_free(big);
  DLTensor *h = make_tensor(FUSER_DTYPE_BF16, 1, &three, (double[]){256, 1, 1});
  /* a bf16 sum rounds once: 258; rounding to bf16 after each add would
   * give 256 (256 + 1 is a tie, to even) */
  RUN1("%a: tensor<3xbf16>", "tensor<bf16>",
       "%r = \"fuser.sum\"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<3xbf16>) -> tensor<bf16>\n"
       "return %r : tensor<bf16>",
       tensor_arg(h), ((double[]){258}), 1);
  fuser_ref_tensor_free(h);
  /* several reduced dims around a kept one: each output adds its elements in
   * row-major order of (dim 0, dim 2): 2^53 - 2^53 + 1 + 1 = 2 in double (in
   * (dim 2, dim 0) order 2^53 + 1 = 2^53, - 2^53 + 1 = 1) */
  DLTensor *o3 = make_tensor(FUSER_DTYPE_F32, 3, (int64_t[]){2, 2, 2},
                             (double[]){9007199254740992.0, -9007199254740992.0, 1, 1, 1, 1, 1, 1});
  RUN1("%a: tensor<2x2x2xf32>", "tensor<1x2x1xf32>",
       "%r = \"fuser.sum\"(%a) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<2x2x2xf32>) -> tensor<1x2x1xf32>\n"
       "return %r : tensor<1x2x1xf32>",
       tensor_arg(o3), ((double[]){2, 4}), 2);
  fuser_ref_tensor_free(o3);
  DLTensor *i = make_tensor(FUSER_DTYPE_I64, 1, &three, (double[]){-4, 9, 2});
  RUN1("%a: tensor<3xi64>", "tensor<i64>",
       "%r = \"fuser.max\"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<3xi64>) -> tensor<i64>\n"
       "return %r : tensor<i64>",
       tensor_arg(i), ((double[]){9}), 1);
  fuser_ref_tensor_free(i);

  /* var_mean with correction 1 and 0 */
  int64_t four = 4;
  DLTensor *v = make_tensor(FUSER_DTYPE_BF16, 1, &four, (double[]){1, 2, 3, 4});
  fuser_ref_value arg = tensor_arg(v);
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<4xbf16>", "tensor<f32>, tensor<f32>, tensor<1xf32>, tensor<1xf32>",
                          "%v, %m = \"fuser.var_mean\"(%a) {dims = array<i64: 0>, correction = 1 : i64, keepdim = false} : (tensor<4xbf16>) -> (tensor<f32>, tensor<f32>)\n"
                          "%v0, %m0 = \"fuser.var_mean\"(%a) {dims = array<i64: 0>, correction = 0 : i64, keepdim = true} : (tensor<4xbf16>) -> (tensor<1xf32>, tensor<1xf32>)\n"
                          "return %v, %m, %v0, %m0 : tensor<f32>, tensor<f32>, tensor<1xf32>, tensor<1xf32>",
                          &arg, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 4) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){0x1.aaaaaap+0}), 1, 0); /* 5/3 in f32 */
    CHECK_VALUES(out.values[1].tensor, ((double[]){2.5}), 1, 0);
    CHECK_VALUES(out.values[2].tensor, ((double[]){1.25}), 1, 0);
    CHECK_VALUES(out.values[3].tensor, ((double[]){2.5}), 1, 0);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(v);
}

/* fuser.view (the passes' strided view), fuser.size, fuser.stride */
static void test_strided_view(void) {
  float data[12];
  for (int i = 0; i < 12; i++) data[i] = (float)i;
  /* the input: a (3, 2) view at offset 1 with strides (4, 1) of 12 elements */
  DLTensor *x = fuser_ref_tensor_view(data, FUSER_DTYPE_F32, 2, (int64_t[]){3, 2}, (int64_t[]){4, 1}, 1);
  fuser_ref_value a = tensor_arg(x);
  /* static: the transpose-like (2, 2) view {offset 1, strides (1, 4)} */
  RUN1("%a: tensor<3x2xf32>", "tensor<2x2xf32>",
       "%v = \"fuser.view\"(%a) {static_offset = 1 : i64, static_strides = array<i64: 1, 4>} : (tensor<3x2xf32>) -> tensor<2x2xf32>\n"
       "return %v : tensor<2x2xf32>",
       a, ((double[]){2, 6, 3, 7}), 4);
  /* dynamic offset, size and stride from fuser.size / fuser.stride */
  RUN1("%a: tensor<?x?xf32>", "tensor<?xf32>",
       "%n = \"fuser.size\"(%a) {dim = 0 : i64} : (tensor<?x?xf32>) -> i64\n"
       "%s = \"fuser.stride\"(%a) {dim = 0 : i64} : (tensor<?x?xf32>) -> i64\n"
       "%o = \"fuser.stride\"(%a) {dim = 1 : i64} : (tensor<?x?xf32>) -> i64\n"
       "%v = \"fuser.view\"(%a, %o, %n, %s) {static_offset = -9223372036854775808 : i64, "
       "static_strides = array<i64: -9223372036854775808>} : (tensor<?x?xf32>, i64, i64, i64) -> tensor<?xf32>\n"
       "return %v : tensor<?xf32>",
       a, ((double[]){2, 6, 10}), 3);
  /* a view reaching outside its input's memory is an error */
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<3x2xf32>", "tensor<2x2xf32>",
                          "%v = \"fuser.view\"(%a) {static_offset = 8 : i64, static_strides = array<i64: 1, 4>} : (tensor<3x2xf32>) -> tensor<2x2xf32>\n"
                          "return %v : tensor<2x2xf32>",
                          &a, 1, false, &out, &err),
               FUSER_REF_ERR_SHAPE);
  CHECK(strstr(err.message, "view reaches elements [8, 13] outside its input's [0, 9]") != NULL);
  fuser_ref_tensor_free(x);
}

static void test_factories(void) {
  fuser_ref_value n = scalar_arg(FUSER_DTYPE_I64, 3);
  RUN1("%n: i64", "tensor<2x?xbf16>",
       "%v = \"fuser.scalar\"() {value = 1.00390625 : f64} : () -> f64\n"
       "%r = \"fuser.full\"(%v, %n) : (f64, i64) -> tensor<2x?xbf16>\nreturn %r : tensor<2x?xbf16>",
       n, ((double[]){1, 1, 1, 1, 1, 1}), 6); /* 1 + 2^-8 is a bf16 tie: rounds to 1 */
  RUN1("%n: i64", "tensor<?xf32>",
       "%a = \"fuser.scalar\"() {value = 1.0 : f64} : () -> f64\n"
       "%b = \"fuser.scalar\"() {value = 0.5 : f64} : () -> f64\n"
       "%r = \"fuser.iota\"(%n, %a, %b) : (i64, f64, f64) -> tensor<?xf32>\nreturn %r : tensor<?xf32>",
       n, ((double[]){1, 1.5, 2}), 3);
  RUN1("%n: i64", "tensor<?xi64>",
       "%a = \"fuser.scalar\"() {value = 10 : i64} : () -> i64\n"
       "%b = \"fuser.scalar\"() {value = -3 : i64} : () -> i64\n"
       "%r = \"fuser.iota\"(%n, %a, %b) : (i64, i64, i64) -> tensor<?xi64>\nreturn %r : tensor<?xi64>",
       n, ((double[]){10, 7, 4}), 3);
}

int main(void) {
  test_ctx = fuser_context_create();
  test_views();
  test_input_layouts();
  test_pad_cat();
  test_reductions();
  test_factories();
  test_strided_view();
  mlirContextDestroy(test_ctx);
  UNIT_MAIN_END();
}
