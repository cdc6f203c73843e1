// Negative tests of the C verifier for reductions (sum max min prod var_mean).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @dims_range(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.sum' op reduction dims must be distinct dims in [0, 2)}}
  %0 = "fuser.sum"(%a) {dims = array<i64: 2>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @dims_repeated(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.max' op reduction dims must be distinct dims in [0, 2)}}
  %0 = "fuser.max"(%a) {dims = array<i64: 1, 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @result_shape(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.min' op result #0 has type tensor<2xf32> but nvFuser's rules give tensor<2x1xf32>}}
  %0 = "fuser.min"(%a) {dims = array<i64: 1>, keepdim = true} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @result_dtype(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.prod' op needs a result dtype}}
  %0 = "fuser.prod"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xi8>
  return
}

// -----

func.func @dims_kind(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.sum' op attribute 'dims' must be an array<i64>}}
  %0 = "fuser.sum"(%a) {dims = array<i32: 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @correction(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.var_mean' op correction must be >= 0}}
  %0:2 = "fuser.var_mean"(%a) {dims = array<i64: 1>, correction = -1 : i64, keepdim = false} : (tensor<2x8xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

// var_mean computes in float: bf16 in, f32 out.
func.func @var_mean_dtype(%a: tensor<2x8xbf16>) {
  // expected-error@+1 {{'fuser.var_mean' op result #0 has type tensor<2xbf16> but nvFuser's rules give tensor<2xf32>}}
  %0:2 = "fuser.var_mean"(%a) {dims = array<i64: 1>, correction = 1 : i64, keepdim = false} : (tensor<2x8xbf16>) -> (tensor<2xbf16>, tensor<2xbf16>)
  return
}

// -----

func.func @var_mean_second_result(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.var_mean' op result #1 has type tensor<2x1xf32> but nvFuser's rules give tensor<2xf32>}}
  %0:2 = "fuser.var_mean"(%a) {dims = array<i64: 1>, correction = 1 : i64, keepdim = false} : (tensor<2x8xf32>) -> (tensor<2xf32>, tensor<2x1xf32>)
  return
}
