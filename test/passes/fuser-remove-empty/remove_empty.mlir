// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-remove-empty)' | FileCheck %s

// cat with an empty operand is its other operand (the seed's (2,16,1024,0)).
// CHECK-LABEL: func.func @cat_empty
// CHECK-NOT: fuser.cat
// CHECK: "fuser.neg"(%arg0)
// CHECK-NEXT: %[[C:.*]] = "fuser.cast"
// CHECK-NEXT: return %[[C]]
func.func @cat_empty(%arg0: tensor<4x8xbf16>, %arg1: tensor<4x0xbf16>) -> tensor<4x8xbf16> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
  %1 = "fuser.cast"(%0) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %2 = "fuser.cat"(%arg1, %1) {dim = 1 : i64} : (tensor<4x0xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %2 : tensor<4x8xbf16>
}

// -----

// Zero pads, full slices and sets forward their input.
// CHECK-LABEL: func.func @no_ops
// CHECK-NOT: fuser.pad
// CHECK-NOT: fuser.slice
// CHECK-NOT: fuser.set
// CHECK: return %arg0
func.func @no_ops(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %z = "fuser.scalar"() {value = 0.0 : f64} : () -> f64
  %0 = "fuser.pad"(%arg0, %z) {pad_widths = array<i64: 0, 0, 0, 0>} : (tensor<4x8xf32>, f64) -> tensor<4x8xf32>
  %1 = "fuser.slice"(%0) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 4, 8>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "fuser.set"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A cat whose empty operand is only symbolically empty stays.
// CHECK-LABEL: func.func @cat_symbolic
// CHECK: fuser.cat
func.func @cat_symbolic(%arg0: tensor<4x8xf32>, %arg1: tensor<4x?xf32>) -> tensor<4x?xf32> attributes {fuser.fusion} {
  %0 = "fuser.cat"(%arg0, %arg1) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// A set with its own stride order (fd.ops.stride_order) stores its input in
// that layout: it stays.
// CHECK-LABEL: func.func @layout_set
// CHECK: %[[S:.*]] = "fuser.set"(%arg0) {fuser.stride_order = array<i64: 0, 1>}
// CHECK: return %[[S]]
func.func @layout_set(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.set"(%arg0) {fuser.stride_order = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
