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

// -----

func.func @rng_int(%a: f64, %s: i64) {
  // expected-error@+1 {{'fuser.uniform' op random numbers are floating point}}
  %0 = "fuser.uniform"(%a, %a, %s, %s) : (f64, f64, i64, i64) -> tensor<4xi64>
  return
}

// -----

func.func @rng_tensor_bound(%a: f64, %t: tensor<4xf32>, %s: i64) {
  // expected-error@+1 {{'fuser.normal' op takes two scalars, rng_seed, rng_offset and the shape}}
  %0 = "fuser.normal"(%t, %a, %s, %s) : (tensor<4xf32>, f64, i64, i64) -> tensor<4xf32>
  return
}

// -----

func.func @rng_seed_float(%a: f64) {
  // IRDL checks the i64 operands first
  // expected-error@+1 {{'fuser.uniform' op one of operand 'rng_seed', operand 'rng_offset', operand 'shape': expected 'i64' but got 'f64'}}
  %0 = "fuser.uniform"(%a, %a, %a, %a) : (f64, f64, f64, f64) -> tensor<4xf32>
  return
}

// -----

func.func @rng_shape(%a: f64, %s: i64) {
  // expected-error@+1 {{'fuser.uniform' op result has 1 symbolic dims but 0 shape operands}}
  %0 = "fuser.uniform"(%a, %a, %s, %s) : (f64, f64, i64, i64) -> tensor<?xf32>
  return
}
