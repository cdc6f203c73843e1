// Negative tests of the C verifier for the shape-taking ops (reshape expand
// broadcast_in_dim): the result type carries the target shape, each `?` is
// given by one i64 operand (dialects/infer.c, infer_shaped).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @missing_shape_operand(%a: tensor<?x?xf32>) {
  // expected-error@+1 {{'fuser.reshape' op result has 1 symbolic dims but 0 shape operands}}
  %0 = "fuser.reshape"(%a) : (tensor<?x?xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @extra_shape_operand(%a: tensor<2x8xf32>, %n: i64) {
  // expected-error@+1 {{'fuser.reshape' op result has 0 symbolic dims but 1 shape operands}}
  %0 = "fuser.reshape"(%a, %n) : (tensor<2x8xf32>, i64) -> tensor<16xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.reshape' op reshape changes the element count from 16 to 15}}
  %0 = "fuser.reshape"(%a) : (tensor<2x8xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @too_many_operands(%a: tensor<?xf32>, %n: i64) {
  // expected-error@+1 {{'fuser.reshape' op has too many operands (10)}}
  %0 = "fuser.reshape"(%a, %n, %n, %n, %n, %n, %n, %n, %n, %n) : (tensor<?xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> tensor<?x?x?x?x?x?x?x?x?xf32>
  return
}

// -----

func.func @expand_rank(%a: tensor<1x8xf32>) {
  // expected-error@+1 {{'fuser.expand' op expand keeps the rank (2), result has rank 3}}
  %0 = "fuser.expand"(%a) : (tensor<1x8xf32>) -> tensor<4x1x8xf32>
  return
}

// -----

func.func @expand_non_broadcast(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.expand' op expand of dim 0: extent 2 cannot broadcast to extent 4}}
  %0 = "fuser.expand"(%a) : (tensor<2x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_dims_count(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.broadcast_in_dim' op broadcast_dims has 1 entries for an input of rank 2}}
  %0 = "fuser.broadcast_in_dim"(%a) {broadcast_dims = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<3x2x8xf32>
  return
}

// -----

func.func @broadcast_dims_range(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.broadcast_in_dim' op broadcast_dims[0] = 2 is out of range [0, 2)}}
  %0 = "fuser.broadcast_in_dim"(%a) {broadcast_dims = array<i64: 2>} : (tensor<8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @broadcast_dims_order(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.broadcast_in_dim' op broadcast_dims must be strictly increasing}}
  %0 = "fuser.broadcast_in_dim"(%a) {broadcast_dims = array<i64: 2, 1>} : (tensor<2x8xf32>) -> tensor<3x8x2xf32>
  return
}

// -----

func.func @broadcast_extent(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.broadcast_in_dim' op input dim 0: extent 8 cannot broadcast to extent 4}}
  %0 = "fuser.broadcast_in_dim"(%a) {broadcast_dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @broadcast_dims_kind(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.broadcast_in_dim' op attribute 'broadcast_dims' must be an array<i64>}}
  %0 = "fuser.broadcast_in_dim"(%a) {broadcast_dims = array<i32: 1>} : (tensor<8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @broadcast_dims_length(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.broadcast_in_dim' op attribute 'broadcast_dims' has more than 8 elements}}
  %0 = "fuser.broadcast_in_dim"(%a) {broadcast_dims = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8>} : (tensor<8xf32>) -> tensor<3x8xf32>
  return
}

// -----

// Regression: the element count used to wrap to 0.
func.func @reshape_overflow(%a: tensor<4294967296x4294967296x4xf32>) {
  // expected-error@+1 {{'fuser.reshape' op element count of the input overflows int64}}
  %0 = "fuser.reshape"(%a) : (tensor<4294967296x4294967296x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reshape_result_overflow(%a: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.reshape' op element count of the result overflows int64}}
  %0 = "fuser.reshape"(%a) : (tensor<4xf32>) -> tensor<4294967296x4294967296x4xf32>
  return
}
