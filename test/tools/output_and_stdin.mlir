// Input from a file, from stdin ('-' or no argument) and output with -o all
// give the same text; errors on stdin are located in "<stdin>".
// RUN: fuser-opt %s > %t.file.mlir
// RUN: fuser-opt < %s > %t.stdin.mlir
// RUN: fuser-opt - < %s > %t.dash.mlir
// RUN: fuser-opt %s -o %t.o.mlir
// RUN: diff %t.file.mlir %t.stdin.mlir
// RUN: diff %t.file.mlir %t.dash.mlir
// RUN: diff %t.file.mlir %t.o.mlir
// RUN: FileCheck %s < %t.o.mlir
// RUN: fuser-opt %s -o - | FileCheck %s
// RUN: not fuser-opt < %S/Inputs/truncated.mlir 2>&1 | FileCheck %s --check-prefix=STDIN-ERR
// STDIN-ERR: <stdin>:3:46: error: expected non-function type

// CHECK: func.func @f(%arg0: tensor<2xbf16>) -> tensor<2xf32>
// CHECK-NEXT: %0 = "fuser.cast"(%arg0) : (tensor<2xbf16>) -> tensor<2xf32>
func.func @f(%a: tensor<2xbf16>) -> tensor<2xf32> {
  %0 = "fuser.cast"(%a) : (tensor<2xbf16>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
