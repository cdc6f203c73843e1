// Plan-level ops (made by the passes) have no nvFuser spelling: exporting
// them is a located error, and nothing is printed.
// RUN: not fuser-translate --export-nvfuser %s 2>&1 | FileCheck %s
// CHECK: export-plan-op.mlir:[[@LINE+3]]:8: error: cannot export 'fuser.view' to an nvFuser script (a plan-level op; export before the passes)
// CHECK-NOT: fd.ops
func.func @f(%a: tensor<8xf32>) -> tensor<4xf32> attributes {fuser.fusion} {
  %0 = "fuser.view"(%a) {static_offset = 0 : i64, static_strides = array<i64: 2>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
