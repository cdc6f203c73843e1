// Round trip of the matrix products (matmul, linear): torch.matmul's shape
// rules (1-D operands drop M or N, batch dims broadcast right-aligned) and
// linear's (input [..., K] @ weight[N, K].T + bias); the result keeps the
// operands' dtype.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @matmul
// CHECK: "fuser.matmul"(%arg0, %arg1) : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xbf16>
// CHECK: "fuser.matmul"(%arg2, %arg1) : (tensor<16xbf16>, tensor<16x4xbf16>) -> tensor<4xbf16>
// CHECK: "fuser.matmul"(%arg0, %arg2) : (tensor<8x16xbf16>, tensor<16xbf16>) -> tensor<8xbf16>
// CHECK: "fuser.matmul"(%arg2, %arg2) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<bf16>
// CHECK: "fuser.matmul"(%arg3, %arg4) : (tensor<?x1x?x?xf16>, tensor<3x?x?xf16>) -> tensor<?x3x?x?xf16>
func.func @matmul(%arg0: tensor<8x16xbf16>, %arg1: tensor<16x4xbf16>, %arg2: tensor<16xbf16>,
                  %arg3: tensor<?x1x?x?xf16>, %arg4: tensor<3x?x?xf16>) {
  %0 = "fuser.matmul"(%arg0, %arg1) : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xbf16>
  %1 = "fuser.matmul"(%arg2, %arg1) : (tensor<16xbf16>, tensor<16x4xbf16>) -> tensor<4xbf16>
  %2 = "fuser.matmul"(%arg0, %arg2) : (tensor<8x16xbf16>, tensor<16xbf16>) -> tensor<8xbf16>
  %3 = "fuser.matmul"(%arg2, %arg2) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<bf16>
  %4 = "fuser.matmul"(%arg3, %arg4) : (tensor<?x1x?x?xf16>, tensor<3x?x?xf16>) -> tensor<?x3x?x?xf16>
  return
}

// CHECK-LABEL: func.func @linear
// CHECK: "fuser.linear"(%arg0, %arg1) : (tensor<2x?x16xf32>, tensor<4x16xf32>) -> tensor<2x?x4xf32>
// CHECK: "fuser.linear"(%arg0, %arg1, %arg2) : (tensor<2x?x16xf32>, tensor<4x16xf32>, tensor<4xf32>) -> tensor<2x?x4xf32>
// CHECK: "fuser.linear"(%arg0, %arg3, %arg4) : (tensor<2x?x16xf32>, tensor<16xf32>, tensor<f32>) -> tensor<2x?xf32>
func.func @linear(%arg0: tensor<2x?x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<4xf32>, %arg3: tensor<16xf32>,
                  %arg4: tensor<f32>) {
  %0 = "fuser.linear"(%arg0, %arg1) : (tensor<2x?x16xf32>, tensor<4x16xf32>) -> tensor<2x?x4xf32>
  %1 = "fuser.linear"(%arg0, %arg1, %arg2) : (tensor<2x?x16xf32>, tensor<4x16xf32>, tensor<4xf32>) -> tensor<2x?x4xf32>
  %2 = "fuser.linear"(%arg0, %arg3, %arg4) : (tensor<2x?x16xf32>, tensor<16xf32>, tensor<f32>) -> tensor<2x?xf32>
  return
}
