// Negative tests of what IRDL checks while parsing (generated from dialects/ops.def):
// unknown ops, operand and result counts, operand types, attribute kinds and
// missing attributes. Each error stops the parse of its chunk. The tools
// name the op and the attribute or operand in IRDL's messages
// (tools/common/irdl_errors.c).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// wrong attribute kind (dense array expected)
func.func @a(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.permute' op attribute 'dims': expected base attribute 'builtin.dense_array' but got 'builtin.integer'}}
  %0 = "fuser.permute"(%a) {dims = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// missing attribute
func.func @b(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.permute' op attribute "dims" is expected but not provided}}
  %0 = "fuser.permute"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// unknown op
func.func @c(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{unregistered operation 'fuser.nosuch' found in dialect ('fuser') that does not allow unknown operations}}
  %0 = "fuser.nosuch"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// too few operands
func.func @d(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.add' op expects exactly 2 operands, but got 1}}
  %0 = "fuser.add"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// too many operands
func.func @e(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.neg' op expects exactly 1 operands, but got 2}}
  %0 = "fuser.neg"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// tensor operand expected
func.func @f(%a: f32) {
  // expected-error@+1 {{'fuser.permute' op one of operand 'input', result 'result': expected base type 'builtin.tensor' but got 'builtin.f32'}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0>} : (f32) -> f32
  return
}

// -----

// shape operands are i64
func.func @g(%a: tensor<2xf32>, %n: i32) {
  // expected-error@+1 {{'fuser.reshape' op operand 'shape': expected 'i64' but got 'i32'}}
  %0 = "fuser.reshape"(%a, %n) : (tensor<2xf32>, i32) -> tensor<?xf32>
  return
}

// -----

// wrong result count
func.func @h(%a: tensor<2xf32>) {
  // expected-error@+1 {{'fuser.neg' op expects exactly 1 results, but got 2}}
  %0:2 = "fuser.neg"(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

// wrong attribute kind (integer expected)
func.func @i(%a: tensor<2xf32>) {
  // expected-error@+1 {{'fuser.cat' op attribute 'dim': expected base attribute 'builtin.integer' but got 'builtin.dense_array'}}
  %0 = "fuser.cat"(%a, %a) {dim = array<i64: 0>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

// missing reduction attribute
func.func @j(%a: tensor<2xf32>) {
  // expected-error@+1 {{'fuser.sum' op attribute "keepdim" is expected but not provided}}
  %0 = "fuser.sum"(%a) {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<f32>
  return
}

// -----

// keepdim is an integer or bool
func.func @k(%a: tensor<2xf32>) {
  // expected-error@+1 {{'fuser.sum' op attribute 'keepdim': expected base attribute 'builtin.integer' but got 'builtin.float'}}
  %0 = "fuser.sum"(%a) {dims = array<i64: 0>, keepdim = 1.0} : (tensor<2xf32>) -> tensor<f32>
  return
}

// -----

// iota length is i64
func.func @l(%n: f64) {
  // expected-error@+1 {{'fuser.iota' op operand 'length': expected 'i64' but got 'f64'}}
  %0 = "fuser.iota"(%n, %n, %n) : (f64, f64, f64) -> tensor<?xf64>
  return
}

// -----

// scalar without value
func.func @m() {
  // expected-error@+1 {{'fuser.scalar' op attribute "value" is expected but not provided}}
  %0 = "fuser.scalar"() : () -> i64
  return
}
