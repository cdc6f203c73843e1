// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(fuser-vectorize)'
// Kernels the vectorizer cannot read.

// expected-error@+1 {{kernel argument #0 needs a 'fuser.strides' array of 2 entries}}
func.func private @no_strides(%a: tensor<4x8xf32>) -> (tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}) attributes {fuser.kernel} {
  func.return %a : tensor<4x8xf32>
}

// -----

// expected-error@+1 {{kernel result #0 needs a 'fuser.strides' array of 2 entries}}
func.func private @short_strides(%a: tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}) -> (tensor<4x8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  func.return %a : tensor<4x8xf32>
}

// -----

// A result's stride order must name each of its dims once.
// expected-error@+1 {{kernel result #0: 'fuser.stride_order' must be a permutation of its 2 dims}}
func.func private @bad_order(%a: tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}) -> (tensor<4x8xf32> {fuser.stride_order = array<i64: 0, 0>, fuser.strides = array<i64: 1, 4>}) attributes {fuser.kernel} {
  func.return %a : tensor<4x8xf32>
}

// -----

// expected-error@+1 {{kernel results must all have the shape of the iteration space}}
func.func private @two_shapes(%a: tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}, %b: tensor<8xf32> {fuser.strides = array<i64: 1>})
    -> (tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}, tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  func.return %a, %b : tensor<4x8xf32>, tensor<8xf32>
}

// -----

// expected-error@+1 {{kernel has no results}}
func.func private @no_results(%a: tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>}) attributes {fuser.kernel} {
  func.return
}

// -----

// expected-error@+1 {{kernel results must be tensors}}
func.func private @scalar_result(%a: f64) -> f64 attributes {fuser.kernel} {
  func.return %a : f64
}

// -----

// expected-error@+1 {{kernel argument #0 has an unsupported type}}
func.func private @bad_type(%a: tensor<4xi8> {fuser.strides = array<i64: 1>}) -> (tensor<4xi8> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  func.return %a : tensor<4xi8>
}

// -----

func.func private @foreign_tensor(%a: tensor<4xf32> {fuser.strides = array<i64: 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  // expected-error@+1 {{lowering: a kernel body may only hold fuser ops}}
  %0 = builtin.unrealized_conversion_cast %a : tensor<4xf32> to tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func private @foreign_scalar(%a: tensor<4xf32> {fuser.strides = array<i64: 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  // expected-error@+1 {{lowering: unsupported scalar producer}}
  %c = arith.constant 2.0 : f64
  %0 = "fuser.mul"(%a, %c) : (tensor<4xf32>, f64) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func private @dyn_extent_from_foreign(%a: tensor<?xf32> {fuser.strides = array<i64: 1>}, %b: tensor<4xf32> {fuser.strides = array<i64: 1>})
    -> (tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  // The cat's boundary is the extent of %0 (reported first, at its producer).
  // expected-error@+1 {{lowering: cannot derive a symbolic extent through this op}}
  %0 = builtin.unrealized_conversion_cast %a : tensor<?xf32> to tensor<?xf32>
  %1 = "fuser.cat"(%0, %b) {dim = 0 : i64} : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return %1 : tensor<?xf32>
}

// -----

func.func private @integer_lerp(%a: tensor<4xi64> {fuser.strides = array<i64: 1>}) -> (tensor<4xi64> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  // expected-error@+1 {{fuser.lerp: integer lerp is not supported in GPU kernels yet}}
  %0 = "fuser.lerp"(%a, %a, %a) : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

// var_mean over scattered dims (0 and 2) inside one kernel (fuser-split-
// reductions splits them in a fusion): no row schedule
// (passes/schedule_reduction.h), and the per-point kernel has no var_mean.
func.func private @var_mean(%a: tensor<4x8x2xf32> {fuser.strides = array<i64: 16, 2, 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}, tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  // expected-error@+1 {{fuser.var_mean: not supported in GPU kernels yet}}
  %v, %m = "fuser.var_mean"(%a) {dims = array<i64: 0, 2>, correction = 1 : i64, keepdim = false} : (tensor<4x8x2xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  func.return %v, %m : tensor<8xf32>, tensor<8xf32>
}
