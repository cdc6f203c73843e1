// A slice past the end of a static extent.
// RUN: not fuser-opt %s 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2x8xf32>) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.slice' op slice end exceeds the extent of dim 1 (12 > 8)
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0, 4>, end_indices = array<i64: 2, 12>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}
