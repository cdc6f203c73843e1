/* The evaluator as a whole: argument checking and every error it reports,
 * unknown ops, float64 mode, output layouts, inputs from `fuser.inputs`
 * (determinism, factories, views) and checksums. */
#include "harness.h"

static const char *ADD_F32 =
    "%r = \"fuser.add\"(%a, %b) : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>\nreturn %r : tensor<2x?xf32>";

static void expect_error(fuser_ref_status got, fuser_ref_status want, const fuser_ref_error *err, const char *needle) {
  CHECK_EQ_INT(got, want);
  bool has = strstr(err->message, needle) != NULL;
  if (!has) fprintf(stderr, "  message '%s' lacks '%s'\n", err->message, needle);
  CHECK(has);
}

static void test_argument_errors(void) {
  int64_t s23[2] = {2, 3}, s33[2] = {3, 3}, s6 = 6;
  double v[9] = {0};
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 2, s23, v), *wrong_dt = make_tensor(FUSER_DTYPE_BF16, 2, s23, v);
  DLTensor *wrong_size = make_tensor(FUSER_DTYPE_F32, 2, s33, v), *wrong_rank = make_tensor(FUSER_DTYPE_F32, 1, &s6, v);
  DLTensor *other = make_tensor(FUSER_DTYPE_F32, 2, (int64_t[]){2, 4}, v);
  const char *sig = "%a: tensor<2x?xf32>, %b: tensor<2x?xf32>";
  fuser_ref_outputs out;
  fuser_ref_error err;
  fuser_ref_value args[2] = {tensor_arg(a), tensor_arg(wrong_dt)};
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "argument #1: dtype bf16, the function expects f32");
  args[1] = tensor_arg(wrong_size);
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "argument #1: dim 0 has extent 3, the function expects 2");
  args[1] = tensor_arg(wrong_rank);
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "argument #1: rank 1, the function expects 2");
  args[1] = scalar_arg(FUSER_DTYPE_F64, 1);
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "argument #1: expected a tensor, got a scalar");
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 1, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "the fusion takes 2 arguments, 1 given");
  /* `?` extents that disagree at run time */
  args[1] = tensor_arg(other);
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_SHAPE, &err,
               "operand #1 has extent 4 in dim 1 where 3 is expected");
  CHECK(!mlirLocationIsNull(err.loc)); /* an op's failure names the op's location */
  /* a scalar argument of the wrong kind */
  fuser_ref_value s[1] = {scalar_arg(FUSER_DTYPE_F64, 1)};
  expect_error(run_fusion("%n: i64", "i64", "return %n : i64", s, 1, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "argument #0: a f64 scalar, the function expects i64");
  s[0] = tensor_arg(a);
  expect_error(run_fusion("%n: i64", "i64", "return %n : i64", s, 1, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "argument #0: expected a scalar, got a tensor");
  /* a DLTensor the evaluator cannot read */
  DLTensor bad = *a;
  bad.byte_offset = 2;
  args[0] = tensor_arg(a);
  args[1] = (fuser_ref_value){.is_tensor = true, .tensor = &bad};
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "byte_offset 2 is not a multiple of the element size 4");
  bad = *a;
  bad.dtype = (DLDataType){kDLUInt, 16, 1};
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "DLTensor dtype (code 1, 16 bits, 1 lanes) is not supported");
  bad = *a;
  bad.device.device_type = kDLCUDA;
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "not in host memory");
  DLTensor *all[] = {a, wrong_dt, wrong_size, wrong_rank, other};
  for (int i = 0; i < 5; i++) fuser_ref_tensor_free(all[i]);
}

static void test_fusion_errors(void) {
  fuser_ref_outputs out;
  fuser_ref_error err;
  fuser_ref_value n = scalar_arg(FUSER_DTYPE_I64, 2);
  /* an op the evaluator does not know: an error, never an abort */
  expect_error(run_fusion("%n: i64", "i64", "%c = arith.constant 1 : i64\nreturn %c : i64", &n, 1, false, &out, &err),
               FUSER_REF_ERR_UNSUPPORTED, &err, "does not know the op 'arith.constant'");
  CHECK(!mlirLocationIsNull(err.loc));
  /* not a fusion */
  expect_error(run_text("func.func @f(%n: i64) -> i64 {\nreturn %n : i64\n}", &n, 1, false, &out, &err),
               FUSER_REF_ERR_FUSION, &err, "not a fusion");
  expect_error(fuser_ref_run((MlirOperation){NULL}, &n, 1, NULL, &out, &err), FUSER_REF_ERR_FUSION, &err, "not a fusion");
  /* shapes that only fail at run time */
  int64_t s4 = 4;
  double v[4] = {1, 2, 3, 4};
  DLTensor *t = make_tensor(FUSER_DTYPE_F32, 1, &s4, v);
  fuser_ref_value a = tensor_arg(t);
  expect_error(run_fusion("%a: tensor<?xf32>", "tensor<3xf32>",
                          "%k = \"fuser.scalar\"() {value = 3 : i64} : () -> i64\n"
                          "%r = \"fuser.reshape\"(%a) : (tensor<?xf32>) -> tensor<3xf32>\nreturn %r : tensor<3xf32>",
                          &a, 1, false, &out, &err),
               FUSER_REF_ERR_SHAPE, &err, "reshape of 4 elements into 3");
  expect_error(run_fusion("%a: tensor<?xf32>", "tensor<?xf32>",
                          "%k = \"fuser.scalar\"() {value = 3 : i64} : () -> i64\n"
                          "%r = \"fuser.expand\"(%a, %k) : (tensor<?xf32>, i64) -> tensor<?xf32>\nreturn %r : tensor<?xf32>",
                          &a, 1, false, &out, &err),
               FUSER_REF_ERR_SHAPE, &err, "expand of dim 0: extent 4 is not 1 and cannot become 3");
  expect_error(run_fusion("%a: tensor<?xf32>", "tensor<5xf32>",
                          "%r = \"fuser.slice\"(%a) {start_indices = array<i64: 0>, end_indices = array<i64: 5>, "
                          "strides = array<i64: 1>} : (tensor<?xf32>) -> tensor<5xf32>\nreturn %r : tensor<5xf32>",
                          &a, 1, false, &out, &err),
               FUSER_REF_ERR_SHAPE, &err, "result dim 0 has extent 4 at run time but the type says 5");
  fuser_ref_tensor_free(t);
}

/* float64 mode: every op in double, casts round to their dtype, float
 * outputs come back as f64. */
static void test_f64_mode(void) {
  int64_t three = 3;
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 1, &three, (double[]){16777216, 1, 1});
  fuser_ref_value a = tensor_arg(x);
  const char *body =
      "%s = \"fuser.sum\"(%a) {dims = array<i64: 0>, keepdim = false} : (tensor<3xf32>) -> tensor<f32>\n"
      "%t = \"fuser.scalar\"() {value = 0.1 : f64} : () -> f64\n"
      "%m = \"fuser.mul\"(%a, %t) : (tensor<3xf32>, f64) -> tensor<3xf32>\n"
      "%c = \"fuser.cast\"(%m) : (tensor<3xf32>) -> tensor<3xbf16>\n"
      "return %s, %m, %c : tensor<f32>, tensor<3xf32>, tensor<3xbf16>";
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<3xf32>", "tensor<f32>, tensor<3xf32>, tensor<3xbf16>", body, &a, 1, true, &out, &err),
               FUSER_REF_OK);
  if (out.count == 3) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){16777218}), 1, 0); /* in f32: 16777216 */
    CHECK_VALUES(out.values[1].tensor, ((double[]){1677721.6, 0.1, 0.1}), 3, 0);
    /* the cast rounds to bf16 precision, held in f64 */
    CHECK_VALUES(out.values[2].tensor, ((double[]){1679360, 0x1.9ap-4, 0x1.9ap-4}), 3, 0);
    for (int i = 0; i < 3; i++) CHECK_EQ_INT(out.values[i].dtype, FUSER_DTYPE_F64);
    CHECK_EQ_INT(out.values[2].tensor->dtype.bits, 64);
  }
  fuser_ref_outputs_free(&out);
  CHECK_EQ_INT(run_fusion("%a: tensor<3xf32>", "tensor<f32>, tensor<3xf32>, tensor<3xbf16>", body, &a, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 3) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){16777216}), 1, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){1677721.625, 0x1.99999ap-4, 0x1.99999ap-4}), 3, 0);
    CHECK_EQ_INT(out.values[2].tensor->dtype.bits, 16);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(x);

  /* factories and pad values take their dtype's precision in float64 mode
   * too (1 + 2^-8 is a bf16 tie: 1), the arithmetic on them does not */
  fuser_ref_value none[1];
  CHECK_EQ_INT(run_fusion("", "tensor<2xbf16>, tensor<2xf32>, tensor<4xbf16>",
                          "%v = \"fuser.scalar\"() {value = 1.00390625 : f64} : () -> f64\n"
                          "%f = \"fuser.full\"(%v) : (f64) -> tensor<2xbf16>\n"
                          "%c = \"fuser.cast\"(%f) : (tensor<2xbf16>) -> tensor<2xf32>\n"
                          "%a = \"fuser.add\"(%c, %v) : (tensor<2xf32>, f64) -> tensor<2xf32>\n"
                          "%p = \"fuser.pad\"(%f, %v) {pad_widths = array<i64: 1, 1>} : (tensor<2xbf16>, f64) -> tensor<4xbf16>\n"
                          "return %f, %a, %p : tensor<2xbf16>, tensor<2xf32>, tensor<4xbf16>",
                          none, 0, true, &out, &err),
               FUSER_REF_OK);
  if (out.count == 3) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){1, 1}), 2, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){2.00390625, 2.00390625}), 2, 0);
    CHECK_VALUES(out.values[2].tensor, ((double[]){1, 1, 1, 1}), 4, 0);
  }
  fuser_ref_outputs_free(&out);
}

/* A result's fuser.stride_order picks its allocation order. */
static void test_output_stride_order(void) {
  int64_t s23[2] = {2, 3};
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 2, s23, (double[]){0, 1, 2, 3, 4, 5});
  fuser_ref_value a = tensor_arg(x);
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<2x3xf32>", "tensor<2x3xf32> {fuser.stride_order = array<i64: 0, 1>}",
                          "%r = \"fuser.neg\"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>\nreturn %r : tensor<2x3xf32>",
                          &a, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 1) {
    DLTensor *t = out.values[0].tensor;
    CHECK_EQ_INT(t->strides[0], 1);
    CHECK_EQ_INT(t->strides[1], 2);
    CHECK_VALUES(t, ((double[]){-0.0, -1, -2, -3, -4, -5}), 6, 0);
    CHECK(((float *)t->data)[1] == -3.0f); /* column-major storage */
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(x);
}

static const char *INPUTS_FUSION =
    "func.func @f(%a: tensor<2x3xbf16>, %b: tensor<4xf32>, %c: tensor<2x2xf32>, %d: tensor<3xi64>, %e: tensor<2xf16>,\n"
    "             %n: i64, %z: tensor<0x4xbf16>)\n"
    "    -> (tensor<2x3xbf16>, tensor<4xf32>, tensor<2x2xf32>, tensor<3xi64>, tensor<2xf16>, i64, tensor<0x4xbf16>)\n"
    "    attributes {fuser.fusion, fuser.inputs = [\n"
    "  {factory = \"randn\", dtype = bf16, shape = array<i64: 10>, sizes = array<i64: 2, 3>, strides = array<i64: 1, 2>, offset = 3 : i64},\n"
    "  {factory = \"rand\", dtype = f32, shape = array<i64: 4>, sizes = array<i64: 4>, strides = array<i64: 1>, offset = 0 : i64},\n"
    "  {factory = \"full\", dtype = f32, shape = array<i64: 2, 2>, sizes = array<i64: 2, 2>, strides = array<i64: 2, 1>, offset = 0 : i64, fill_value = 1.5 : f64},\n"
    "  {factory = \"arange\", dtype = i64, shape = array<i64: 3>, start = 2.0 : f64, end = 8.0 : f64, step = 2.0 : f64},\n"
    "  {factory = \"ones\", dtype = f16, shape = array<i64: 2>},\n"
    "  {value = 7 : i64},\n"
    "  {factory = \"empty\", dtype = bf16, shape = array<i64: 0>, sizes = array<i64: 0, 4>, strides = array<i64: 4, 1>, offset = 0 : i64}]} {\n"
    "  return %a, %b, %c, %d, %e, %n, %z : tensor<2x3xbf16>, tensor<4xf32>, tensor<2x2xf32>, tensor<3xi64>, tensor<2xf16>, i64, tensor<0x4xbf16>\n"
    "}\n";

static void test_make_inputs(void) {
  MlirModule m = mlirModuleCreateParse(test_ctx, mlirStringRefCreateFromCString(INPUTS_FUSION));
  CHECK(!mlirModuleIsNull(m));
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  fuser_ref_inputs in1, in2, in3;
  fuser_ref_error err;
  CHECK_EQ_INT(fuser_ref_make_inputs(func, 42, &in1, &err), FUSER_REF_OK);
  CHECK_EQ_INT(fuser_ref_make_inputs(func, 42, &in2, &err), FUSER_REF_OK);
  CHECK_EQ_INT(fuser_ref_make_inputs(func, 43, &in3, &err), FUSER_REF_OK);
  CHECK_EQ_INT(in1.count, 7);
  /* same seed, same storage; another seed, other values */
  CHECK(memcmp(in1.storages[0], in2.storages[0], 20) == 0);
  CHECK(memcmp(in1.storages[0], in3.storages[0], 20) != 0);
  CHECK(memcmp(in1.storages[1], in2.storages[1], 16) == 0);
  /* the randn view: sizes (2, 3), strides (1, 2), offset 3 over 10 elements */
  DLTensor *a = in1.values[0].tensor;
  CHECK_EQ_INT(a->byte_offset, 6);
  CHECK_EQ_INT(a->strides[1], 2);
  const uint16_t *st = in1.storages[0];
  CHECK(fuser_ref_tensor_get(a, 1) == fuser_bf16_to_f32(st[5])); /* element (0, 1) = storage[3 + 2] */
  CHECK(fuser_ref_tensor_get(a, 3) == fuser_bf16_to_f32(st[4])); /* element (1, 0) = storage[3 + 1] */
  /* randn: a plausible standard normal over many values (mean ~0, var ~1) */
  enum { N = 20000 };
  float *many = malloc(sizeof(float) * N);
  CHECK_EQ_INT(fuser_ref_fill_random("randn", FUSER_DTYPE_F32, 1, 0, many, N, &err), FUSER_REF_OK);
  double sum = 0, sq = 0;
  for (int i = 0; i < N; i++) sum += many[i], sq += (double)many[i] * many[i];
  CHECK(fabs(sum / N) < 0.05 && fabs(sq / N - 1) < 0.05);
  CHECK_EQ_INT(fuser_ref_fill_random("rand", FUSER_DTYPE_BF16, 1, 0, many, N / 2, &err), FUSER_REF_OK);
  bool in_range = true;
  for (int i = 0; i < N / 2; i++) {
    float f = fuser_bf16_to_f32(((uint16_t *)many)[i]);
    in_range &= f >= 0 && f < 1;
  }
  CHECK(in_range); /* rand stays in [0, 1) after rounding to bf16 */
  CHECK_EQ_INT(fuser_ref_fill_random("randn", FUSER_DTYPE_I64, 1, 0, many, 4, &err), FUSER_REF_ERR_INPUTS_ATTR);
  free(many);
  double r0 = fuser_ref_tensor_get(in1.values[1].tensor, 0);
  CHECK(r0 >= 0 && r0 < 1);
  /* exact factories */
  CHECK_VALUES(in1.values[2].tensor, ((double[]){1.5, 1.5, 1.5, 1.5}), 4, 0);
  CHECK_VALUES(in1.values[3].tensor, ((double[]){2, 4, 6}), 3, 0);
  CHECK_VALUES(in1.values[4].tensor, ((double[]){1, 1}), 2, 0);
  CHECK(!in1.values[5].is_tensor && in1.values[5].i == 7 && in1.values[5].dtype == FUSER_DTYPE_I64);
  CHECK_EQ_INT(fuser_ref_tensor_numel(in1.values[6].tensor), 0);
  /* and the fusion runs on them */
  fuser_ref_outputs out;
  CHECK_EQ_INT(fuser_ref_run(func, in1.values, in1.count, NULL, &out, &err), FUSER_REF_OK);
  if (out.count == 7) {
    CHECK_EQ_INT(fuser_ref_checksum_fnv1a(out.values[0].tensor), fuser_ref_checksum_fnv1a(a));
    CHECK(fuser_ref_checksum_sum(out.values[2].tensor) == 6.0);
    CHECK(out.values[5].i == 7);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_inputs_free(&in1);
  fuser_ref_inputs_free(&in2);
  fuser_ref_inputs_free(&in3);
  mlirModuleDestroy(m);
}

static void expect_inputs_error(const char *entry, const char *needle) {
  char text[2048];
  snprintf(text, sizeof text,
           "func.func @f(%%a: tensor<2xf32>) -> tensor<2xf32> attributes {fuser.fusion, fuser.inputs = [%s]} {\n"
           "  return %%a : tensor<2xf32>\n}\n",
           entry);
  MlirModule m = mlirModuleCreateParse(test_ctx, mlirStringRefCreateFromCString(text));
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) return;
  fuser_ref_inputs in;
  fuser_ref_error err;
  fuser_ref_status st = fuser_ref_make_inputs(mlirBlockGetFirstOperation(mlirModuleGetBody(m)), 0, &in, &err);
  CHECK(st != FUSER_REF_OK);
  bool has = strstr(err.message, needle) != NULL;
  if (!has) fprintf(stderr, "  message '%s' lacks '%s'\n", err.message, needle);
  CHECK(has);
  mlirModuleDestroy(m);
}

static void test_inputs_errors(void) {
  expect_inputs_error("{factory = \"randn\", dtype = f32, shape = array<i64: 4>, sizes = array<i64: 2>, "
                      "strides = array<i64: 1>, offset = 3 : i64}",
                      "reaches elements [3, 4] outside the storage of 4");
  expect_inputs_error("{factory = \"randint\", dtype = f32, shape = array<i64: 2>}", "unknown factory 'randint'");
  expect_inputs_error("{factory = \"randn\", dtype = i64, shape = array<i64: 2>}", "torch.randn needs a floating dtype");
  expect_inputs_error("{factory = 3, dtype = f32, shape = array<i64: 2>}", "'factory' must be a string");
  expect_inputs_error("{factory = \"ones\", dtype = f32}", "'shape' must be an array<i64>");
  expect_inputs_error("{factory = \"full\", dtype = f32, shape = array<i64: 2>}", "full needs a numeric 'fill_value'");
  expect_inputs_error("{factory = \"ones\", shape = array<i64: 2>}", "'dtype' must be a type");
  expect_inputs_error("{factory = \"ones\", dtype = f32, shape = array<i64: 2>, sizes = array<i64: 2>}",
                      "'sizes' and 'strides' must be array<i64>s of one length");
  expect_inputs_error("{size = 2}", "has neither 'factory' nor 'value'");
  expect_inputs_error("3", "is not a dictionary");
  expect_inputs_error("{value = \"x\"}", "a scalar needs an integer, float or bool 'value'");
  /* no attribute at all */
  MlirModule m = mlirModuleCreateParse(
      test_ctx, mlirStringRefCreateFromCString("func.func @f() attributes {fuser.fusion} {\n  return\n}\n"));
  fuser_ref_inputs in;
  fuser_ref_error err;
  CHECK_EQ_INT(fuser_ref_make_inputs(mlirBlockGetFirstOperation(mlirModuleGetBody(m)), 0, &in, &err),
               FUSER_REF_ERR_INPUTS_ATTR);
  CHECK(strstr(err.message, "no fuser.inputs") != NULL);
  mlirModuleDestroy(m);
}

static void test_checksums(void) {
  /* FNV-1a over the bytes 00 00 80 3f (1.0f), worked by hand from the
   * offset basis 0xcbf29ce484222325 and prime 0x100000001b3 */
  uint64_t h = 0xcbf29ce484222325ULL;
  const unsigned char bytes[4] = {0x00, 0x00, 0x80, 0x3f};
  for (int i = 0; i < 4; i++) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  int64_t one = 1;
  DLTensor *t = make_tensor(FUSER_DTYPE_F32, 1, &one, (double[]){1});
  CHECK_EQ_INT(fuser_ref_checksum_fnv1a(t), h);
  fuser_ref_tensor_free(t);
  /* strides do not change the checksum: a transposed view of the same values */
  float data[6] = {0, 3, 1, 4, 2, 5};
  DLTensor *row = make_tensor(FUSER_DTYPE_F32, 2, (int64_t[]){2, 3}, (double[]){0, 1, 2, 3, 4, 5});
  DLTensor *col = fuser_ref_tensor_view(data, FUSER_DTYPE_F32, 2, (int64_t[]){2, 3}, (int64_t[]){1, 2}, 0);
  CHECK_EQ_INT(fuser_ref_checksum_fnv1a(row), fuser_ref_checksum_fnv1a(col));
  CHECK(fuser_ref_checksum_sum(col) == 15.0);
  fuser_ref_tensor_free(row);
  fuser_ref_tensor_free(col);
}

/* Every op of the dialect has reference semantics. */
static void test_every_op_supported(void) {
  for (int id = 0; id < FUSER_OP_COUNT; id++) {
    bool ok = fuser_ref_supports_op((fuser_op_id)id);
    if (!ok) fprintf(stderr, "  no reference semantics for %s\n", fuser_op_full_name((fuser_op_id)id));
    CHECK(ok);
  }
  CHECK(!fuser_ref_supports_op(FUSER_OP_NONE));
}

int main(void) {
  test_ctx = fuser_context_create();
  mlirContextSetAllowUnregisteredDialects(test_ctx, false);
  test_every_op_supported();
  test_argument_errors();
  test_fusion_errors();
  test_f64_mode();
  test_output_stride_order();
  test_make_inputs();
  test_inputs_errors();
  test_checksums();
  mlirContextDestroy(test_ctx);
  UNIT_MAIN_END();
}
