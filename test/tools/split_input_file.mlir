// --split-input-file: each chunk is parsed, verified and printed on its own;
// outputs are separated by `// -----`; errors keep whole-file line numbers
// and the exit is non-zero if any chunk fails, after every chunk has run.
// RUN: fuser-opt %s -split-input-file | FileCheck %s
// RUN: not fuser-opt %s -split-input-file -DBAD 2>&1 | FileCheck %s --check-prefix=NOFLAG
// NOFLAG: fuser-opt: error: unknown option '-DBAD'

// CHECK-LABEL: func.func @first
// CHECK: "fuser.neg"
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @second
// CHECK: "fuser.exp"
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @third
func.func @first(%a: tensor<2xf32>) {
  %0 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @second(%a: tensor<2xf32>) {
  %0 = "fuser.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @third() {
  return
}
