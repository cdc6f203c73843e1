// A binary op with one operand.
// RUN: not fuser-opt %s 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2xf32>) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.add' op expects exactly 2 operands, but got 1
  %0 = "fuser.add"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}
