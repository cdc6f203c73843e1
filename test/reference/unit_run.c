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

/* IR that parses (IRDL is satisfied) but that the C verifier would reject,
 * or that fails only at run time: each a status and a message, no abort. */
typedef struct {
  const char *results, *body, *message;
} bad_ir_case;

static const bad_ir_case bad_ir[] = {
    {"tensor<3x2xf32>", "%r = \"fuser.permute\"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>",
     "dims is not a permutation of [0, 2)"},
    {"tensor<3x2xf32>", "%r = \"fuser.permute\"(%a) {dims = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>",
     "dims has 1 entries for rank 2"},
    {"tensor<2x3xf32>", "%r = \"fuser.slice\"(%a) {start_indices = array<i64: 0>, end_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "slice needs 2 start, end and stride entries"},
    {"tensor<2x3xf32>", "%r = \"fuser.slice\"(%a) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 2, 3>, strides = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "slice step 0 in dim 0 is not positive"},
    {"tensor<2x3xf32>", "%r = \"fuser.squeeze\"(%a) {dims = array<i64: 5>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "squeeze dim 5 is out of range"},
    {"tensor<3xf32>", "%r = \"fuser.squeeze\"(%a) {dims = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>",
     "squeeze of dim 0 whose extent is 2, not 1"},
    {"tensor<2x3xf32>", "%r = \"fuser.broadcast_in_dim\"(%a) {broadcast_dims = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "broadcast_dims has 1 entries for an input of rank 2"},
    {"tensor<2x3xf32>", "%r = \"fuser.broadcast_in_dim\"(%a) {broadcast_dims = array<i64: 0, 5>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "broadcast_dims[1] is out of range"},
    {"tensor<4x3xf32>", "%r = \"fuser.broadcast_in_dim\"(%a) {broadcast_dims = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>",
     "input dim 0 of extent 2 cannot broadcast to extent 4"},
    {"tensor<1x3xf32>", "%r = \"fuser.broadcast\"(%a) {is_broadcast_dim = array<i1: true, false>} : (tensor<2x3xf32>) -> tensor<1x3xf32>",
     "is_broadcast_dim keeps 1 dims of a rank-2 input"},
    {"tensor<1x2x3xf32>", "%r = \"fuser.expand\"(%a) : (tensor<2x3xf32>) -> tensor<1x2x3xf32>", "expand changes the rank"},
    {"tensor<?x?xf32>", "%m = \"fuser.scalar\"() {value = -1 : i64} : () -> i64\n"
                        "%r = \"fuser.reshape\"(%a, %m, %m) : (tensor<2x3xf32>, i64, i64) -> tensor<?x?xf32>",
     "reshape with more than one -1 extent"},
    {"tensor<?x4xf32>", "%m = \"fuser.scalar\"() {value = -1 : i64} : () -> i64\n"
                        "%r = \"fuser.reshape\"(%a, %m) : (tensor<2x3xf32>, i64) -> tensor<?x4xf32>",
     "reshape cannot infer dim 0 from 6 elements"},
    {"tensor<?xf32>", "%m = \"fuser.scalar\"() {value = -5 : i64} : () -> i64\n"
                      "%r = \"fuser.reshape\"(%a, %m) : (tensor<2x3xf32>, i64) -> tensor<?xf32>",
     "extent -5 for dim 0 is negative"},
    {"tensor<?xf32>", "%r = \"fuser.reshape\"(%a) : (tensor<2x3xf32>) -> tensor<?xf32>",
     "result dim 0 is `?` but no scalar operand gives it"},
    {"tensor<2x4xf32>", "%v = \"fuser.scalar\"() {value = 0.0 : f64} : () -> f64\n"
                        "%r = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: 1>} : (tensor<2x3xf32>, f64) -> tensor<2x4xf32>",
     "pad_widths needs an even number of entries, at most 4"},
    {"tensor<2x1xf32>", "%v = \"fuser.scalar\"() {value = 0.0 : f64} : () -> f64\n"
                        "%r = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: -5, 0>} : (tensor<2x3xf32>, f64) -> tensor<2x1xf32>",
     "pad widths make dim 1 negative (-2)"},
    {"tensor<2x6xf32>", "%r = \"fuser.cat\"(%a, %a) {dim = 5 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>",
     "cat dim is out of range"},
    {"tensor<2x6xf32>", "%t = \"fuser.permute\"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
                        "%r = \"fuser.cat\"(%a, %t) {dim = 1 : i64} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x6xf32>",
     "cat operands differ in dim 0 (2 and 3)"},
    {"tensor<f32>", "%r = \"fuser.sum\"(%a) {dims = array<i64: 0, 0>, keepdim = false} : (tensor<2x3xf32>) -> tensor<f32>",
     "reduction dims must be distinct dims of the input"},
    {"tensor<?xf32>", "%v = \"fuser.scalar\"() {value = 0.0 : f64} : () -> f64\n"
                      "%m = \"fuser.scalar\"() {value = -1 : i64} : () -> i64\n"
                      "%r = \"fuser.full\"(%v, %m) : (f64, i64) -> tensor<?xf32>",
     "full with negative extent -1"},
    {"tensor<?xf32>", "%m = \"fuser.scalar\"() {value = -2 : i64} : () -> i64\n"
                      "%v = \"fuser.scalar\"() {value = 0.0 : f64} : () -> f64\n"
                      "%r = \"fuser.iota\"(%m, %v, %v) : (i64, f64, f64) -> tensor<?xf32>",
     "iota length -2 is negative"},
    {"tensor<2x3xf32>", "%r = \"fuser.view\"(%a) {static_offset = 0 : i64, static_strides = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "static_strides has 1 entries for rank 2"},
    {"tensor<2x3xf32>", "%r = \"fuser.view\"(%a) {static_offset = -9223372036854775808 : i64, static_strides = array<i64: 3, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "view: no operand for the dynamic offset"},
    {"tensor<?x3xf32>", "%r = \"fuser.view\"(%a) {static_offset = 0 : i64, static_strides = array<i64: 3, 1>} : (tensor<2x3xf32>) -> tensor<?x3xf32>",
     "view: no operand for the size of dim 0"},
    {"tensor<2x3xf32>", "%r = \"fuser.view\"(%a) {static_offset = 0 : i64, static_strides = array<i64: -9223372036854775808, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "view: no operand for the stride of dim 0"},
    {"tensor<2x3xf32>", "%m = \"fuser.scalar\"() {value = 1 : i64} : () -> i64\n"
                        "%r = \"fuser.view\"(%a, %m) {static_offset = 0 : i64, static_strides = array<i64: 3, 1>} : (tensor<2x3xf32>, i64) -> tensor<2x3xf32>",
     "view has 2 operands, its layout uses 1"},
    {"tensor<?x3xf32>", "%m = \"fuser.scalar\"() {value = -4 : i64} : () -> i64\n"
                        "%r = \"fuser.view\"(%a, %m) {static_offset = 0 : i64, static_strides = array<i64: 3, 1>} : (tensor<2x3xf32>, i64) -> tensor<?x3xf32>",
     "view extent -4 is negative"},
    {"i64", "%r = \"fuser.size\"(%a) {dim = 5 : i64} : (tensor<2x3xf32>) -> i64", "'fuser.size' of dim 5 of a rank-2 tensor"},
    {"f32", "%r = \"fuser.scalar\"() {value = \"x\"} : () -> f32", "fuser.scalar 'value' must be an integer, float or bool"},
    {"tensor<2x3xf32>", "%b = \"fuser.squeeze\"(%a) {dims = array<i64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                        "%c = \"fuser.slice\"(%b) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
                        "%s = \"fuser.squeeze\"(%c) {dims = array<i64: 1>} : (tensor<2x1xf32>) -> tensor<2xf32>\n"
                        "%r = \"fuser.add\"(%a, %s) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>",
     "operand #1 has rank 1, the result rank 2"},
    {"tensor<2x3xf32>", "%r = \"fuser.bitwise_and\"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>",
     "'fuser.bitwise_and' is not defined on f32 values"},
    {"tensor<3x2xbf16>", "%r = \"fuser.permute\"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xbf16>",
     "result #0 computed as f32 but the type says bf16"},
    {"tensor<2x3x1xf32>", "%r = \"fuser.squeeze\"(%a) {dims = array<i64>} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>",
     "result #0 has rank 2 at run time but the type says 3"},
    {"tensor<3x2xf32> {fuser.stride_order = array<i64: 0, 0>}",
     "%r = \"fuser.permute\"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>",
     "result #0: fuser.stride_order is not a permutation"},
    {"tensor<3x2xf32> {fuser.stride_order = array<i64: 0>}",
     "%r = \"fuser.permute\"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>",
     "result #0: fuser.stride_order must be an array<i64> of 2 entries"},
};

/* func.call (kernels outlined by fuser-segment): results flow back; a
 * declaration without a body and runaway recursion are errors */
static void test_calls(void) {
  int64_t two = 2;
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 1, &two, (double[]){1, 2});
  fuser_ref_value arg = tensor_arg(a);
  fuser_ref_outputs out;
  fuser_ref_error err;
  const char *ok_module =
      "func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) attributes {fuser.fusion} {\n"
      "  %r:2 = func.call @k(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
      "  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>\n}\n"
      "func.func private @k(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {\n"
      "  %n = \"fuser.neg\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  %m = \"fuser.mul\"(%n, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %n, %m : tensor<2xf32>, tensor<2xf32>\n}\n";
  CHECK_EQ_INT(run_text(ok_module, &arg, 1, false, &out, &err), FUSER_REF_OK);
  if (out.count == 2) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){-1, -2}), 2, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){-1, -4}), 2, 0);
  }
  fuser_ref_outputs_free(&out);
  const char *decl =
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {fuser.fusion} {\n"
      "  %r = func.call @k(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %r : tensor<2xf32>\n}\n"
      "func.func private @k(%x: tensor<2xf32>) -> tensor<2xf32>\n";
  expect_error(run_text(decl, &arg, 1, false, &out, &err), FUSER_REF_ERR_FUSION, &err, "the function has no body");
  const char *loop =
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {fuser.fusion} {\n"
      "  %r = func.call @k(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %r : tensor<2xf32>\n}\n"
      "func.func private @k(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %r = func.call @k(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %r : tensor<2xf32>\n}\n";
  expect_error(run_text(loop, &arg, 1, false, &out, &err), FUSER_REF_ERR_FUSION, &err, "calls nested more than 16 deep");
  fuser_ref_tensor_free(a);
}

static void test_bad_ir(void) {
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 2, (int64_t[]){2, 3}, (double[]){0, 1, 2, 3, 4, 5});
  fuser_ref_value arg = tensor_arg(a);
  for (size_t i = 0; i < sizeof bad_ir / sizeof *bad_ir; i++) {
    char body[4096], type[128];
    snprintf(type, sizeof type, "%s", bad_ir[i].results);
    char *attr = strstr(type, " {");
    if (attr) *attr = 0; /* the return's type without the result attribute */
    snprintf(body, sizeof body, "%s\nreturn %%r : %s", bad_ir[i].body, type);
    fuser_ref_outputs out;
    fuser_ref_error err = {0};
    fuser_ref_status st = run_fusion("%a: tensor<2x3xf32>", bad_ir[i].results, body, &arg, 1, false, &out, &err);
    CHECK(st != FUSER_REF_OK);
    bool has = strstr(err.message, bad_ir[i].message) != NULL;
    if (!has) fprintf(stderr, "  case %zu: message '%s' lacks '%s'\n", i, err.message, bad_ir[i].message);
    CHECK(has);
    if (st == FUSER_REF_OK) fuser_ref_outputs_free(&out);
  }
  fuser_ref_tensor_free(a);
}

/* DLTensors the evaluator refuses */
static void test_bad_dltensors(void) {
  DLTensor *a = make_tensor(FUSER_DTYPE_F32, 2, (int64_t[]){2, 3}, (double[]){0, 1, 2, 3, 4, 5});
  int64_t shape[9] = {2, 3, 1, 1, 1, 1, 1, 1, 1}, neg[2] = {2, -3};
  fuser_ref_outputs out;
  fuser_ref_error err;
  const char *sig = "%a: tensor<2x?xf32>, %b: tensor<2x?xf32>";
  DLTensor bad = *a;
  fuser_ref_value args[2] = {tensor_arg(a), {.is_tensor = true, .tensor = &bad}};
  bad.ndim = 9;
  bad.shape = shape;
  bad.strides = NULL;
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "DLTensor rank 9 is not in [0, 8]");
  bad = *a;
  bad.shape = neg;
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "DLTensor has a negative extent in dim 1");
  bad = *a;
  bad.data = NULL;
  expect_error(run_fusion(sig, "tensor<2x?xf32>", ADD_F32, args, 2, false, &out, &err), FUSER_REF_ERR_INPUT, &err,
               "DLTensor has no data");
  fuser_ref_tensor_free(a);
}

/* float64 mode: every op in double, casts round to their dtype, float
 * outputs come back as f64. */
static void test_f64_mode(void) {
  int64_t three = 3;
  /* the sum is exact in double (2^24 + 1); an f32 result rounds it once,
   * to 2^24 (ties to even) */
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 1, &three, (double[]){16777216, 1, 0});
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
    CHECK_VALUES(out.values[0].tensor, ((double[]){16777217}), 1, 0); /* in f32: 16777216 */
    CHECK_VALUES(out.values[1].tensor, ((double[]){1677721.6, 0.1, 0}), 3, 0);
    /* the cast rounds to bf16 precision, held in f64 */
    CHECK_VALUES(out.values[2].tensor, ((double[]){1679360, 0x1.9ap-4, 0}), 3, 0);
    for (int i = 0; i < 3; i++) CHECK_EQ_INT(out.values[i].dtype, FUSER_DTYPE_F64);
    CHECK_EQ_INT(out.values[2].tensor->dtype.bits, 64);
  }
  fuser_ref_outputs_free(&out);
  CHECK_EQ_INT(run_fusion("%a: tensor<3xf32>", "tensor<f32>, tensor<3xf32>, tensor<3xbf16>", body, &a, 1, false, &out, &err),
               FUSER_REF_OK);
  if (out.count == 3) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){16777216}), 1, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){1677721.625, 0x1.99999ap-4, 0}), 3, 0);
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
  expect_inputs_error("{factory = \"poisson\", dtype = f32, shape = array<i64: 2>}", "unknown factory 'poisson'");
  expect_inputs_error("{factory = \"randint\", dtype = f32, shape = array<i64: 2>}", "randint needs numeric 'low' and 'high'");
  expect_inputs_error("{factory = \"make_tensor\", dtype = f32, shape = array<i64: 2>, low = 2.0 : f64, high = 1.0 : f64}",
                      "needs finite bounds low < high");
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

/* fuser.alias_input: the result is written into the argument's storage,
 * after every op (the second result reads the argument before the write). */
static void test_alias_input(void) {
  int64_t s3 = 3;
  DLTensor *x = make_tensor(FUSER_DTYPE_F32, 1, &s3, (double[]){1, 2, 3});
  fuser_ref_value a = tensor_arg(x);
  fuser_ref_outputs out;
  fuser_ref_error err;
  CHECK_EQ_INT(run_fusion("%a: tensor<3xf32>", "tensor<3xf32> {fuser.alias_input = 0 : i64}, tensor<3xf32>",
                          "%r = \"fuser.neg\"(%a) : (tensor<3xf32>) -> tensor<3xf32>\n"
                          "%s = \"fuser.abs\"(%a) : (tensor<3xf32>) -> tensor<3xf32>\n"
                          "return %r, %s : tensor<3xf32>, tensor<3xf32>",
                          &a, 1, false, &out, &err),
               FUSER_REF_OK);
  CHECK_VALUES(x, ((double[]){-1, -2, -3}), 3, 0);
  if (out.count == 2) {
    CHECK_VALUES(out.values[0].tensor, ((double[]){-1, -2, -3}), 3, 0);
    CHECK_VALUES(out.values[1].tensor, ((double[]){1, 2, 3}), 3, 0);
  }
  fuser_ref_outputs_free(&out);
  fuser_ref_tensor_free(x);
}

int main(void) {
  test_ctx = fuser_context_create();
  mlirContextSetAllowUnregisteredDialects(test_ctx, false);
  test_every_op_supported();
  test_argument_errors();
  test_bad_dltensors();
  test_fusion_errors();
  test_bad_ir();
  test_calls();
  test_f64_mode();
  test_output_stride_order();
  test_alias_input();
  test_make_inputs();
  test_inputs_errors();
  test_checksums();
  mlirContextDestroy(test_ctx);
  UNIT_MAIN_END();
}
