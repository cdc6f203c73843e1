// Round trip of the ternary ops (where, clamp, lerp): static, symbolic and
// broadcast shapes, scalar operands, and their result dtypes.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// where keeps the values' dtype (no bf16 -> f32), the condition is i1.
// CHECK-LABEL: func.func @where
// CHECK: "fuser.where"(%arg0, %arg1, %arg1) : (tensor<2x8xi1>, tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.where"(%arg2, %arg3, %arg4) : (tensor<?x1xi1>, tensor<?x?xf32>, f64) -> tensor<?x?xf32>
// CHECK: "fuser.where"(%arg5, %arg4, %arg4) : (i1, f64, f64) -> f64
func.func @where(%arg0: tensor<2x8xi1>, %arg1: tensor<2x8xbf16>, %arg2: tensor<?x1xi1>, %arg3: tensor<?x?xf32>, %arg4: f64, %arg5: i1) {
  %0 = "fuser.where"(%arg0, %arg1, %arg1) : (tensor<2x8xi1>, tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.where"(%arg2, %arg3, %arg4) : (tensor<?x1xi1>, tensor<?x?xf32>, f64) -> tensor<?x?xf32>
  %2 = "fuser.where"(%arg5, %arg4, %arg4) : (i1, f64, f64) -> f64
  return
}

// CHECK-LABEL: func.func @clamp
// CHECK: "fuser.clamp"(%arg0, %arg2, %arg2) : (tensor<2x8xbf16>, f64, f64) -> tensor<2x8xf32>
// CHECK: "fuser.clamp"(%arg1, %arg2, %arg2) : (tensor<?x?xf32>, f64, f64) -> tensor<?x?xf32>
func.func @clamp(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>, %arg2: f64) {
  %0 = "fuser.clamp"(%arg0, %arg2, %arg2) : (tensor<2x8xbf16>, f64, f64) -> tensor<2x8xf32>
  %1 = "fuser.clamp"(%arg1, %arg2, %arg2) : (tensor<?x?xf32>, f64, f64) -> tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @lerp
// CHECK: "fuser.lerp"(%arg0, %arg1, %arg3) : (tensor<2x8xbf16>, tensor<1x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.lerp"(%arg2, %arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @lerp(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.lerp"(%arg0, %arg1, %arg3) : (tensor<2x8xbf16>, tensor<1x8xbf16>, f64) -> tensor<2x8xf32>
  %1 = "fuser.lerp"(%arg2, %arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return
}
