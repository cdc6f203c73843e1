// Negative tests of the C verifier for the plan-level ops (view size
// stride): dialects/infer.c, infer_view/infer_query.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @view_rank(%a: tensor<8x8xf32>) {
  // expected-error@+1 {{'fuser.view' op static_strides has 1 entries for a result of rank 2}}
  %0 = "fuser.view"(%a) {static_offset = 0 : i64, static_strides = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @view_offset(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.view' op static_offset -2 is negative}}
  %0 = "fuser.view"(%a) {static_offset = -2 : i64, static_strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @view_stride(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.view' op stride -1 of dim 0 is negative}}
  %0 = "fuser.view"(%a) {static_offset = 0 : i64, static_strides = array<i64: -1>} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @view_operands(%a: tensor<8xf32>, %n: i64) {
  // expected-error@+1 {{'fuser.view' op view has 0 dynamic offset/size/stride entries but 1 operands}}
  %0 = "fuser.view"(%a, %n) {static_offset = 0 : i64, static_strides = array<i64: 1>} : (tensor<8xf32>, i64) -> tensor<4xf32>
  return
}

// -----

func.func @size_dim(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.size' op dim 1 is out of range [0, 1)}}
  %0 = "fuser.size"(%a) {dim = 1 : i64} : (tensor<8xf32>) -> i64
  return
}

// -----

func.func @stride_dim(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.stride' op dim -1 is out of range [0, 1)}}
  %0 = "fuser.stride"(%a) {dim = -1 : i64} : (tensor<8xf32>) -> i64
  return
}
