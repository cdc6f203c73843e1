// cat operands that differ outside the cat dim.
// RUN: not fuser-opt %s 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2x8xf32>, %b: tensor<4x8xf32>) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.cat' op cat operands differ in dim 0 (2 and 4), not the cat dim
  %0 = "fuser.cat"(%a, %b) {dim = 1 : i64} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x16xf32>
  return
}
