// An op the dialect does not define.
// RUN: not fuser-opt %s 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2xf32>) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: unregistered operation 'fuser.nosuch' found in dialect ('fuser')
  %0 = "fuser.nosuch"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}
