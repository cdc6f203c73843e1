// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order)' | FileCheck %s

// Run after fuser-alias-meta-ops, the pass reads the views' strides. A
// transpose of a `?x?` row-major input is a view with a symbolic stride
// (size(arg0, 1)) on dim 1 and stride 1 on dim 0: compared at the generic
// point, dim 1 is outermost, so the transposed computation is allocated
// column-major and reads the input in its memory order.
// CHECK-LABEL: func.func @symbolic_transpose
// CHECK-SAME: -> (tensor<?x?xf32> {fuser.stride_order = array<i64: 0, 1>})
// CHECK: %[[V:.*]] = "fuser.view"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {static_offset = 0 : i64, static_strides = array<i64: 1, -9223372036854775808>}
// CHECK: "fuser.neg"(%[[V]]) {fuser.stride_order = array<i64: 0, 1>}
func.func @symbolic_transpose(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "fuser.neg"(%0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// Symbolic strides are products of the input's sizes: a `?x?x?` input
// permuted to (2, 0, 1) has view strides (1, size(1) * size(2), size(2)),
// so its allocation order is {1, 2, 0} and a consumer gets stride_order
// [0, 2, 1]: the input's memory order.
// CHECK-LABEL: func.func @symbolic_permute3
// CHECK: "fuser.exp"(%{{.*}}) {fuser.stride_order = array<i64: 0, 2, 1>}
func.func @symbolic_permute3(%arg0: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 2, 0, 1>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %1 = "fuser.exp"(%0) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %1 : tensor<?x?x?xf32>
}
