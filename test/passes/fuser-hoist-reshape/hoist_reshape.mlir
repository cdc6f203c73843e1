// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-hoist-reshape)' | FileCheck %s

// Splitting heads of a computed value: the reshape moves onto the input (one
// reshape for both operands of the mul), where fuser-alias-meta-ops makes it
// a view; the output keeps the order the fusion as written infers
// (row-major: the split ends the input's innermost mapping), pinned.
// CHECK-LABEL: func.func @split_heads
// CHECK-SAME: -> (tensor<2x4x64x64xbf16> {fuser.stride_order = array<i64: 3, 2, 1, 0>})
// CHECK-NEXT: %[[R:.*]] = "fuser.reshape"(%arg0) : (tensor<2x64x256xbf16>) -> tensor<2x64x4x64xbf16>
// CHECK-NEXT: %[[M:.*]] = "fuser.mul"(%[[R]], %[[R]]) : (tensor<2x64x4x64xbf16>, tensor<2x64x4x64xbf16>) -> tensor<2x64x4x64xf32>
// CHECK-NEXT: %[[C:.*]] = "fuser.cast"(%[[M]]) {dtype = bf16} : (tensor<2x64x4x64xf32>) -> tensor<2x64x4x64xbf16>
// CHECK-NEXT: "fuser.permute"(%[[C]])
func.func @split_heads(%arg0: tensor<2x64x256xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}) -> tensor<2x4x64x64xbf16> attributes {fuser.fusion} {
  %0 = "fuser.mul"(%arg0, %arg0) : (tensor<2x64x256xbf16>, tensor<2x64x256xbf16>) -> tensor<2x64x256xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<2x64x256xf32>) -> tensor<2x64x256xbf16>
  %2 = "fuser.reshape"(%1) : (tensor<2x64x256xbf16>) -> tensor<2x64x4x64xbf16>
  %3 = "fuser.permute"(%2) {dims = array<i64: 0, 2, 1, 3>} : (tensor<2x64x4x64xbf16>) -> tensor<2x4x64x64xbf16>
  return %3 : tensor<2x4x64x64xbf16>
}

// -----

// Two inputs and a scalar: a reshape per tensor operand, with the reshape's
// own shape operand.
// CHECK-LABEL: func.func @two_inputs
// CHECK: %[[RA:.*]] = "fuser.reshape"(%arg0, %arg2) : (tensor<?x8xf32>, i64) -> tensor<?x2x4xf32>
// CHECK: %[[RB:.*]] = "fuser.reshape"(%arg1, %arg2) : (tensor<?x8xf32>, i64) -> tensor<?x2x4xf32>
// CHECK: %[[S:.*]] = "fuser.sub"(%[[RA]], %[[RB]])
// CHECK: %[[M:.*]] = "fuser.mul"(%[[S]], %{{.*}}) : (tensor<?x2x4xf32>, f64) -> tensor<?x2x4xf32>
// CHECK: return %[[M]]
func.func @two_inputs(%arg0: tensor<?x8xf32>, %arg1: tensor<?x8xf32>, %arg2: i64) -> tensor<?x2x4xf32> attributes {fuser.fusion} {
  %c = "fuser.scalar"() {value = 2.0 : f64} : () -> f64
  %0 = "fuser.sub"(%arg0, %arg1) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = "fuser.mul"(%0, %c) : (tensor<?x8xf32>, f64) -> tensor<?x8xf32>
  %2 = "fuser.reshape"(%1, %arg2) : (tensor<?x8xf32>, i64) -> tensor<?x2x4xf32>
  return %2 : tensor<?x2x4xf32>
}

// -----

// Not moved: the computed value has another use (moving would compute it
// twice), an operand of another shape than the result (4x8 beside ?x8), and
// a reshape of a permute (not elementwise).
// CHECK-LABEL: func.func @stays
// CHECK: %[[E:.*]] = "fuser.exp"(%arg0)
// CHECK: "fuser.reshape"(%[[E]])
// CHECK: %[[A:.*]] = "fuser.add"(%arg0, %arg1)
// CHECK: "fuser.reshape"(%[[A]])
// CHECK: %[[P:.*]] = "fuser.permute"
// CHECK: "fuser.reshape"(%[[P]])
func.func @stays(%arg0: tensor<4x8xf32>, %arg1: tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) attributes {fuser.fusion} {
  %0 = "fuser.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.reshape"(%0) : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = "fuser.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<?x8xf32>) -> tensor<4x8xf32>
  %3 = "fuser.reshape"(%2) : (tensor<4x8xf32>) -> tensor<32xf32>
  %4 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "fuser.permute"(%4) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %6 = "fuser.reshape"(%5) : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0, %1, %3, %6 : tensor<4x8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
}

// -----

// Two outputs that share the ops above a moving reshape: each gets the order
// of the fusion as written (the second output's path meets the first's at
// %3; a walk that stopped at the reshape once must not answer "no" for it).
// CHECK-LABEL: func.func @shared_path
// CHECK-SAME: -> (tensor<2x4x64x64xbf16> {fuser.stride_order = array<i64: [[ORDER:[0-9, ]+]]>}, tensor<2x4x64x64xbf16> {fuser.stride_order = array<i64: [[ORDER]]>})
func.func @shared_path(%arg0: tensor<2x64x256xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}, %arg1: tensor<2x64x4x64xbf16>) -> (tensor<2x4x64x64xbf16>, tensor<2x4x64x64xbf16>) attributes {fuser.fusion} {
  %0 = "fuser.mul"(%arg0, %arg0) : (tensor<2x64x256xbf16>, tensor<2x64x256xbf16>) -> tensor<2x64x256xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<2x64x256xf32>) -> tensor<2x64x256xbf16>
  %2 = "fuser.reshape"(%1) : (tensor<2x64x256xbf16>) -> tensor<2x64x4x64xbf16>
  %3 = "fuser.add"(%arg1, %2) : (tensor<2x64x4x64xbf16>, tensor<2x64x4x64xbf16>) -> tensor<2x64x4x64xf32>
  %4 = "fuser.cast"(%3) {dtype = bf16} : (tensor<2x64x4x64xf32>) -> tensor<2x64x4x64xbf16>
  %5 = "fuser.permute"(%4) {dims = array<i64: 0, 2, 1, 3>} : (tensor<2x64x4x64xbf16>) -> tensor<2x4x64x64xbf16>
  %n = "fuser.neg"(%3) : (tensor<2x64x4x64xf32>) -> tensor<2x64x4x64xf32>
  %6 = "fuser.cast"(%n) {dtype = bf16} : (tensor<2x64x4x64xf32>) -> tensor<2x64x4x64xbf16>
  %7 = "fuser.permute"(%6) {dims = array<i64: 0, 2, 1, 3>} : (tensor<2x64x4x64xbf16>) -> tensor<2x4x64x64xbf16>
  return %5, %7 : tensor<2x4x64x64xbf16>, tensor<2x4x64x64xbf16>
}
