// Used by verify_diagnostics.mlir: every chunk here must fail.
func.func @no_error(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{dims is not a permutation}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @wrong_message(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // expected-error@above {{a different message}}
  return
}

// -----

func.func @no_braces(%a: tensor<2x3xf32>) {
  // expected-error@+1 dims is not a permutation
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}
