// permute dims that are not a permutation.
// RUN: not fuser-opt %s 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2x3xf32>) {
  // CHECK: [[FILE]]:[[@LINE+2]]:8: error: 'fuser.permute' op dims is not a permutation of [0, 2)
  // CHECK-NEXT: %0 = "fuser.permute"
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}
