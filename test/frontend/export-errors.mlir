// Export errors: an op the script format cannot express, and a module
// without a fusion. Nothing is written on error.
// RUN: rm -f %t.py
// RUN: not fuser-translate --export-nvfuser %s -o %t.py 2>&1 | FileCheck %s
// RUN: not test -e %t.py
// RUN: echo 'module {}' > %t.empty.mlir
// RUN: not fuser-translate --export-nvfuser %t.empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY

module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {fuser.fusion} {
// CHECK: export-errors.mlir:[[@LINE+1]]:10: error: cannot export 'arith.addf' to an nvFuser script (only fuser ops)
    %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
// EMPTY: error: no fusion function (a func.func with fuser.fusion) to export
