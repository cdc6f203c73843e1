/* Element-wise ops against hand-computed values: every unary, binary and
 * ternary op and cast, on f32 (NaN/Inf included), integers and bool;
 * f32 arithmetic really in f32; bf16 operands and rounding on store;
 * scalar operands and ops on scalars. */
#include "harness.h"

typedef struct {
  const char *op, *out; /* op mnemonic and result element type */
  double in[4], want[4];
  double ulps; /* 0: exact */
} unary_case;

static const double inf = INFINITY, nan_ = NAN;

static const unary_case unary_f32[] = {
    {"neg", "f32", {1, -2, 0, inf}, {-1, 2, -0.0, -inf}, 0},
    {"abs", "f32", {-1.5, 2, -0.0, -inf}, {1.5, 2, 0, inf}, 0},
    {"exp", "f32", {0, 1, -inf, nan_}, {1, 2.718281828459045, 0, nan_}, 1},
    {"exp2", "f32", {3, -1, 0, 0.5}, {8, 0.5, 1, 1.4142135623730951}, 1},
    {"expm1", "f32", {0, 1, -inf, inf}, {0, 1.718281828459045, -1, inf}, 1},
    {"log", "f32", {1, 0, -1, 2}, {0, -inf, nan_, 0.6931471805599453}, 1},
    {"log1p", "f32", {0, -1, 1, inf}, {0, -inf, 0.6931471805599453, inf}, 1},
    {"log2", "f32", {8, 1, 0.25, 0}, {3, 0, -2, -inf}, 0},
    {"sqrt", "f32", {4, 2.25, -1, 0}, {2, 1.5, nan_, 0}, 0},
    {"rsqrt", "f32", {4, 0.25, 0, inf}, {0.5, 2, inf, 0}, 0},
    {"reciprocal", "f32", {4, -0.5, 0, inf}, {0.25, -2, inf, 0}, 0},
    {"sin", "f32", {0, 1, inf, -0.0}, {0, 0.8414709848078965, nan_, -0.0}, 1},
    {"cos", "f32", {0, 1, inf, 3.14159265f}, {1, 0.5403023058681398, nan_, -1}, 1},
    {"tan", "f32", {0, 1, -1, nan_}, {0, 1.5574077246549023, -1.5574077246549023, nan_}, 1},
    {"tanh", "f32", {0, 1, inf, -inf}, {0, 0.7615941559557649, 1, -1}, 1},
    {"sigmoid", "f32", {0, 1, inf, -inf}, {0.5, 0x1.764d5p-1, 1, 0}, 0}, /* f32: 1/(1+expf(-1)) */
    {"erf", "f32", {0, 0.5, inf, -inf}, {0, 0.5204998778130465, 1, -1}, 1},
    {"silu", "f32", {0, 1, -inf, 2}, {0, 0x1.764d5p-1, nan_, 1.7615941559557649}, 1}, /* x * sigmoid(x), as nvFuser */
    {"relu", "f32", {-1, 2, nan_, -0.5}, {0, 2, nan_, 0}, 0},
    {"ceil", "f32", {1.5, -1.5, 2, -0.5}, {2, -1, 2, -0.0}, 0},
    {"floor", "f32", {1.5, -1.5, 2, -0.5}, {1, -2, 2, -1}, 0},
    {"round", "f32", {0.5, 1.5, 2.5, -0.5}, {0, 2, 2, -0.0}, 0}, /* half to even */
    {"trunc", "f32", {1.7, -1.7, inf, nan_}, {1, -1, inf, nan_}, 0},
    {"sign", "f32", {3, -2, 0, nan_}, {1, -1, 0, 0}, 0}, /* torch.sign(nan) == 0 */
    {"isnan", "i1", {nan_, 1, inf, -nan_}, {1, 0, 0, 1}, 0},
    {"isinf", "i1", {inf, -inf, 1, nan_}, {1, 1, 0, 0}, 0},
    {"logical_not", "i1", {0, 1, -2, nan_}, {1, 0, 0, 0}, 0},
};

static void check_unary(const char *in_elem, const unary_case *c) {
  char body[512], sig[64], ret[64];
  snprintf(sig, sizeof sig, "%%a: tensor<4x%s>", in_elem);
  snprintf(ret, sizeof ret, "tensor<4x%s>", c->out);
  snprintf(body, sizeof body, "%%r = \"fuser.%s\"(%%a) : (tensor<4x%s>) -> tensor<4x%s>\nreturn %%r : tensor<4x%s>",
           c->op, in_elem, c->out, c->out);
  int64_t four = 4;
  DLTensor *a = make_tensor(fuser_dtype_from_nvfuser_name("Float", 5), 1, &four, c->in);
  if (strcmp(in_elem, "f32") != 0) {
    fuser_ref_tensor_free(a);
    a = make_tensor(strcmp(in_elem, "i64") == 0 ? FUSER_DTYPE_I64 : FUSER_DTYPE_I1, 1, &four, c->in);
  }
  fuser_ref_value arg = tensor_arg(a);
  fuser_ref_outputs out;
  fuser_ref_error err;
  fprintf(stderr, "%s:\n", c->op);
  CHECK_EQ_INT(run_fusion(sig, ret, body, &arg, 1, false, &out, &err), FUSER_REF_OK);
  if (out.count == 1) CHECK_VALUES(out.values[0].tensor, c->want, 4, c->ulps);
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(a);
}

typedef struct {
  const char *op, *in, *out;
  double a[4], b[4], want[4];
  double ulps;
} binary_case;

static const binary_case binary[] = {
    {"add", "f32", "f32", {1, 0.1f, inf, inf}, {2, 0.2f, -inf, 1}, {3, 0x1.333334p-2, nan_, inf}, 0},
    {"sub", "f32", "f32", {1, 0, inf, -0.0}, {2, -0.0, inf, 0}, {-1, 0, nan_, -0.0}, 0},
    {"mul", "f32", "f32", {3, 1e30, 0, -2}, {0.5, 1e10, inf, 0.25}, {1.5, inf, nan_, -0.5}, 0},
    {"div", "f32", "f32", {1, 1, 0, -1}, {3, 0, 0, 0}, {0x1.555556p-2, inf, nan_, -inf}, 0},
    {"pow", "f32", "f32", {2, 4, 0, -8}, {10, 0.5, 0, 1.0 / 3}, {1024, 2, 1, nan_}, 0},
    {"fmod", "f32", "f32", {5.5, -5.5, 1, 7}, {2, 2, 0, -3}, {1.5, -1.5, nan_, 1}, 0},
    {"remainder", "f32", "f32", {-5.5, 5.5, 4, 7}, {2, -2, 2, -3}, {0.5, -0.5, 0, -2}, 0},
    {"maximum", "f32", "f32", {1, nan_, 3, -inf}, {2, 1, nan_, -1}, {2, nan_, nan_, -1}, 0},
    {"minimum", "f32", "f32", {1, nan_, 3, -inf}, {2, 1, nan_, -1}, {1, nan_, nan_, -inf}, 0},
    {"atan2", "f32", "f32", {0, 1, -1, 0}, {1, 0, 0, -1}, {0, 1.5707963267948966, -1.5707963267948966, 3.141592653589793}, 1},
    {"eq", "f32", "i1", {1, nan_, 0, inf}, {1, nan_, -0.0, inf}, {1, 0, 1, 1}, 0},
    {"ne", "f32", "i1", {1, nan_, 0, 2}, {1, nan_, -0.0, 3}, {0, 1, 0, 1}, 0},
    {"lt", "f32", "i1", {1, nan_, 2, -inf}, {2, 1, 2, 0}, {1, 0, 0, 1}, 0},
    {"le", "f32", "i1", {1, nan_, 2, 3}, {2, 1, 2, 0}, {1, 0, 1, 0}, 0},
    {"gt", "f32", "i1", {1, nan_, 2, inf}, {2, 1, 2, 0}, {0, 0, 0, 1}, 0},
    {"ge", "f32", "i1", {1, nan_, 2, 3}, {2, 1, 2, 0}, {0, 0, 1, 1}, 0},
    {"logical_and", "f32", "i1", {1, 0, 2, nan_}, {1, 1, 0, 1}, {1, 0, 0, 1}, 0},
    {"logical_or", "f32", "i1", {1, 0, 0, nan_}, {0, 0, -0.0, 0}, {1, 0, 0, 1}, 0},
    /* integers: wrap-around, truncating division, Python-style remainder */
    {"add", "i64", "i64", {9223372036854775807.0, -3, 0, 5}, {1, 4, 0, -5}, {-9223372036854775808.0, 1, 0, 0}, 0},
    {"sub", "i64", "i64", {-3, 0, 10, 7}, {4, 5, -10, 7}, {-7, -5, 20, 0}, 0},
    {"mul", "i64", "i64", {-3, 4611686018427387904.0, 7, 0}, {4, 4, -6, 9}, {-12, 0, -42, 0}, 0},
    {"div", "i64", "i64", {-7, 7, 7, 9}, {2, 2, -2, 0}, {-3, 3, -3, 0}, 0},
    {"fmod", "i64", "i64", {-7, 7, 7, 5}, {2, 2, -2, 0}, {-1, 1, 1, 0}, 0},
    {"remainder", "i64", "i64", {-7, 7, 7, -8}, {2, 2, -2, 3}, {1, 1, -1, 1}, 0},
    {"pow", "i64", "i64", {3, 2, -2, 5}, {4, 10, 3, 0}, {81, 1024, -8, 1}, 0},
    {"maximum", "i64", "i64", {1, -5, 3, 0}, {2, -6, 3, -1}, {2, -5, 3, 0}, 0},
    {"minimum", "i64", "i64", {1, -5, 3, 0}, {2, -6, 3, -1}, {1, -6, 3, -1}, 0},
    {"bitwise_and", "i64", "i64", {12, -1, 0, 7}, {10, 5, 3, 7}, {8, 5, 0, 7}, 0},
    {"bitwise_or", "i64", "i64", {12, -1, 0, 7}, {10, 5, 3, 7}, {14, -1, 3, 7}, 0},
    {"bitwise_xor", "i64", "i64", {12, -1, 0, 7}, {10, 5, 3, 7}, {6, -6, 3, 0}, 0},
    {"lt", "i64", "i1", {1, -5, 3, 0}, {2, -6, 3, -1}, {1, 0, 0, 0}, 0},
    /* bool */
    {"bitwise_and", "i1", "i1", {1, 1, 0, 0}, {1, 0, 1, 0}, {1, 0, 0, 0}, 0},
    {"bitwise_xor", "i1", "i1", {1, 1, 0, 0}, {1, 0, 1, 0}, {0, 1, 1, 0}, 0},
    {"logical_or", "i1", "i1", {1, 1, 0, 0}, {1, 0, 1, 0}, {1, 1, 1, 0}, 0},
};

static fuser_dtype elem_dtype(const char *e) {
  if (!strcmp(e, "f32")) return FUSER_DTYPE_F32;
  if (!strcmp(e, "bf16")) return FUSER_DTYPE_BF16;
  if (!strcmp(e, "f16")) return FUSER_DTYPE_F16;
  if (!strcmp(e, "f64")) return FUSER_DTYPE_F64;
  if (!strcmp(e, "i32")) return FUSER_DTYPE_I32;
  if (!strcmp(e, "i64")) return FUSER_DTYPE_I64;
  return FUSER_DTYPE_I1;
}

static void check_binary(const binary_case *c) {
  char body[512], sig[128], ret[64];
  snprintf(sig, sizeof sig, "%%a: tensor<4x%s>, %%b: tensor<4x%s>", c->in, c->in);
  snprintf(ret, sizeof ret, "tensor<4x%s>", c->out);
  snprintf(body, sizeof body,
           "%%r = \"fuser.%s\"(%%a, %%b) : (tensor<4x%s>, tensor<4x%s>) -> tensor<4x%s>\nreturn %%r : tensor<4x%s>",
           c->op, c->in, c->in, c->out, c->out);
  int64_t four = 4;
  DLTensor *a = make_tensor(elem_dtype(c->in), 1, &four, c->a), *b = make_tensor(elem_dtype(c->in), 1, &four, c->b);
  fuser_ref_value args[2] = {tensor_arg(a), tensor_arg(b)};
  fuser_ref_outputs out;
  fuser_ref_error err;
  fprintf(stderr, "%s on %s:\n", c->op, c->in);
  CHECK_EQ_INT(run_fusion(sig, ret, body, args, 2, false, &out, &err), FUSER_REF_OK);
  if (out.count == 1) CHECK_VALUES(out.values[0].tensor, c->want, 4, c->ulps);
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(a);
  fuser_ref_tensor_free(b);
}

static void test_integer_unary(void) {
  static const unary_case cases[] = {
      {"neg", "i64", {1, -2, 0, -9223372036854775808.0}, {-1, 2, 0, -9223372036854775808.0}, 0},
      {"abs", "i64", {-3, 4, 0, -1}, {3, 4, 0, 1}, 0},
      {"bitwise_not", "i64", {0, -1, 5, 1}, {-1, 0, -6, -2}, 0},
      {"relu", "i64", {-3, 4, 0, -1}, {0, 4, 0, 0}, 0},
      {"sign", "i64", {-3, 4, 0, -1}, {-1, 1, 0, -1}, 0},
      {"isnan", "i1", {-3, 4, 0, -1}, {0, 0, 0, 0}, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_unary("i64", &cases[i]);
  /* bitwise_not on bool is logical not */
  unary_case b = {"bitwise_not", "i1", {1, 0, 1, 0}, {0, 1, 0, 1}, 0};
  check_unary("i1", &b);
}

/* i32 results wrap at 32 bits */
static void test_i32_wraps(void) {
  int64_t two = 2;
  DLTensor *a = make_tensor(FUSER_DTYPE_I32, 1, &two, (double[]){2147483647, -2147483648.0});
  DLTensor *b = make_tensor(FUSER_DTYPE_I32, 1, &two, (double[]){1, -1});
  fuser_ref_value args[2] = {tensor_arg(a), tensor_arg(b)};
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<2xi32>, %b: tensor<2xi32>", "tensor<2xi32>",
                          "%r = \"fuser.add\"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>\n"
                          "return %r : tensor<2xi32>",
                          args, 2, false, &out, &err),
               FUSER_REF_OK);
  if (out.count) CHECK_VALUES(out.values[0].tensor, ((double[]){-2147483648.0, 2147483647}), 2, 0);
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(a);
  fuser_ref_tensor_free(b);
}

static void test_ternary(void) {
  int64_t four = 4;
  DLTensor *c = make_tensor(FUSER_DTYPE_I1, 1, &four, (double[]){1, 0, 1, 0});
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 1, &four, (double[]){5, -5, 0.5, nan_});
  DLTensor *y = make_tensor(FUSER_DTYPE_F32, 1, &four, (double[]){0, 10, 0.25, 0.75});
  DLTensor *z = make_tensor(FUSER_DTYPE_F32, 1, &four, (double[]){1, 20, nan_, 1});
  fuser_ref_value args[4] = {tensor_arg(c), tensor_arg(x), tensor_arg(y), tensor_arg(z)};
  fuser_ref_outputs out;
  fuser_ref_error err;
  const char *sig = "%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>";
  CHECK_EQ_INT(run_fusion(sig, "tensor<4xf32>, tensor<4xf32>, tensor<4xf32>",
                          "%w = \"fuser.where\"(%c, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                          "%k = \"fuser.clamp\"(%x, %y, %z) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                          "%l = \"fuser.lerp\"(%y, %z, %y) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                          "return %w, %k, %l : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>",
                          args, 4, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 3) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){5, 10, 0.5, 0.75}), 4, 0);
    /* clamp(x, lo, hi) = fmin(fmax(x, lo), hi): a NaN x or bound gives NaN */
    CHECK_VALUES(out.values[1].tensor, ((double[]){1, 10, nan_, nan_}), 4, 0);
    /* lerp(start=y, end=z, weight=y): w < 0.5 ? s + w(e-s) : e - (e-s)(1-w) */
    CHECK_VALUES(out.values[2].tensor, ((double[]){0, 110, nan_, 0.9375}), 4, 0);
  }
  fuser_ref_outputs_free(&out);
  DLTensor *all[] = {c, x, y, z};
  for (int i = 0; i < 4; i++) fuser_ref_tensor_free(all[i]);
}

/* bf16 values: computed in f32, rounded to nearest even when stored */
static void test_bf16_store_rounding(void) {
  int64_t four = 4;
  /* 1+2^-8 and 1+3*2^-8 are exact in f32, halfway between bf16 neighbours */
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 1, &four,
                            (double[]){1 + 0x1p-8, 1 + 3 * 0x1p-8, -(1 + 3 * 0x1p-8), 1 + 0x1p-8 + 0x1p-20});
  fuser_ref_value arg = tensor_arg(a);
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<4xf32>", "tensor<4xbf16>",
                          "%r = \"fuser.cast\"(%a) : (tensor<4xf32>) -> tensor<4xbf16>\nreturn %r : tensor<4xbf16>",
                          &arg, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 1) {
    const uint16_t *bits = (const uint16_t *)out.values[0].tensor->data;
    CHECK_EQ_INT(bits[0], 0x3F80);
    CHECK_EQ_INT(bits[1], 0x3F82);
    CHECK_EQ_INT(bits[2], 0xBF82);
    CHECK_EQ_INT(bits[3], 0x3F81);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(a);

  /* add(bf16, bf16) returns f32 (nvFuser's promotion), exact here */
  DLTensor *x = make_tensor(FUSER_DTYPE_BF16, 1, &four, (double[]){1, 0x1p-8, 256, -3});
  DLTensor *y = make_tensor(FUSER_DTYPE_BF16, 1, &four, (double[]){0x1p-8, 0x1p-8, 1, 0.5});
  fuser_ref_value args[2] = {tensor_arg(x), tensor_arg(y)};
  CHECK_EQ_INT(run_fusion("%x: tensor<4xbf16>, %y: tensor<4xbf16>", "tensor<4xf32>, tensor<4xbf16>",
                          "%s = \"fuser.add\"(%x, %y) : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xf32>\n"
                          "%c = \"fuser.cast\"(%s) : (tensor<4xf32>) -> tensor<4xbf16>\n"
                          "return %s, %c : tensor<4xf32>, tensor<4xbf16>",
                          args, 2, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 2) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){1 + 0x1p-8, 0x1p-7, 257, -2.5}), 4, 0);
    /* 1+2^-8: tie -> 1; 257: tie between 256 and 258 -> 256 (even) */
    CHECK_VALUES(out.values[1].tensor, ((double[]){1, 0x1p-7, 256, -2.5}), 4, 0);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(x);
  fuser_ref_tensor_free(y);
}

static void test_casts(void) {
  int64_t four = 4;
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 1, &four, (double[]){2.7, -2.7, nan_, 1e20});
  fuser_ref_value arg = tensor_arg(a);
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<4xf32>", "tensor<4xi32>, tensor<4xi1>, tensor<4xf16>",
                          "%i = \"fuser.cast\"(%a) : (tensor<4xf32>) -> tensor<4xi32>\n"
                          "%b = \"fuser.cast\"(%a) : (tensor<4xf32>) -> tensor<4xi1>\n"
                          "%h = \"fuser.cast\"(%a) : (tensor<4xf32>) -> tensor<4xf16>\n"
                          "return %i, %b, %h : tensor<4xi32>, tensor<4xi1>, tensor<4xf16>",
                          &arg, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 3) {
    /* truncation; NaN -> 0 and saturation, as the GPU's cvt.rzi */
    CHECK_VALUES(out.values[0].tensor, ((double[]){2, -2, 0, 2147483647}), 4, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){1, 1, 1, 1}), 4, 0);
    CHECK_VALUES(out.values[2].tensor, ((double[]){2.69921875, -2.69921875, nan_, inf}), 4, 0);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(a);

  DLTensor *i = make_tensor(FUSER_DTYPE_I64, 1, &four, (double[]){16777217, -1, 0, 3});
  arg = tensor_arg(i);
  CHECK_EQ_INT(run_fusion("%a: tensor<4xi64>", "tensor<4xf32>, tensor<4xbf16>",
                          "%f = \"fuser.cast\"(%a) : (tensor<4xi64>) -> tensor<4xf32>\n"
                          "%h = \"fuser.cast\"(%a) : (tensor<4xi64>) -> tensor<4xbf16>\n"
                          "return %f, %h : tensor<4xf32>, tensor<4xbf16>",
                          &arg, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 2) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){16777216, -1, 0, 3}), 4, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){16777216, -1, 0, 3}), 4, 0);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(i);
}

/* A double scalar is cast to the f32 compute dtype first (9 * 0.1f in f32
 * is 0x1.cccccep-1; 9 * 0.1 in double, rounded, would be 0x1.ccccccp-1). */
static void test_scalar_operands(void) {
  int64_t one = 1;
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 1, &one, (double[]){9});
  fuser_ref_value args[2] = {tensor_arg(a), scalar_arg(FUSER_DTYPE_I64, 5)};
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<1xf32>, %n: i64", "tensor<1xf32>, i64, f64, i1",
                          "%s = \"fuser.scalar\"() {value = 0.1 : f64} : () -> f64\n"
                          "%m = \"fuser.mul\"(%a, %s) : (tensor<1xf32>, f64) -> tensor<1xf32>\n"
                          "%k = \"fuser.scalar\"() {value = 3 : i64} : () -> i64\n"
                          "%p = \"fuser.mul\"(%n, %k) : (i64, i64) -> i64\n"
                          "%d = \"fuser.mul\"(%s, %s) : (f64, f64) -> f64\n"
                          "%c = \"fuser.lt\"(%k, %n) : (i64, i64) -> i1\n"
                          "return %m, %p, %d, %c : tensor<1xf32>, i64, f64, i1",
                          args, 2, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 4) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){0x1.cccccep-1}), 1, 0);
    CHECK(!out.values[1].is_tensor && out.values[1].i == 15);
    CHECK(out.values[2].f == 0.1 * 0.1); /* scalars of f64 compute in double */
    CHECK(out.values[3].i == 1);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(a);
}

int main(void) {
  test_ctx = fuser_context_create();
  for (size_t i = 0; i < sizeof unary_f32 / sizeof *unary_f32; i++) check_unary("f32", &unary_f32[i]);
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++) check_binary(&binary[i]);
  test_integer_unary();
  test_i32_wraps();
  test_ternary();
  test_bf16_store_rounding();
  test_casts();
  test_scalar_operands();
  mlirContextDestroy(test_ctx);
  UNIT_MAIN_END();
}
