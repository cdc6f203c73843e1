// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-split-reductions)' | FileCheck %s
// Full reductions run in two stages: the innermost dim, then the rows.

// amax of a 2-D tensor.
// CHECK-LABEL: func.func @amax
// CHECK: %[[R:.*]] = "fuser.max"(%{{.*}}) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
// CHECK: "fuser.max"(%[[R]]) {dims = array<i64: 0>, keepdim = false} : (tensor<?xf32>) -> tensor<f32>
func.func @amax(%arg0: tensor<?x?xf32>) -> tensor<f32> attributes {fuser.fusion} {
  %0 = "fuser.abs"(%arg0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// A bf16 sum of rank 3: the stages keep f32 (no double rounding), twice split.
// CHECK-LABEL: func.func @loss
// CHECK: %[[A:.*]] = "fuser.sum"(%arg0) {dims = array<i64: 2>, keepdim = false} : (tensor<4x8x16xbf16>) -> tensor<4x8xf32>
// CHECK: %[[B:.*]] = "fuser.sum"(%[[A]]) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK: "fuser.sum"(%[[B]]) {dims = array<i64: 0>, keepdim = false} : (tensor<4xf32>) -> tensor<bf16>
func.func @loss(%arg0: tensor<4x8x16xbf16>) -> tensor<bf16> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1, 2>, keepdim = false} : (tensor<4x8x16xbf16>) -> tensor<bf16>
  return %1 : tensor<bf16>
}

// -----

// Not split: keepdim, var_mean, a partial reduction, a 1-D input.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-1: "fuser.sum"
// CHECK: "fuser.var_mean"(%arg0) {correction = 0 : i64, dims = array<i64: 0, 1>
// CHECK: "fuser.max"(%arg0) {dims = array<i64: 1>
// CHECK: "fuser.min"(%arg1) {dims = array<i64: 0>
func.func @kept(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>) -> (tensor<1x1xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>) attributes {fuser.fusion} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<1x1xf32>
  %1:2 = "fuser.var_mean"(%arg0) {correction = 0 : i64, dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x8xf32>) -> (tensor<f32>, tensor<f32>)
  %2 = "fuser.max"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %3 = "fuser.min"(%arg1) {dims = array<i64: 0>, keepdim = false} : (tensor<8xf32>) -> tensor<f32>
  return %0, %1#0, %2, %3 : tensor<1x1xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>
}
