// Negative tests of the C verifier for the matrix products (matmul, linear).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @k_mismatch(%a: tensor<8x16xbf16>, %b: tensor<12x4xbf16>) {
  // expected-error@+1 {{'fuser.matmul' op contraction (K) extents 16 and 12 differ}}
  %0 = "fuser.matmul"(%a, %b) : (tensor<8x16xbf16>, tensor<12x4xbf16>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @batch_mismatch(%a: tensor<2x8x16xf32>, %b: tensor<3x16x4xf32>) {
  // expected-error@+1 {{'fuser.matmul' op operand extents 2 and 3 differ in dim 0}}
  %0 = "fuser.matmul"(%a, %b) : (tensor<2x8x16xf32>, tensor<3x16x4xf32>) -> tensor<2x8x4xf32>
  return
}

// -----

func.func @dtypes(%a: tensor<8x16xbf16>, %b: tensor<16x4xf32>) {
  // expected-error@+1 {{'fuser.matmul' op operands must have one dtype (operand #1 differs)}}
  %0 = "fuser.matmul"(%a, %b) : (tensor<8x16xbf16>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @int_operands(%a: tensor<8x16xi64>, %b: tensor<16x4xi64>) {
  // expected-error@+1 {{'fuser.matmul' op supports bf16, f16 and f32 operands, not i64}}
  %0 = "fuser.matmul"(%a, %b) : (tensor<8x16xi64>, tensor<16x4xi64>) -> tensor<8x4xi64>
  return
}

// -----

func.func @zero_dim(%a: tensor<f32>, %b: tensor<16x4xf32>) {
  // expected-error@+1 {{'fuser.matmul' op operands must have at least one dim}}
  %0 = "fuser.matmul"(%a, %b) : (tensor<f32>, tensor<16x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @result_type(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) {
  // expected-error@+1 {{'fuser.matmul' op result #0 has type tensor<8x16xf32> but nvFuser's rules give tensor<8x4xf32>}}
  %0 = "fuser.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @matmul_operands(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) {
  // expected-error@+1 {{'fuser.matmul' op expects exactly 2 operands, but got 3}}
  %0 = "fuser.matmul"(%a, %b, %b) : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @weight_rank(%a: tensor<8x16xf32>, %w: tensor<2x4x16xf32>) {
  // expected-error@+1 {{'fuser.linear' op weight must be 1-D or 2-D}}
  %0 = "fuser.linear"(%a, %w) : (tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @bias_shape(%a: tensor<8x16xf32>, %w: tensor<4x16xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{'fuser.linear' op bias must be 0-dim, or 1-D [N] with a 2-D weight}}
  %0 = "fuser.linear"(%a, %w, %b) : (tensor<8x16xf32>, tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @bias_extent(%a: tensor<8x16xf32>, %w: tensor<4x16xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{'fuser.linear' op bias and weight N extents 5 and 4 differ}}
  %0 = "fuser.linear"(%a, %w, %b) : (tensor<8x16xf32>, tensor<4x16xf32>, tensor<5xf32>) -> tensor<8x4xf32>
  return
}
