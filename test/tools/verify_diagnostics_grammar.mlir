// -verify-diagnostics in mlir-opt's directive grammar: a space before the
// designator and before the message, `-re` messages with {{regex}} pieces,
// `@unknown` for a diagnostic without a location, notes checked like the
// rest, and `@below`/`@above` skipping the lines that hold directives.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics
// RUN: not fuser-opt %S/Inputs/grammar_mismatch.mlir -split-input-file -verify-diagnostics 2>&1 | FileCheck %s -DFILE=%S/Inputs/grammar_mismatch.mlir
// CHECK: [[FILE]]:4:6: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK: [[FILE]]:13:6: error: expected error "not a permutation of [0, 9)" was not produced
// CHECK: [[FILE]]:20:6: error: invalid regex: {{.+}}
// CHECK: [[FILE]]:27:6: error: expected '@+N', '@-N', '@above', '@below' or '@unknown'
// CHECK: [[FILE]]:33:3: error: unexpected note: previously defined here

func.func @space_and_regex(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{dims is not a permutation of [0, 2)}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // expected-error-re @+1 {{'fuser.permute' op dims is not a permutation of {{\[0, [0-9]+\)}}}}
  %1 = "fuser.permute"(%a) {dims = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @unknown_location(%a: tensor<2x3xf32>) {
  // expected-error @unknown {{dims is not a permutation}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32> loc(unknown)
  return
}

// -----

// @below is the next line without a directive.
func.func @below_skips_directives(%a: tensor<2x3xf32>) {
  // expected-note @below {{previously defined here}}
  // expected-error @+2 {{redefinition of SSA value '%0'}}
  %0 = "fuser.neg"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "fuser.neg"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// @above is the last line without a directive.
func.func @above_skips_directives(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %1 = "fuser.permute"(%a) {dims = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // expected-error @-2 {{not a permutation}}
  // expected-error @above {{not a permutation}}
  return
}
