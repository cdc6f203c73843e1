// Used by verify_diagnostics_grammar.mlir: every chunk here must fail.
func.func @wrong_severity(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // expected-warning @above {{not a permutation}}
  return
}

// -----

func.func @regex_is_literal_outside_braces(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // expected-error-re @above {{not a permutation of [0, 2)}}
  // expected-error @above {{not a permutation of [0, 9)}}
  return
}

// -----

func.func @bad_regex(%a: tensor<2x3xf32>) {
  // expected-error-re @+1 {{dims is {{(}}}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

  // expected-error @next {{whatever}}

// -----

func.func @unexpected_note(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{redefinition}}
  %0 = "fuser.neg"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "fuser.neg"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
