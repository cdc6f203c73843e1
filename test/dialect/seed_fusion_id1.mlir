// The seed's fusion id1 (corpus/seed/seed_fusion_id1.py) written by hand in
// the fuser dialect: rotary-embedding style slices, a negated half, two cats
// and two broadcast multiplies. Shape vectors of constant scalars are folded
// into the result types; `cat(..., dim=-1)` is dim 3; segment_set ops stay.
// RUN: fuser-opt %s | FileCheck %s
// Round trip: the printed IR parses and prints to the same text.
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-verify)' | FileCheck %s

// CHECK-LABEL: func.func @nvfuser_fusion_id1(
// CHECK-SAME: %arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}
// CHECK-SAME: %arg2: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}
// CHECK-SAME: -> tensor<2x16x1024x32xbf16>
// CHECK-SAME: fuser.fusion
// CHECK-SAME: fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}
// CHECK: %[[R:.*]] = "fuser.reshape"(%arg2) : (tensor<?x?x?xbf16>) -> tensor<2x1024x1x18x32xbf16>
// CHECK: %[[P:.*]] = "fuser.permute"(%[[R]]) {dims = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x1024x1x18x32xbf16>) -> tensor<2x1x18x1024x32xbf16>
// CHECK: "fuser.slice"(%[[P]])
// CHECK-SAME: -> tensor<2x1x16x1024x32xbf16>
// CHECK: %[[T17:.*]] = "fuser.reshape"({{.*}}) : (tensor<2x1x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
// CHECK-COUNT-3: "fuser.slice"(%[[T17]])
// CHECK-COUNT-4: "fuser.segment_set"
// CHECK: "fuser.cast"({{.*}}) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
// CHECK-NEXT: "fuser.neg"({{.*}}) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
// CHECK: "fuser.cat"({{.*}}) {{.*}}dim = 3 : i64{{.*}} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
// CHECK: "fuser.broadcast_in_dim"(%arg0) {{.*}}broadcast_dims = array<i64: 2, 3>{{.*}} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
// CHECK: "fuser.mul"({{.*}}) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
// CHECK: "fuser.add"
// CHECK: %[[OUT:.*]] = "fuser.cat"({{.*}}) {{.*}} : (tensor<2x16x1024x32xbf16>, tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x32xbf16>
// CHECK: return %[[OUT]]

func.func @nvfuser_fusion_id1(
    %arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
    %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
    %arg2: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>})
    -> tensor<2x16x1024x32xbf16>
    attributes {fuser.fusion, fuser.inputs = [
      {factory = "randn", dtype = bf16, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>,
       strides = array<i64: 32, 1>, offset = 0 : i64},
      {factory = "randn", dtype = bf16, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>,
       strides = array<i64: 32, 1>, offset = 0 : i64},
      {factory = "randn", dtype = bf16, shape = array<i64: 1179648>, sizes = array<i64: 2, 1024, 576>,
       strides = array<i64: 589824, 576, 1>, offset = 0 : i64}]} {
  // T9 = reshape(T2, [2, 1024, 1, 18, 32]); T10 = permute(T9, [0, 2, 3, 1, 4])
  %0 = "fuser.reshape"(%arg2) : (tensor<?x?x?xbf16>) -> tensor<2x1024x1x18x32xbf16>
  %1 = "fuser.permute"(%0) {dims = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x1024x1x18x32xbf16>) -> tensor<2x1x18x1024x32xbf16>
  // T11 = slice(T10, [0..], [2, 1, 16, 1024, 32]); T17 = reshape(T11, [2, 16, 1024, 32])
  %2 = "fuser.slice"(%1) {start_indices = array<i64: 0, 0, 0, 0, 0>, end_indices = array<i64: 2, 1, 16, 1024, 32>, strides = array<i64: 1, 1, 1, 1, 1>} : (tensor<2x1x18x1024x32xbf16>) -> tensor<2x1x16x1024x32xbf16>
  %3 = "fuser.reshape"(%2) : (tensor<2x1x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
  // T18, T19: the two halves of the last dim; T20: an empty slice
  %4 = "fuser.slice"(%3) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 16, 1024, 16>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
  %5 = "fuser.slice"(%3) {start_indices = array<i64: 0, 0, 0, 16>, end_indices = array<i64: 2, 16, 1024, 32>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
  %6 = "fuser.slice"(%3) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 16, 1024, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x0xbf16>
  %7 = "fuser.segment_set"(%3) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
  %8 = "fuser.segment_set"(%4) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
  %9 = "fuser.segment_set"(%5) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
  %10 = "fuser.segment_set"(%6) : (tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x0xbf16>
  // T24 = cat([bf16(-f32(T19)), T18], dim=-1)
  %11 = "fuser.cast"(%9) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
  %12 = "fuser.neg"(%11) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
  %13 = "fuser.cast"(%12) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xbf16>
  %14 = "fuser.cat"(%13, %8) {dim = 3 : i64} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
  // T33 = f32(T17) * f32(broadcast_in_dim(T0, [2, 16, 1024, 32], [2, 3]))
  %15 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
  %16 = "fuser.cast"(%7) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %17 = "fuser.cast"(%15) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %18 = "fuser.mul"(%16, %17) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
  // T42 = f32(T24) * f32(broadcast_in_dim(T1, [2, 16, 1024, 32], [2, 3]))
  %19 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
  %20 = "fuser.cast"(%14) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %21 = "fuser.cast"(%19) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %22 = "fuser.mul"(%20, %21) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
  // T45 = cat([bf16(T33 + T42), T20], dim=-1)
  %23 = "fuser.add"(%18, %22) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
  %24 = "fuser.cast"(%23) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
  %25 = "fuser.cat"(%24, %10) {dim = 3 : i64} : (tensor<2x16x1024x32xbf16>, tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x32xbf16>
  return %25 : tensor<2x16x1024x32xbf16>
}
