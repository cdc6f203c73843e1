// Negative tests of the C verifier for constant scalars and factories
// (scalar full iota).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @scalar_kind() {
  // expected-error@+1 {{'fuser.scalar' op attribute 'value' must be an integer, float or bool}}
  %0 = "fuser.scalar"() {value = "two"} : () -> i64
  return
}

// -----

func.func @scalar_type() {
  // expected-error@+1 {{'fuser.scalar' op attribute 'value' has an unsupported type}}
  %0 = "fuser.scalar"() {value = 2 : i8} : () -> i8
  return
}

// -----

func.func @scalar_result() {
  // expected-error@+1 {{'fuser.scalar' op result #0 has type f64 but nvFuser's rules give i64}}
  %0 = "fuser.scalar"() {value = 2 : i64} : () -> f64
  return
}

// -----

func.func @full_dtype(%v: f64) {
  // expected-error@+1 {{'fuser.full' op needs a result dtype}}
  %0 = "fuser.full"(%v) : (f64) -> tensor<2xi8>
  return
}

// -----

func.func @full_fill_tensor(%v: tensor<2xf32>) {
  // expected-error@+1 {{'fuser.full' op first operand must be a scalar}}
  %0 = "fuser.full"(%v) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @full_shape_operands(%v: f64, %n: i64) {
  // expected-error@+1 {{'fuser.full' op result has 2 symbolic dims but 1 shape operands}}
  %0 = "fuser.full"(%v, %n) : (f64, i64) -> tensor<?x?xf32>
  return
}

// -----

func.func @iota_start(%n: i64, %t: tensor<2xi64>) {
  // expected-error@+1 {{'fuser.iota' op iota takes (length: i64, start, step) scalars}}
  %0 = "fuser.iota"(%n, %t, %n) : (i64, tensor<2xi64>, i64) -> tensor<?xi64>
  return
}

// -----

func.func @iota_rank(%n: i64) {
  // expected-error@+1 {{'fuser.iota' op iota produces a 1-D tensor}}
  %0 = "fuser.iota"(%n, %n, %n) : (i64, i64, i64) -> tensor<?x2xi64>
  return
}
