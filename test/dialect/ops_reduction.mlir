// Round trip of the reductions (sum max min prod var_mean): the result
// dtype of sum/max/min/prod is stated by the result type (nvFuser's dtype=),
// var_mean computes in float; keepdim keeps reduced dims as 1.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @sum
// CHECK: "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xbf16>) -> tensor<2xf32>
// CHECK: "fuser.sum"(%arg1) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<?x?x?xf32>) -> tensor<1x?x1xf32>
func.func @sum(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?x?xf32>) {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xbf16>) -> tensor<2xf32>
  %1 = "fuser.sum"(%arg1) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<?x?x?xf32>) -> tensor<1x?x1xf32>
  return
}

// CHECK-LABEL: func.func @max
// CHECK: "fuser.max"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<2x8xbf16>) -> tensor<bf16>
// CHECK: "fuser.max"(%arg1) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xi64>) -> tensor<?xi64>
func.func @max(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xi64>) {
  %0 = "fuser.max"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<2x8xbf16>) -> tensor<bf16>
  %1 = "fuser.max"(%arg1) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xi64>) -> tensor<?xi64>
  return
}

// CHECK-LABEL: func.func @min
// CHECK: "fuser.min"(%arg0) {dims = array<i64: 0>, keepdim = true} : (tensor<2x8xbf16>) -> tensor<1x8xbf16>
// CHECK: "fuser.min"(%arg1) {dims = array<i64: 0>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
func.func @min(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>) {
  %0 = "fuser.min"(%arg0) {dims = array<i64: 0>, keepdim = true} : (tensor<2x8xbf16>) -> tensor<1x8xbf16>
  %1 = "fuser.min"(%arg1) {dims = array<i64: 0>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
  return
}

// CHECK-LABEL: func.func @prod
// CHECK: "fuser.prod"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
// CHECK: "fuser.prod"(%arg1) {dims = array<i64: 1>, keepdim = true} : (tensor<?x?xf64>) -> tensor<?x1xf64>
func.func @prod(%arg0: tensor<2x8xf32>, %arg1: tensor<?x?xf64>) {
  %0 = "fuser.prod"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
  %1 = "fuser.prod"(%arg1) {dims = array<i64: 1>, keepdim = true} : (tensor<?x?xf64>) -> tensor<?x1xf64>
  return
}

// CHECK-LABEL: func.func @var_mean
// CHECK: "fuser.var_mean"(%arg0) {correction = 1 : i64, dims = array<i64: 1>, keepdim = false} : (tensor<2x8xbf16>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: "fuser.var_mean"(%arg1) {correction = 0 : i64, dims = array<i64: 0>, keepdim = true} : (tensor<?x?xf64>) -> (tensor<1x?xf64>, tensor<1x?xf64>)
func.func @var_mean(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf64>) {
  %0:2 = "fuser.var_mean"(%arg0) {dims = array<i64: 1>, correction = 1 : i64, keepdim = false} : (tensor<2x8xbf16>) -> (tensor<2xf32>, tensor<2xf32>)
  %1:2 = "fuser.var_mean"(%arg1) {dims = array<i64: 0>, correction = 0 : i64, keepdim = true} : (tensor<?x?xf64>) -> (tensor<1x?xf64>, tensor<1x?xf64>)
  return
}
