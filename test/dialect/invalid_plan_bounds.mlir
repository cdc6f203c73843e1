// The plan level's own rules (dialects/verify_plan.c): a view of a fusion
// input with static extents, offset and strides stays inside the input's
// storage when that storage is known statically (static extents, every dim
// contiguous or a broadcast), and a plan's calls name kernels that have bodies. Issue 14: a
// slice with end 800 of a dim of 8 became a [4, 800] view of a 4x8 input.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @past_the_end(%arg0: tensor<4x8xf32>) -> tensor<4x800xf32> attributes {fuser.fusion, fuser.plan} {
  // expected-error@+1 {{'fuser.view' op reaches element 823 of input #0, which has 32}}
  %0 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 8, 1>} : (tensor<4x8xf32>) -> tensor<4x800xf32>
  return %0 : tensor<4x800xf32>
}

// -----

// The offset alone is past the end (one element).
func.func @offset(%arg0: tensor<8xf32>) -> tensor<1xf32> attributes {fuser.fusion, fuser.plan} {
  // expected-error@+1 {{'fuser.view' op reaches element 8 of input #0, which has 8}}
  %0 = "fuser.view"(%arg0) {static_offset = 8 : i64, static_strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// Strides whose span leaves int64.
func.func @overflow(%arg0: tensor<8xf32>) -> tensor<4xf32> attributes {fuser.fusion, fuser.plan} {
  // expected-error@+1 {{'fuser.view' op reaches elements beyond int64 of input #0}}
  %0 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 4611686018427387904>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @helper(%a: tensor<8xf32>) -> tensor<8xf32>
func.func @not_a_kernel(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
  // expected-error@+1 {{'func.call' op calls @helper, which is not a kernel of the plan (func.func with fuser.kernel)}}
  %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A kernel declaration: every reader of the plan walks the callee's body
// (fuser-report, fuser-fuse-inner-outer and fuser-translate crashed on it).
func.func private @k(tensor<8xf32>) -> tensor<8xf32> attributes {fuser.kernel, fuser.matmul}
func.func @declared_kernel(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
  // expected-error@+1 {{'func.call' op calls @k, a kernel without a body (a declaration)}}
  %0 = call @k(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Accepted: the last element exactly; an empty view anywhere; a view of an
// input whose storage is only known at run time (a `?` extent, a False
// dim): the runtime proves those (docs/runtime.md).
func.func @inside(%arg0: tensor<4x8xf32>, %arg1: tensor<?x8xf32>,
                  %arg2: tensor<4x8xf32> {fuser.contiguity = array<i64: 0, 1>, fuser.stride_order = array<i64: 1, 0>})
    -> (tensor<1xf32>, tensor<0x800xf32>, tensor<4x800xf32>, tensor<4x800xf32>) attributes {fuser.fusion, fuser.plan} {
  %0 = "fuser.view"(%arg0) {static_offset = 31 : i64, static_strides = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<1xf32>
  %1 = "fuser.view"(%arg0) {static_offset = 500 : i64, static_strides = array<i64: 8, 1>} : (tensor<4x8xf32>) -> tensor<0x800xf32>
  %2 = "fuser.view"(%arg1) {static_offset = 0 : i64, static_strides = array<i64: 8, 1>} : (tensor<?x8xf32>) -> tensor<4x800xf32>
  %3 = "fuser.view"(%arg2) {static_offset = 0 : i64, static_strides = array<i64: 8, 1>} : (tensor<4x8xf32>) -> tensor<4x800xf32>
  return %0, %1, %2, %3 : tensor<1xf32>, tensor<0x800xf32>, tensor<4x800xf32>, tensor<4x800xf32>
}
