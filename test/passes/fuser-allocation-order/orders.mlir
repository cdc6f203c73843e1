// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-allocation-order)' | FileCheck %s

// nvFuser PR #2630's example: the reference is allocated {i2, i0, i1} (i1
// innermost). A target that lacks i1 gets no reordering (row-major): moving
// i2, i0 innermost would not help vectorization. A target with all of them
// gets the reference's order.
// CHECK-LABEL: func.func @pr2630
// CHECK-SAME: -> (tensor<4x6xf32> {fuser.stride_order = array<i64: 1, 0>}, tensor<4x5x6xf32> {fuser.stride_order = array<i64: 1, 0, 2>})
// CHECK: "fuser.sum"(%arg0) {dims = array<i64: 1>, fuser.stride_order = array<i64: 1, 0>, keepdim = false}
// CHECK: "fuser.neg"(%arg0) {fuser.stride_order = array<i64: 1, 0, 2>}
func.func @pr2630(%arg0: tensor<4x5x6xf32> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 1, 0, 2>}) -> (tensor<4x6xf32>, tensor<4x5x6xf32>) attributes {fuser.fusion} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x5x6xf32>) -> tensor<4x6xf32>
  %1 = "fuser.neg"(%arg0) : (tensor<4x5x6xf32>) -> tensor<4x5x6xf32>
  return %0, %1 : tensor<4x6xf32>, tensor<4x5x6xf32>
}

// -----

// The consecutive innermost run that the target has is carried over: the
// reference {i1, i2, i0} loses i1 in the reduction, i0 and i2 stay innermost.
// CHECK-LABEL: func.func @innermost_run
// CHECK-SAME: -> (tensor<4x6xf32> {fuser.stride_order = array<i64: 0, 1>})
func.func @innermost_run(%arg0: tensor<4x5x6xf32> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 0, 2, 1>}) -> tensor<4x6xf32> attributes {fuser.fusion} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x5x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// A permuted (column-major) input gives a column-major output.
// CHECK-LABEL: func.func @permuted_input
// CHECK-SAME: -> (tensor<4x8xbf16> {fuser.stride_order = array<i64: 0, 1>})
// CHECK-COUNT-3: fuser.stride_order = array<i64: 0, 1>
func.func @permuted_input(%arg0: tensor<4x8xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>}) -> tensor<4x8xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
  %1 = "fuser.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "fuser.cast"(%1) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %2 : tensor<4x8xbf16>
}

// -----

// With a broadcast input, the reference is the input with the most
// non-broadcast dims (here the column-major 2-D one).
// CHECK-LABEL: func.func @broadcast_input
// CHECK: "fuser.add"{{.*}}fuser.stride_order = array<i64: 0, 1>
func.func @broadcast_input(%arg0: tensor<1x8xf32> {fuser.contiguity = array<i64: -1, 1>, fuser.stride_order = array<i64: 1, 0>},
                           %arg1: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>}) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.add"(%arg0, %arg1) : (tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Ties between references that map differently: no propagation, row-major.
// CHECK-LABEL: func.func @tie_conflict
// CHECK: "fuser.add"{{.*}}fuser.stride_order = array<i64: 1, 0>
func.func @tie_conflict(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>},
                        %arg1: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Ties that agree propagate.
// CHECK-LABEL: func.func @tie_agree
// CHECK: "fuser.add"{{.*}}fuser.stride_order = array<i64: 0, 1>
func.func @tie_agree(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>},
                     %arg1: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 0>, fuser.stride_order = array<i64: 0, 1>}) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// An explicit add_output(..., stride_order=) wins over the inferred order.
// CHECK-LABEL: func.func @explicit_output
// CHECK-SAME: -> (tensor<4x8xf32> {fuser.stride_order = array<i64: 1, 0>})
func.func @explicit_output(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>}) -> (tensor<4x8xf32> {fuser.stride_order = array<i64: 1, 0>}) attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A trailing permute of a computed tensor: the output is laid out so that it
// is written in the input's order (a permuted view of a row-major buffer),
// never through a transposing copy.
// CHECK-LABEL: func.func @trailing_permute
// CHECK-SAME: -> (tensor<8x4xf32> {fuser.stride_order = array<i64: 0, 1>})
func.func @trailing_permute(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.permute"(%0) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A cat on the reference's innermost dim resizes it: no mapping, so the cat
// is row-major, while the element-wise op before it keeps the reference's
// allocation order {i1, i0, i2}.
// CHECK-LABEL: func.func @cat_innermost
// CHECK: "fuser.neg"{{.*}}fuser.stride_order = array<i64: 1, 2, 0>
// CHECK: "fuser.cat"{{.*}}fuser.stride_order = array<i64: 2, 1, 0>
func.func @cat_innermost(%arg0: tensor<2x3x4xf32> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 1, 2, 0>}) -> tensor<2x3x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = "fuser.cat"(%0, %arg0) {dim = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  return %1 : tensor<2x3x8xf32>
}

// -----

// broadcast_in_dim maps input dims onto output dims: a column-major 2-D
// input broadcast to 3-D keeps its two dims innermost, in its order (dim 0
// fastest), and the new dim goes outermost.
// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK: "fuser.neg"{{.*}}fuser.stride_order = array<i64: 0, 1, 2>
func.func @broadcast_in_dim(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>}) -> tensor<4x8x2xf32> attributes {fuser.fusion} {
  %0 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8x2xf32>
  %1 = "fuser.neg"(%0) : (tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
  return %1 : tensor<4x8x2xf32>
}

// -----

// After fuser-alias-meta-ops the references are the views the computation
// reads. A view's allocation order is its dims sorted by stride, largest
// outermost: the seed id1's view of qkv, (2, 16, 1024, 16) with strides
// (589824, 32, 576, 1), is allocated {0, 2, 1, 3}, the same order as seed
// id0's as_strided argument with stride_order [3, 1, 2, 0].
// CHECK-LABEL: func.func @view_reference
// CHECK-SAME: -> (tensor<2x16x1024x16xf32> {fuser.stride_order = array<i64: 3, 1, 2, 0>})
// CHECK: "fuser.view"(%arg0) {static_offset = 16 : i64, static_strides = array<i64: 589824, 32, 576, 1>} :
// CHECK: "fuser.cast"(%{{.*}}) {fuser.stride_order = array<i64: 3, 1, 2, 0>}
func.func @view_reference(%arg0: tensor<2x1024x576xbf16>) -> tensor<2x16x1024x16xf32> attributes {fuser.fusion} {
  %0 = "fuser.view"(%arg0) {static_offset = 16 : i64, static_strides = array<i64: 589824, 32, 576, 1>} : (tensor<2x1024x576xbf16>) -> tensor<2x16x1024x16xbf16>
  %1 = "fuser.cast"(%0) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
  return %1 : tensor<2x16x1024x16xf32>
}

// -----

// The same computation on the as_strided argument: the same order.
// CHECK-LABEL: func.func @as_strided_reference
// CHECK: "fuser.cast"(%arg0) {fuser.stride_order = array<i64: 3, 1, 2, 0>}
func.func @as_strided_reference(%arg0: tensor<2x16x1024x16xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>}) -> tensor<2x16x1024x16xf32> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
  return %0 : tensor<2x16x1024x16xf32>
}

// -----

// Stride-0 dims of a view (a broadcast table) are broadcast dims: the view
// has 2 real dims, so the 3-D column-major argument is the add's reference.
// Alone, the broadcast view (dim 1 innermost in memory) gives the neg its
// innermost real dims {2, 1}; the stride-0 dim goes outermost.
// CHECK-LABEL: func.func @view_broadcast
// CHECK: "fuser.neg"(%{{.*}}) {fuser.stride_order = array<i64: 2, 0, 1>}
// CHECK: "fuser.add"(%{{.*}}) {fuser.stride_order = array<i64: 0, 1, 2>}
func.func @view_broadcast(%arg0: tensor<16x8xf32>, %arg1: tensor<4x8x16xf32> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 0, 1, 2>}) -> tensor<4x8x16xf32> attributes {fuser.fusion} {
  %0 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 0, 1, 8>} : (tensor<16x8xf32>) -> tensor<4x8x16xf32>
  %1 = "fuser.neg"(%0) : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %2 = "fuser.add"(%1, %arg1) : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %2 : tensor<4x8x16xf32>
}

// -----

// Equal strides keep the logical order (a stable sort): dim 0 stays outside
// dim 1, so the view is treated as row-major.
// CHECK-LABEL: func.func @view_stride_tie
// CHECK: "fuser.neg"(%{{.*}}) {fuser.stride_order = array<i64: 1, 0>}
func.func @view_stride_tie(%arg0: tensor<64xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 1, 1>} : (tensor<64xf32>) -> tensor<4x8xf32>
  %1 = "fuser.neg"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// fd.ops.stride_order (a set with its own fuser.stride_order) keeps its
// order, and the output it is gets it; its consumer's order is inferred
// from the inputs as usual (row-major here).
// CHECK-LABEL: func.func @layout_set
// CHECK-SAME: -> (tensor<4x8x2xf32> {fuser.stride_order = array<i64: 0, 2, 1>}, tensor<4x8x2xf32> {fuser.stride_order = array<i64: 2, 1, 0>})
// CHECK: "fuser.set"(%{{.*}}) {fuser.stride_order = array<i64: 0, 2, 1>}
// CHECK: "fuser.neg"(%{{.*}}) {fuser.stride_order = array<i64: 2, 1, 0>}
func.func @layout_set(%arg0: tensor<4x8x2xf32>) -> (tensor<4x8x2xf32>, tensor<4x8x2xf32>) attributes {fuser.fusion} {
  %0 = "fuser.exp"(%arg0) : (tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
  %1 = "fuser.set"(%0) {fuser.stride_order = array<i64: 0, 2, 1>} : (tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
  %2 = "fuser.neg"(%1) : (tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
  return %1, %2 : tensor<4x8x2xf32>, tensor<4x8x2xf32>
}
