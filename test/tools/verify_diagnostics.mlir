// --verify-diagnostics: passes when every expected-* is produced at its line
// (also @+N, @-N, @above, @below), fails on a missing expectation or an
// unexpected error, naming the file and line.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics
// RUN: not fuser-opt %S/Inputs/missing_expectation.mlir -split-input-file -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%S/Inputs/missing_expectation.mlir
// MISSING: [[FILE]]:3:6: error: expected error "dims is not a permutation" was not produced
// MISSING: [[FILE]]:11:8: error: unexpected error: 'fuser.permute' op dims is not a permutation of [0, 2)
// MISSING: [[FILE]]:12:6: error: expected error "a different message" was not produced
// MISSING: [[FILE]]:19:6: error: expected '{{[{][{]}}' and '{{[}][}]}}' around the expected message

func.func @plus(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{dims is not a permutation of [0, 2)}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @above(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // expected-error@above {{not a permutation}}
  return
}

// -----

func.func @below(%a: tensor<2x3xf32>) {
  // expected-error@below {{not a permutation}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @minus(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>

  // expected-error@-2 {{not a permutation}}
  return
}

// -----

func.func @same_line(%a: tensor<2x3xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32> // expected-error {{not a permutation}}
  return
}
