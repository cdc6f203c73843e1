// Round trip of the meta ops (broadcast_in_dim broadcast expand reshape
// permute slice squeeze pad cat set segment_set): static and symbolic
// shapes; shape-taking ops get one i64 operand per `?` result dim.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK: "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 1>} : (tensor<8xbf16>) -> tensor<4x8xbf16>
// CHECK: "fuser.broadcast_in_dim"(%arg1, %arg2, %arg2) {broadcast_dims = array<i64: 0, 2>} : (tensor<?x1xf32>, i64, i64) -> tensor<?x3x?xf32>
func.func @broadcast_in_dim(%arg0: tensor<8xbf16>, %arg1: tensor<?x1xf32>, %arg2: i64) {
  %0 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 1>} : (tensor<8xbf16>) -> tensor<4x8xbf16>
  %1 = "fuser.broadcast_in_dim"(%arg1, %arg2, %arg2) {broadcast_dims = array<i64: 0, 2>} : (tensor<?x1xf32>, i64, i64) -> tensor<?x3x?xf32>
  return
}

// CHECK-LABEL: func.func @broadcast
// CHECK: "fuser.broadcast"(%arg0) {is_broadcast_dim = array<i1: true, false>} : (tensor<8xbf16>) -> tensor<1x8xbf16>
// CHECK: "fuser.broadcast"(%arg1) {is_broadcast_dim = array<i1: false, true, false>} : (tensor<?x?xf32>) -> tensor<?x1x?xf32>
func.func @broadcast(%arg0: tensor<8xbf16>, %arg1: tensor<?x?xf32>) {
  %0 = "fuser.broadcast"(%arg0) {is_broadcast_dim = array<i1: true, false>} : (tensor<8xbf16>) -> tensor<1x8xbf16>
  %1 = "fuser.broadcast"(%arg1) {is_broadcast_dim = array<i1: false, true, false>} : (tensor<?x?xf32>) -> tensor<?x1x?xf32>
  return
}

// CHECK-LABEL: func.func @expand
// CHECK: "fuser.expand"(%arg0) : (tensor<1x8xbf16>) -> tensor<4x8xbf16>
// CHECK: "fuser.expand"(%arg1, %arg2, %arg2) : (tensor<1x?xf32>, i64, i64) -> tensor<?x?xf32>
func.func @expand(%arg0: tensor<1x8xbf16>, %arg1: tensor<1x?xf32>, %arg2: i64) {
  %0 = "fuser.expand"(%arg0) : (tensor<1x8xbf16>) -> tensor<4x8xbf16>
  %1 = "fuser.expand"(%arg1, %arg2, %arg2) : (tensor<1x?xf32>, i64, i64) -> tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @reshape
// CHECK: "fuser.reshape"(%arg0) : (tensor<2x8xbf16>) -> tensor<4x1x4xbf16>
// CHECK: "fuser.reshape"(%arg1, %arg2) : (tensor<?x?xf32>, i64) -> tensor<?x16xf32>
// CHECK: "fuser.reshape"(%arg0) : (tensor<2x8xbf16>) -> tensor<16xbf16>
func.func @reshape(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>, %arg2: i64) {
  %0 = "fuser.reshape"(%arg0) : (tensor<2x8xbf16>) -> tensor<4x1x4xbf16>
  %1 = "fuser.reshape"(%arg1, %arg2) : (tensor<?x?xf32>, i64) -> tensor<?x16xf32>
  %2 = "fuser.reshape"(%arg0) : (tensor<2x8xbf16>) -> tensor<16xbf16>
  return
}

// CHECK-LABEL: func.func @permute
// CHECK: "fuser.permute"(%arg0) {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
// CHECK: "fuser.permute"(%arg1) {dims = array<i64: 1, 0>} : (tensor<?x8xf32>) -> tensor<8x?xf32>
func.func @permute(%arg0: tensor<2x3x4xbf16>, %arg1: tensor<?x8xf32>) {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
  %1 = "fuser.permute"(%arg1) {dims = array<i64: 1, 0>} : (tensor<?x8xf32>) -> tensor<8x?xf32>
  return
}

// CHECK-LABEL: func.func @slice
// CHECK: "fuser.slice"(%arg0) {end_indices = array<i64: 2, 6>, start_indices = array<i64: 0, 2>, strides = array<i64: 1, 1>} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
// CHECK: "fuser.slice"(%arg1) {end_indices = array<i64: 100, 0>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>} : (tensor<?x?xf32>) -> tensor<99x0xf32>
func.func @slice(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>) {
  %0 = "fuser.slice"(%arg0) {start_indices = array<i64: 0, 2>, end_indices = array<i64: 2, 6>, strides = array<i64: 1, 1>} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
  %1 = "fuser.slice"(%arg1) {start_indices = array<i64: 1, 0>, end_indices = array<i64: 100, 0>, strides = array<i64: 1, 1>} : (tensor<?x?xf32>) -> tensor<99x0xf32>
  return
}

// CHECK-LABEL: func.func @squeeze
// CHECK: "fuser.squeeze"(%arg0) {dims = array<i64: 0, 2>} : (tensor<1x8x1xbf16>) -> tensor<8xbf16>
// CHECK: "fuser.squeeze"(%arg1) {dims = array<i64: 1>} : (tensor<?x1xf32>) -> tensor<?xf32>
func.func @squeeze(%arg0: tensor<1x8x1xbf16>, %arg1: tensor<?x1xf32>) {
  %0 = "fuser.squeeze"(%arg0) {dims = array<i64: 0, 2>} : (tensor<1x8x1xbf16>) -> tensor<8xbf16>
  %1 = "fuser.squeeze"(%arg1) {dims = array<i64: 1>} : (tensor<?x1xf32>) -> tensor<?xf32>
  return
}

// pad_widths: (left, right) pairs from the last dim, as torch's F.pad.
// CHECK-LABEL: func.func @pad
// CHECK: "fuser.pad"(%arg0, %arg2) {pad_widths = array<i64: 1, 2, 0, 3>} : (tensor<2x8xbf16>, f64) -> tensor<5x11xbf16>
// CHECK: "fuser.pad"(%arg1, %arg2) {pad_widths = array<i64: 4, 4>} : (tensor<?x?xf32>, f64) -> tensor<?x?xf32>
// CHECK: "fuser.pad"(%arg0, %arg2) {pad_widths = array<i64: -2, 0>} : (tensor<2x8xbf16>, f64) -> tensor<2x6xbf16>
func.func @pad(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>, %arg2: f64) {
  %0 = "fuser.pad"(%arg0, %arg2) {pad_widths = array<i64: 1, 2, 0, 3>} : (tensor<2x8xbf16>, f64) -> tensor<5x11xbf16>
  %1 = "fuser.pad"(%arg1, %arg2) {pad_widths = array<i64: 4, 4>} : (tensor<?x?xf32>, f64) -> tensor<?x?xf32>
  %2 = "fuser.pad"(%arg0, %arg2) {pad_widths = array<i64: -2, 0>} : (tensor<2x8xbf16>, f64) -> tensor<2x6xbf16>
  return
}

// cat is binary; an N-ary cat is a left-nested chain.
// CHECK-LABEL: func.func @cat
// CHECK: %[[C:.*]] = "fuser.cat"(%arg0, %arg1) {dim = 1 : i64} : (tensor<2x8xbf16>, tensor<2x3xbf16>) -> tensor<2x11xbf16>
// CHECK: "fuser.cat"(%[[C]], %arg0) {dim = 1 : i64} : (tensor<2x11xbf16>, tensor<2x8xbf16>) -> tensor<2x19xbf16>
// CHECK: "fuser.cat"(%arg2, %arg2) {dim = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
func.func @cat(%arg0: tensor<2x8xbf16>, %arg1: tensor<2x3xbf16>, %arg2: tensor<?x4xf32>) {
  %0 = "fuser.cat"(%arg0, %arg1) {dim = 1 : i64} : (tensor<2x8xbf16>, tensor<2x3xbf16>) -> tensor<2x11xbf16>
  %1 = "fuser.cat"(%0, %arg0) {dim = 1 : i64} : (tensor<2x11xbf16>, tensor<2x8xbf16>) -> tensor<2x19xbf16>
  %2 = "fuser.cat"(%arg2, %arg2) {dim = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return
}

// CHECK-LABEL: func.func @set
// CHECK: "fuser.set"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.set"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @set(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>) {
  %0 = "fuser.set"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.set"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @segment_set
// CHECK: "fuser.segment_set"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.segment_set"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @segment_set(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>) {
  %0 = "fuser.segment_set"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.segment_set"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return
}
