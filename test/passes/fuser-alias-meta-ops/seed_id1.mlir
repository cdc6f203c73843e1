// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-alias-meta-ops)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-alias-meta-ops)' | FileCheck %s --check-prefix=GONE
// GONE-NOT: fuser.reshape
// GONE-NOT: fuser.permute
// GONE-NOT: fuser.slice
// GONE-NOT: fuser.segment_set

// The seed fusion id1 (nvFuser #2613): after alias elimination no reshape,
// permute or slice is left, and the computation reads views of the qkv input
// with exactly the sizes and strides seed id0 receives as as_strided inputs:
// (2, 16, 1024, 16) with strides (589824, 32, 576, 1), at offsets 0 and 16.

// CHECK-LABEL: func.func @nvfuser_fusion_id1
// CHECK-NOT: fuser.reshape
// CHECK-NOT: fuser.permute
// CHECK-NOT: fuser.slice
// CHECK-NOT: fuser.segment_set
// CHECK-DAG: %[[Q:.*]] = "fuser.view"(%arg2) {static_offset = 0 : i64, static_strides = array<i64: 589824, 32, 576, 1>} : (tensor<?x?x?xbf16>) -> tensor<2x16x1024x32xbf16>
// CHECK-DAG: %[[LO:.*]] = "fuser.view"(%arg2) {static_offset = 0 : i64, static_strides = array<i64: 589824, 32, 576, 1>} : (tensor<?x?x?xbf16>) -> tensor<2x16x1024x16xbf16>
// CHECK-DAG: %[[HI:.*]] = "fuser.view"(%arg2) {static_offset = 16 : i64, static_strides = array<i64: 589824, 32, 576, 1>} : (tensor<?x?x?xbf16>) -> tensor<2x16x1024x16xbf16>
// The rotary tables broadcast with stride 0 on the batch and head dims; their
// `?x?` extents are pinned to 1024x32 by the broadcast, so strides are static.
// CHECK-DAG: %[[COS:.*]] = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 0, 0, 32, 1>}
// CHECK-DAG: %[[SIN:.*]] = "fuser.view"(%arg1) {static_offset = 0 : i64, static_strides = array<i64: 0, 0, 32, 1>}
// CHECK-DAG: %[[C:.*]] = "fuser.cast"(%[[HI]])
// CHECK-DAG: %[[N:.*]] = "fuser.neg"(%[[C]])
// CHECK-DAG: %[[B:.*]] = "fuser.cast"(%[[N]])
// CHECK-DAG: "fuser.cat"(%[[B]], %[[LO]]) {dim = 3 : i64}
// CHECK-DAG: "fuser.cast"(%[[Q]])
// CHECK-DAG: "fuser.cast"(%[[COS]])
// CHECK-DAG: "fuser.cast"(%[[SIN]])
// CHECK: return
// CHECK-NOT: fuser.segment_set

func.func @nvfuser_fusion_id1(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
                              %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
                              %arg2: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>})
    -> tensor<2x16x1024x32xbf16> attributes {fuser.fusion} {
  %T9 = "fuser.reshape"(%arg2) : (tensor<?x?x?xbf16>) -> tensor<2x1024x1x18x32xbf16>
  %T10 = "fuser.permute"(%T9) {dims = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x1024x1x18x32xbf16>) -> tensor<2x1x18x1024x32xbf16>
  %T11 = "fuser.slice"(%T10) {start_indices = array<i64: 0, 0, 0, 0, 0>, end_indices = array<i64: 2, 1, 16, 1024, 32>, strides = array<i64: 1, 1, 1, 1, 1>} : (tensor<2x1x18x1024x32xbf16>) -> tensor<2x1x16x1024x32xbf16>
  %T17 = "fuser.reshape"(%T11) : (tensor<2x1x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
  %T18 = "fuser.slice"(%T17) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 16, 1024, 16>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
  %T19 = "fuser.slice"(%T17) {start_indices = array<i64: 0, 0, 0, 16>, end_indices = array<i64: 2, 16, 1024, 32>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
  %T20 = "fuser.slice"(%T17) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 16, 1024, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x0xbf16>
  %S17 = "fuser.segment_set"(%T17) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
  %S18 = "fuser.segment_set"(%T18) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
  %S19 = "fuser.segment_set"(%T19) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
  %S20 = "fuser.segment_set"(%T20) : (tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x0xbf16>
  %T21 = "fuser.cast"(%S19) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
  %T22 = "fuser.neg"(%T21) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
  %T23 = "fuser.cast"(%T22) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xbf16>
  %T24 = "fuser.cat"(%T23, %S18) {dim = 3 : i64} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
  %T30 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
  %T31 = "fuser.cast"(%S17) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %T32 = "fuser.cast"(%T30) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %T33 = "fuser.mul"(%T31, %T32) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
  %T39 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
  %T40 = "fuser.cast"(%T24) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %T41 = "fuser.cast"(%T39) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
  %T42 = "fuser.mul"(%T40, %T41) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
  %T43 = "fuser.add"(%T33, %T42) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
  %T44 = "fuser.cast"(%T43) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
  %T45 = "fuser.cat"(%T44, %S20) {dim = 3 : i64} : (tensor<2x16x1024x32xbf16>, tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x32xbf16>
  return %T45 : tensor<2x16x1024x32xbf16>
}
