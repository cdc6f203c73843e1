// An attribute of the wrong kind: permute's dims must be a dense array.
// RUN: not fuser-opt %s 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2x3xf32>) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.permute' op attribute 'dims': expected base attribute 'builtin.dense_array' but got 'builtin.integer'
  %0 = "fuser.permute"(%a) {dims = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}
